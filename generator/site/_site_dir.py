"""Where ``lingjun-kb build`` may put the site, and the work folders and locks of a build.

The site folder is replaced as a whole by every build, so it may only be

* absent (it is created, with its missing parents), or
* a folder a previous build made: it holds the marker file :data:`MARKER`
  that :func:`mark_site` writes into every finished site, or it is empty.

Whatever the marker says, the site folder may never be the checkout (the
folder with ``mkdocs.yml``), a folder above it or the working folder, nor be,
hold or lie inside a source folder of the project (the releases folder,
``docs/``, ``.git``, the build folder, the Python packages, ``tests/``,
``bench/``).  It is inspected with ``lstat`` only and never opened, so a
symbolic link, a regular file, a FIFO, a socket or a device is refused
without blocking and without being followed.

A build works in ``.<site>.tmp-<pid>`` and ``.<site>.old-<pid>`` next to the
site; :func:`remove_stale_work_folders` deletes those left by builds whose
process is gone (``kill -9``), never those of a build still running.
Builds sharing a build folder (``.build/``) run one after the other
(:func:`exclusive`); the final swap of the site is locked on its parent
folder, so concurrent builds into one checkout all succeed and the site is
always a whole build.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Iterable, Iterator, Optional

from lingjun.checks.core.file_kind import file_kind

__all__ = ["MARKER", "SiteDirRefused", "check_site_dir", "protected_folders", "mark_site",
           "work_folder_names", "remove_stale_work_folders", "exclusive"]

#: file written into every built site; a folder holding it was made by ``lingjun-kb build``
MARKER = ".lingjun-kb-site"

_MARKER_TEXT = ("This folder is a site built by `lingjun-kb build`; the next build replaces it whole.\n"
                "Delete this file to keep the build from replacing the folder.\n")


class SiteDirRefused(ValueError):
    """The site folder may not be written or replaced; ``str()`` is one line naming it and why."""


def protected_folders(config_dir: Path, releases: Path, build_dir: Path) -> list[tuple[str, Path]]:
    """``[(what, path)]`` of the project's source folders a site may not be, hold or lie in.

    ``config_dir`` is the checkout (the folder of ``mkdocs.yml``); the Python
    packages are found through the installed ``lingjun`` modules.
    """
    import lingjun.checks
    import lingjun.generator
    import lingjun.schema

    folders = [("the releases folder", Path(releases)), ("the build folder", Path(build_dir))]
    for name in ("releases", "docs", ".git", "tests", "bench", "schema", "generator", "checks"):
        folders.append((f"the project's {name}/ folder", Path(config_dir) / name))
    for module in (lingjun.checks, lingjun.generator, lingjun.schema):
        folders.append((f"the source folder of {module.__name__}", Path(module.__file__).parent))
    return folders


def _real(path: Path) -> str:
    return os.path.realpath(os.path.abspath(path))


def _inside(path: str, folder: str) -> bool:
    """True when ``path`` is ``folder`` or lies under it (both real, absolute)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_site_dir(site_dir: Path, config_dir: Path, protected: Iterable[tuple[str, Path]],
                   cwd: Optional[Path] = None) -> None:
    """Refuse a site folder that a build must not create or replace (see the module docstring).

    Args:
        site_dir: the ``--site-dir`` value.
        config_dir: the checkout (folder of ``mkdocs.yml``).
        protected: :func:`protected_folders`.
        cwd: the working folder (default: the process's).

    Raises:
        SiteDirRefused: one line naming ``site_dir`` and why it is refused.
    """
    shown = os.fspath(site_dir)
    if not shown:
        raise SiteDirRefused("--site-dir is empty; give the folder the site is built into")
    try:
        info: Optional[os.stat_result] = os.lstat(site_dir)
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as exc:
        raise SiteDirRefused(f"--site-dir {shown}: cannot be inspected: {exc.strerror or exc}") from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise SiteDirRefused(f"--site-dir {shown} is a symbolic link; the build replaces folders, never links: "
                             "give the folder itself")
    real = _real(Path(site_dir))
    for what, folder in (("the checkout", Path(config_dir)), ("the working folder", Path(cwd or os.getcwd()))):
        if _inside(_real(folder), real):
            relation = "is" if _real(folder) == real else "holds"
            raise SiteDirRefused(f"--site-dir {shown} {relation} {what} ({_real(folder)}); the build would replace it")
    folders = [(what, _real(folder)) for what, folder in protected]
    for what, other in folders:
        if _inside(real, other):
            relation = "is" if other == real else "is inside"
            raise SiteDirRefused(f"--site-dir {shown} {relation} {what}; build the site into a folder of its own")
    for what, other in folders:
        if _inside(other, real):
            raise SiteDirRefused(f"--site-dir {shown} holds {what}; the build would replace it")
    if info is None:
        return
    if not stat.S_ISDIR(info.st_mode):
        raise SiteDirRefused(f"--site-dir {shown} is {file_kind(info.st_mode)}, not a site folder; "
                             "the build never replaces it")
    try:
        marker = os.lstat(os.path.join(site_dir, MARKER))
        if stat.S_ISREG(marker.st_mode):
            return
    except OSError:
        pass
    try:
        empty = not os.listdir(site_dir)
    except OSError as exc:
        raise SiteDirRefused(f"--site-dir {shown}: cannot be listed: {exc.strerror or exc}") from None
    if not empty:
        raise SiteDirRefused(f"--site-dir {shown} is a folder no build made (it has no {MARKER} file); "
                             "the build replaces only its own sites: remove it or choose another folder")


