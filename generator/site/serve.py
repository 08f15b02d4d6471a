"""Serving the built site with live reload (``lingjun-kb serve``).

Uses MkDocs' :class:`mkdocs.livereload.LiveReloadServer`: it serves the
site folder (English at ``/``, Chinese at ``/zh/``), injects its reload
script into HTML pages, and calls the rebuild function when a watched path
changes: the releases folder, ``docs/``, the templates and theme, and the
MkDocs configuration files.  A rebuild always builds both languages; when it
fails, the errors are printed and the previous site keeps being served.

The port is bound before anything is built or printed (:func:`open_server`),
so a busy port is one line and exit status 2, not a traceback after
"serving ...".  The ``--host`` value is checked first (:func:`check_host`):
an empty value, blanks, control or bidirectional characters and names that
are not host names or addresses are refused in one line (exit 2); the
wildcards ``0.0.0.0`` and ``::`` (every interface) are taken only when typed
out, never from an empty value.  Unknown paths get the site's own 404 page,
in the language of the path (:func:`error_page`).

Every request is answered without a traceback: a path holding a NUL or
another control character, or bytes that are not UTF-8, gets 400; a path
outside the site 404; an error inside the server 500 with one line on the
terminal.  Whatever the terminal shows of a request (its request line, an
error) goes through :func:`lingjun.checks.core.inert_text.inert`, so an ESC
in a request line never reaches the terminal raw.
"""

from __future__ import annotations

import errno
import logging
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Optional

from lingjun.checks.core.inert_text import UNSAFE, inert
from lingjun.generator._listen_address import check_host
from lingjun.generator.site.build import HAND_WRITTEN_DIR
from lingjun.generator.site.mkdocs_build import CONFIG_FILES, find_config_dir

__all__ = ["ServeError", "SiteServer", "check_host", "error_page", "open_server", "request_path_problem", "serve",
           "watched_paths"]

#: path prefix of each language other than English (served from ``<site>/<lang>/``)
_LANGUAGE_PREFIXES = ("zh",)


class ServeError(Exception):
    """The server cannot listen; ``str()`` is the one line to show the user."""




def request_path_problem(raw: str) -> Optional[str]:
    """Why the request path ``raw`` (WSGI ``PATH_INFO``: percent-decoded, one character per byte) gets 400, or None.

    A path that is not UTF-8 once decoded, or that holds a character :mod:`lingjun.checks.core.inert_text` never
    shows raw (a control such as ``/%00`` or ``/%1b[2J``, a bidirectional or invisible one such as ``/%E2%80%AE``),
    names no file of the site.
    """
    try:
        path = raw.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return "the path is not UTF-8"

    if any(ord(character) in UNSAFE for character in path):  # no file of the site has one in its name
        return "the path holds a control, bidirectional or invisible character"
    return None


def watched_paths(releases: Path) -> list[Path]:
    """Everything whose change triggers a rebuild (existing paths only)."""
    config_dir = find_config_dir()
    site_pkg = Path(__file__).parent
    paths = [
        Path(releases),
        config_dir / HAND_WRITTEN_DIR,
        site_pkg / "templates",
        site_pkg / "theme",
        *(config_dir / name for name in CONFIG_FILES.values()),
    ]
    return [p.absolute() for p in paths if p.exists()]


def error_page(site_dir: Path, path: str, code: int = 404) -> Optional[Path]:
    """The built error page for a request of ``path`` (URL path, already decoded).

    ``/zh/...`` gets ``<site_dir>/zh/<code>.html``, everything else
    ``<site_dir>/<code>.html``; a language without its own page falls back to
    the English one.  None when the site has no such page.
    """
    site_dir = Path(site_dir)
    candidates = []
    first = path.lstrip("/").split("/", 1)[0]
    if first in _LANGUAGE_PREFIXES:
        candidates.append(site_dir / first / f"{code}.html")
    candidates.append(site_dir / f"{code}.html")
    return next((c for c in candidates if c.is_file()), None)


def _listen_error(exc: BaseException, host: str, port: int) -> str:
    """One line saying why ``host:port`` cannot be listened on."""
    number = getattr(exc, "errno", None)
    if number == errno.EADDRINUSE:
        return f"port {port} on {host} is in use; choose another with --port"
    if number == errno.EACCES:
        return f"port {port} on {host} needs more privileges; choose one above 1023 with --port"
    if number in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(exc, UnicodeError) \
            or exc.__class__.__name__ == "gaierror":
        return f"cannot listen on {host}: not an address of this machine; choose another with --host"
    if isinstance(exc, OverflowError):
        return f"port {port} is out of range; choose one from 1 to 65535 with --port"
    reason = getattr(exc, "strerror", None) or str(exc)
    return f"cannot listen on {host}:{port}: {reason}"


