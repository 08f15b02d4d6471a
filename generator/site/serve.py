"""Serving the built site with live reload (``lingjun-kb serve``).

Uses MkDocs' :class:`mkdocs.livereload.LiveReloadServer`: it serves the
site folder (English at ``/``, Chinese at ``/zh/``), injects its reload
script into HTML pages, and calls the rebuild function when a watched path
changes: the releases folder, ``docs/``, the templates and theme, and the
MkDocs configuration files.  A rebuild always builds both languages; when it
fails, the errors are printed and the previous site keeps being served.

The port is bound before anything is built or printed (:func:`open_server`),
so a busy port is one line and exit status 2, not a traceback after
"serving ...".  Unknown paths get the site's own 404 page, in the language of
the path (:func:`error_page`).
"""

from __future__ import annotations

import errno
import threading
from pathlib import Path
from typing import Callable, Optional

from lingjun.generator.site.build import HAND_WRITTEN_DIR
from lingjun.generator.site.mkdocs_build import CONFIG_FILES, find_config_dir

__all__ = ["ServeError", "SiteServer", "error_page", "open_server", "serve", "watched_paths"]

#: path prefix of each language other than English (served from ``<site>/<lang>/``)
_LANGUAGE_PREFIXES = ("zh",)


class ServeError(Exception):
    """The server cannot listen; ``str()`` is the one line to show the user."""


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
    if number in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or exc.__class__.__name__ == "gaierror":
        return f"cannot listen on {host}: not an address of this machine; choose another with --host"
    if isinstance(exc, OverflowError):
        return f"port {port} is out of range; choose one from 1 to 65535 with --port"
    reason = getattr(exc, "strerror", None) or str(exc)
    return f"cannot listen on {host}:{port}: {reason}"


def _server_class():
    from mkdocs.livereload import LiveReloadServer

    class SiteServer(LiveReloadServer):
        """MkDocs' live-reload server, bound at construction, with per-language error pages."""

        def __init__(self, builder: Callable[[], None], host: str, port: int, root: str) -> None:
            super().__init__(builder=builder, host=host, port=port, root=root)
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
            return super().serve_request(environ, start_response)

        def _error_content(self, code: int) -> Optional[bytes]:
            page = error_page(Path(self.root), getattr(self._request, "path", "/"), code)
            return page.read_bytes() if page is not None else None

    return SiteServer


#: the server class (a subclass of MkDocs' LiveReloadServer, created on first use so that importing
#: this module does not import MkDocs)
SiteServer = None  # type: ignore[assignment]


def open_server(site_dir: Path, host: str, port: int, rebuild: Callable[[], int]):
    """A :class:`SiteServer` listening on ``host:port`` (not yet serving).

    Raises:
        ServeError: the port is in use, privileged or out of range, or the host is not local;
            the message is one line naming the option to change.
    """
    global SiteServer
    if SiteServer is None:
        SiteServer = _server_class()

    def builder() -> None:
        rebuild()

    try:
        return SiteServer(builder=builder, host=host, port=port, root=str(Path(site_dir).absolute()))
    except (OSError, OverflowError) as exc:
        raise ServeError(_listen_error(exc, host, port)) from None


def serve(server, releases: Path, site_dir: Path) -> int:
    """Serve with ``server`` (from :func:`open_server`) until interrupted; returns 0."""
    for path in watched_paths(releases):
        server.watch(str(path))
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in host else host
    print(f"serving {site_dir} on http://{host}:{port}/ (Chinese at /zh/); watching for changes, Ctrl+C to stop")
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