def mark_site(folder: Path) -> None:
    """Write :data:`MARKER` into a freshly built site ``folder``."""
    (Path(folder) / MARKER).write_text(_MARKER_TEXT, encoding="utf-8")


def work_folder_names(site_dir: Path, pid: Optional[int] = None) -> tuple[Path, Path]:
    """``(tmp, old)``: this build's work folders next to ``site_dir`` (``.<name>.tmp-<pid>``, ``.<name>.old-<pid>``)."""
    site_dir = Path(site_dir)
    pid = os.getpid() if pid is None else pid
    return (site_dir.parent / f".{site_dir.name}.tmp-{pid}", site_dir.parent / f".{site_dir.name}.old-{pid}")


def _alive(pid: int) -> bool:
    """True when a process ``pid`` exists (one of another user counts)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True


def remove_stale_work_folders(site_dir: Path) -> list[Path]:
    """Delete the work folders of ``site_dir`` left by dead builds (and this process's own); returns them.

    A work folder is ``.<name>.tmp-<pid>`` or ``.<name>.old-<pid>`` next to the
    site, a real folder (not a link).  It is kept while process ``pid`` is
    alive, unless ``pid`` is this process (a leftover of an earlier process
    that had the same id).
    """
    site_dir = Path(site_dir)
    pattern = re.compile(r"\." + re.escape(site_dir.name) + r"\.(?:tmp|old)-([0-9]{1,10})\Z")
    removed = []
    try:
        names = os.listdir(site_dir.parent)
    except OSError:
        return removed
    for name in names:
        match = pattern.match(name)
        if not match:
            continue
        pid = int(match.group(1))
        if pid != os.getpid() and _alive(pid):
            continue
        path = site_dir.parent / name
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                continue
        except OSError:
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


@contextlib.contextmanager
def exclusive(folder: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``folder`` (created when missing) for the ``with`` block.

    Another process asking for the same folder waits; the lock goes with the
    process, so a killed build never leaves it held.  Without ``fcntl`` (not
    POSIX) the block runs unlocked.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                break
            except InterruptedError:  # pragma: no cover - retried by Python since 3.5, kept for clarity
                continue
            except OSError as exc:  # a file system without locks: build unlocked rather than fail
                if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                    break
                raise
        yield
    finally:
        os.close(fd)
