"""Serving the built site with live reload (``lingjun-kb serve``).

Uses MkDocs' :class:`mkdocs.livereload.LiveReloadServer`: it serves the
site folder (English at ``/``, Chinese at ``/zh/``), injects its reload
script into HTML pages, and calls the rebuild function when a watched path
changes: the releases folder, ``docs/``, the templates and theme, and the
MkDocs configuration files.  A rebuild always builds both languages; when it
fails, the errors are printed and the previous site keeps being served.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from lingjun.generator.site.build import HAND_WRITTEN_DIR
from lingjun.generator.site.mkdocs_build import CONFIG_FILES, find_config_dir

__all__ = ["serve", "watched_paths"]


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


def serve(releases: Path, site_dir: Path, host: str, port: int, rebuild: Callable[[], int]) -> int:
    """Serve ``site_dir`` on ``http://host:port/`` until interrupted; returns 0."""
    from mkdocs.livereload import LiveReloadServer

    def builder() -> None:
        rebuild()

    server = LiveReloadServer(builder=builder, host=host, port=port, root=str(Path(site_dir).absolute()))
    for path in watched_paths(releases):
        server.watch(str(path))
    print(f"serving {site_dir} on http://{host}:{port}/ (Chinese at /zh/); watching for changes, Ctrl+C to stop")
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0
