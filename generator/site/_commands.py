"""``lingjun-kb build`` and ``lingjun-kb serve``: argument handling and error reporting.

Exit status: 0 built; 1 the records have errors (printed one per line as
``path:line:col: field: message``) or MkDocs failed (its messages printed);
2 a missing input (releases folder, configuration, hand-written page), a
site URL (``--site-url``, ``LINGJUN_KB_SITE_URL``, ``mkdocs.yml``) that is not
an http(s) URL, a refused site folder (see
:mod:`lingjun.generator.site._site_dir`) or a file-system error; 130
interrupted (Ctrl-C: the previous site is left as it was).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional, Union

from lingjun.checks.core.inert_text import NAME_LIMIT, capped, inert
from lingjun.checks.core.no_space import fullest, is_no_space
from lingjun.generator.site.build import ValidationFailed, build_site
from lingjun.generator.site.mkdocs_build import MkDocsBuildError, find_config_dir
from lingjun.generator.site import site_url
from lingjun.generator.site.serve import ServeError, open_server, serve

__all__ = ["cli_build", "cli_serve", "format_problem"]


def format_problem(problem: Any) -> str:
    """``path:line:col: field: message`` (``path: field: message`` without a position)."""
    location = problem.location() if hasattr(problem, "location") else str(getattr(problem, "path", "?"))
    field = getattr(problem, "field", "") or "-"
    return inert(f"{location}: {field}: {problem.message}")  # one line, controls escaped


def resolve_site_url(args: Any) -> Optional[str]:
    """The site URL for ``args``: ``args.site_url`` (``--site-url``), else the environment or ``mkdocs.yml``.

    Raises:
        ValueError: the value is not an absolute http(s) URL; the message names where it came from.
        FileNotFoundError: no ``mkdocs.yml`` to read (only when ``--site-url`` is not given).
    """
    given = getattr(args, "site_url", None)
    return site_url.resolve_site_url(None if given else find_config_dir(), given, default=None)


def _run_build(releases: Path, site_dir: Union[str, Path], site_url: Optional[str] = None) -> int:
    try:
        timings = build_site(releases, site_dir, site_url=site_url)
    except KeyboardInterrupt:
        print(f"lingjun-kb build: interrupted; {site_dir} was left as it was", file=sys.stderr)
        return 130
    except ValidationFailed as exc:
        for problem in exc.problems:
            print(format_problem(problem), file=sys.stderr)
        print(inert(f"lingjun-kb build: {len(exc.problems)} error(s) in {releases}; the site was not built"), file=sys.stderr)
        return 1
    except MkDocsBuildError as exc:
        for message in exc.messages:
            print(inert(f"mkdocs ({exc.lang}): {message}"), file=sys.stderr)
        print(inert(f"lingjun-kb build: MkDocs failed; {site_dir} was left as it was"), file=sys.stderr)
        return 1
    except (FileNotFoundError, ValueError) as exc:
        print(inert(f"lingjun-kb build: {exc}"), file=sys.stderr)
        return 2
    except OSError as exc:  # a rename across file systems, a full disk, a name too long: one line
        if is_no_space(exc):  # the file named may be the one copied from: name the destination that is full
            print(inert(_no_space_line(exc, site_dir)), file=sys.stderr)
            return 2
        print(inert(f"lingjun-kb build: {capped(str(exc.filename or site_dir), NAME_LIMIT)}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    print(inert(
        f"built {site_dir} ({timings.pages} pages rendered; validate {timings.validate:.2f}s, "
        f"render {timings.render:.2f}s, mkdocs {timings.mkdocs:.2f}s)"
    ))
    return 0


def _no_space_line(exc: OSError, site_dir: Union[str, Path]) -> str:
    """The line for a build that ran out of room: the site folder or the checkout's ``.build/``, whichever file
    system is fuller (:func:`lingjun.checks.core.no_space.fullest`), never the file being copied."""
    try:
        build_dir = find_config_dir() / ".build"
    except FileNotFoundError:
        build_dir = None
    site_folder = os.path.dirname(os.path.abspath(os.fspath(site_dir)))
    found = fullest([site_folder] + ([build_dir] if build_dir is not None else []))
    where = found[0] if found is not None else site_folder  # measured after the work folders were removed
    what = "--site-dir" if where == site_folder else "the work folder .build/ of the checkout"
    return (f"lingjun-kb build: {exc.strerror or 'no space left'}: the file system of {capped(str(where), NAME_LIMIT)} "
            f"({what}) is full; free space there or build elsewhere; {capped(str(site_dir), NAME_LIMIT)} "
            "was left as it was")


def cli_build(args: Any) -> int:
    """``lingjun-kb build``: ``args.releases`` (folder), ``args.site_dir`` (output folder), ``args.site_url``."""
    try:
        site_url = resolve_site_url(args)
    except (FileNotFoundError, ValueError) as exc:
        print(inert(f"lingjun-kb build: {exc}"), file=sys.stderr)
        return 2
    return _run_build(Path(getattr(args, "releases", "releases")), _site_dir_arg(args), site_url)


def _site_dir_arg(args: Any) -> Union[str, Path]:
    """``args.site_dir`` as given: ``""`` stays empty (``Path("")`` would be the working folder)."""
    value = getattr(args, "site_dir", "site")
    return value if value == "" else Path(os.fspath(value))


def cli_serve(args: Any) -> int:
    """``lingjun-kb serve``: bind ``args.host``:``args.port``, build, then serve with live reload.

    The port is bound first: when it cannot be (in use, privileged, out of
    range, not a local address) one line says so and the status is 2,
    before anything is built or "serving" is printed.
    """
    releases = Path(getattr(args, "releases", "releases"))
    site_dir = _site_dir_arg(args)
    host, port = getattr(args, "host", "127.0.0.1"), int(getattr(args, "port", 8000))
    try:
        site_url = resolve_site_url(args)
    except (FileNotFoundError, ValueError) as exc:
        print(inert(f"lingjun-kb serve: {exc}"), file=sys.stderr)
        return 2
    try:
        server = open_server(site_dir, host, port, rebuild=lambda: _run_build(releases, site_dir, site_url))
    except ServeError as exc:
        print(inert(f"lingjun-kb serve: {exc}"), file=sys.stderr)
        return 2
    status = _run_build(releases, site_dir, site_url)
    if status != 0:
        server.server_close()
        return status
    return serve(server, releases, site_dir)