def _say(message: str) -> None:
    """One line on standard error, made inert (its words may come from a request)."""
    print(inert(message), file=sys.stderr)


def _server_class():
    from mkdocs.livereload import LiveReloadServer, _Handler  # deferred: pulls in mkdocs, which other commands do not need

    class _InertHandler(_Handler):
        """MkDocs' request handler with every line it logs made inert (the request line is the client's text)."""

        def log_request(self, code="-", size="-") -> None:
            if str(code) != "200":
                _say(f"{time.strftime('[%H:%M:%S]')} \"{self.requestline}\" code {code}")

        def log_message(self, format, *args) -> None:  # noqa: A002 - the name http.server uses
            logging.getLogger("mkdocs.livereload").debug("%s", _inert_text(format % args))

    class SiteServer(LiveReloadServer):
        """MkDocs' live-reload server, bound at construction, with per-language error pages, 400 for paths
        that name no file, and no traceback for any request."""

        def __init__(self, builder: Callable[[], None], host: str, port: int, root: str) -> None:
            super().__init__(builder=builder, host=host, port=port, root=root)
            self.RequestHandlerClass = _InertHandler
            self._request = threading.local()
            self.error_handler = self._error_content
            self._bound = False
            try:
                super().server_bind()
                super().server_activate()
            except BaseException:
                self.server_close()
                raise
            self._bound = True

        def server_bind(self) -> None:  # serve() binds again: already done
            if not self._bound:
                super().server_bind()

        def server_activate(self) -> None:
            if not self._bound:
                super().server_activate()

        def serve_request(self, environ, start_response):
            raw = environ.get("PATH_INFO", "/")
            self._request.path = raw.encode("latin-1", "replace").decode("utf-8", "replace")
            if request_path_problem(raw):
                return self._error_response(start_response, 400, "400 Bad Request")
            return super().serve_request(environ, start_response)

        def _serve_request(self, environ, start_response):
            try:
                return super()._serve_request(environ, start_response)
            except Exception as exc:  # noqa: BLE001 - one line on the terminal and a 500, never a traceback
                _say(f"lingjun-kb serve: error answering {environ.get('PATH_INFO', '/')}: {type(exc).__name__}: {exc}")
                return self._error_response(start_response, 500, "500 Internal Server Error")

        def _error_response(self, start_response, code: int, status: str):
            content = self._error_content(code) or status.encode("ascii")
            start_response(status, [("Content-Type", "text/html"), ("Content-Length", str(len(content)))])
            return [content]

        def handle_error(self, request, client_address) -> None:
            """A failure outside the application (the connection broke, a malformed request): one line."""
            exc = sys.exc_info()[1]
            if isinstance(exc, (ConnectionError, TimeoutError)):
                return
            _say(f"lingjun-kb serve: request from {client_address[0]} failed: {type(exc).__name__}: {exc}")

        def _error_content(self, code: int) -> Optional[bytes]:
            try:
                page = error_page(Path(self.root), getattr(self._request, "path", "/"), code)
                return page.read_bytes() if page is not None else None
            except (OSError, ValueError):
                return None

    return SiteServer


def _inert_text(text: str) -> str:
    return inert(text)


#: the server class (a subclass of MkDocs' LiveReloadServer, created on first use so that importing
#: this module does not import MkDocs)
SiteServer = None  # type: ignore[assignment]


def open_server(site_dir: Path, host: str, port: int, rebuild: Callable[[], int]):
    """A :class:`SiteServer` listening on ``host:port`` (not yet serving).

    Raises:
        ServeError: the host is refused (:func:`check_host`), the port is in use, privileged or out of range,
            or the host is not local; the message is one line naming the option to change.
    """
    global SiteServer
    try:
        check_host(host)
    except ValueError as exc:
        raise ServeError(f"--host: {exc}") from None
    if SiteServer is None:
        SiteServer = _server_class()

    def builder() -> None:
        rebuild()

    try:
        return SiteServer(builder=builder, host=host, port=port, root=str(Path(site_dir).absolute()))
    except (OSError, OverflowError, UnicodeError) as exc:
        raise ServeError(_listen_error(exc, host, port)) from None


def serve(server, releases: Path, site_dir: Path) -> int:
    """Serve with ``server`` (from :func:`open_server`) until interrupted; returns 0."""
    for path in watched_paths(releases):
        server.watch(str(path))
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in host else host
    print(_inert_text(f"serving {site_dir} on http://{host}:{port}/ (Chinese at /zh/); watching for changes, "
                      "Ctrl+C to stop"))
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
