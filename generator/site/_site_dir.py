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

A build works in new folders ``.<site>.tmp-<pid>-<random>`` and
``.<site>.old-<pid>-<random>`` next to the site, each made with ``mkdir`` by
:func:`make_work_folder` (an existing entry of that name, a planted link
included, is never reused), and checks with ``lstat`` before the final swap
that its work folder is still the folder it made; :func:`remove_stale_work_folders` deletes those left by builds whose
process is gone (``kill -9``), never those of a build still running.
Builds sharing a build folder (``.build/``) run one after the other
(:func:`exclusive`); the final swap of the site is locked on its parent
folder, so concurrent builds into one checkout all succeed and the site is
always a whole build.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

import lingjun.checks
import lingjun.generator
import lingjun.schema

from lingjun.checks.core.atomic_write import UnsafeOutputPath, check_output_folder
from lingjun.checks.core.file_kind import file_kind
from lingjun.checks.core.inert_text import inert
from lingjun.generator.site._remove_tree import mount_points, remove_tree

__all__ = ["MARKER", "SiteDirRefused", "check_site_dir", "protected_folders", "mark_site",
           "final_site_dir", "make_work_folder", "same_folder", "remove_stale_work_folders", "exclusive"]

#: file written into every built site; a folder holding it was made by ``lingjun-kb build``
MARKER = ".lingjun-kb-site"

_MARKER_TEXT = ("This folder is a site built by `lingjun-kb build`; the next build replaces it while it holds only the\n"
                "entries listed below. Delete this file to keep the build from replacing the folder.\n")


class SiteDirRefused(ValueError):
    """The site folder may not be written or replaced; ``str()`` is one line naming it and why."""


def protected_folders(config_dir: Path, releases: Path, build_dir: Path) -> list[tuple[str, Path]]:
    """``[(what, path)]`` of the project's source folders a site may not be, hold or lie in.

    ``config_dir`` is the checkout (the folder of ``mkdocs.yml``); the Python
    packages are found through the installed ``lingjun`` modules.
    """
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


def final_site_dir(site_dir: Union[str, Path], cwd: Optional[Path] = None) -> Path:
    """The absolute folder ``site_dir`` names, found without creating or following anything at its end.

    The path is walked one name at a time from the root (relative paths from
    ``cwd``): a link among the folders above the last name is resolved, a
    ``..`` goes up from the real folder reached so far (so ``imp/newdir/..``
    is ``imp`` even when ``newdir`` does not exist), and the last name is kept
    as it is (a link there is refused by :func:`check_site_dir`, never
    followed).

    Raises:
        SiteDirRefused: ``site_dir`` is empty, a name above the last one is an
            existing file that is not a folder (``file/..``), or a folder of
            the path cannot be inspected.
    """
    shown = os.fspath(site_dir)
    if not shown:
        raise SiteDirRefused("--site-dir is empty; give the folder the site is built into")
    base = os.path.realpath(os.fspath(cwd) if cwd is not None else os.getcwd())
    path = shown if os.path.isabs(shown) else os.path.join(base, shown)
    parts = [part for part in path.split(os.sep) if part not in ("", ".")]
    current = os.sep
    for index, part in enumerate(parts):
        if part == "..":
            current = os.path.dirname(current)
            continue
        following = os.path.join(current, part)
        last = index == len(parts) - 1
        try:
            info = os.lstat(following)
        except (FileNotFoundError, NotADirectoryError):
            current = following
            continue
        except OSError as exc:
            raise SiteDirRefused(f"--site-dir {shown}: {following} cannot be inspected: {exc.strerror or exc}") from None
        if last:
            current = following
        elif stat.S_ISLNK(info.st_mode):
            current = os.path.realpath(following)
            if os.path.lexists(current) and not os.path.isdir(current):
                raise SiteDirRefused(f"--site-dir {shown}: {following} is not a folder")
        elif not stat.S_ISDIR(info.st_mode):
            raise SiteDirRefused(f"--site-dir {shown}: {following} is {file_kind(info.st_mode)}, not a folder")
        else:
            current = following
    return Path(current)


def _identity(path: str, follow: bool = True) -> Optional[tuple[int, int]]:
    try:
        info = os.stat(path) if follow else os.lstat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def _is_mount_point(path: str) -> bool:
    """Whether the real folder ``path`` is a mount point (``/proc/self/mountinfo``, or another device than above)."""
    if path in mount_points():
        return True
    mine, above = _identity(path, follow=False), _identity(os.path.dirname(path))
    return mine is not None and above is not None and mine[0] != above[0]


def _ancestors(path: str) -> list[str]:
    """``path`` and every folder above it, up to the root (``path`` real and absolute)."""
    found = [path]
    while os.path.dirname(found[-1]) != found[-1]:
        found.append(os.path.dirname(found[-1]))
    return found


def check_site_dir(site_dir: Union[str, Path], config_dir: Path, protected: Iterable[tuple[str, Path]],
                   cwd: Optional[Path] = None) -> Path:
    """Refuse a site folder that a build must not create or replace (see the module docstring).

    The folder checked is :func:`final_site_dir` (``..`` resolved without
    creating anything).  Besides the real paths, the (device, inode) identity
    of the site folder and of every existing folder above it is compared with
    the protected folders, so a bind mount or a second mount of a source
    folder is refused as well.

    Args:
        site_dir: the ``--site-dir`` value.
        config_dir: the checkout (folder of ``mkdocs.yml``).
        protected: :func:`protected_folders`.
        cwd: the working folder (default: the process's).

    Returns:
        the absolute folder the site goes to (:func:`final_site_dir`).

    Raises:
        SiteDirRefused: one line naming ``site_dir`` and why it is refused.
    """
    shown = os.fspath(site_dir)
    target = final_site_dir(site_dir, cwd)
    try:
        info: Optional[os.stat_result] = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as exc:
        raise SiteDirRefused(f"--site-dir {shown}: cannot be inspected: {exc.strerror or exc}") from None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise SiteDirRefused(f"--site-dir {shown} is a symbolic link; the build replaces folders, never links: "
                             "give the folder itself")
    real = os.fspath(target)
    holders = [("the checkout", Path(config_dir)), ("the working folder", Path(cwd or os.getcwd()))]
    for what, folder in holders:
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
    # the same checks by identity: a bind mount gives one folder two unrelated paths
    mine = {}
    for folder in _ancestors(real):
        ident = _identity(folder, follow=False)
        if ident is not None:
            mine.setdefault(ident, folder)
    for what, other in folders:
        ident = _identity(other)
        if ident is not None and ident in mine:
            relation = "is" if mine[ident] == real else "is inside"
            raise SiteDirRefused(f"--site-dir {shown} {relation} {what} (the same folder as {mine[ident]}, "
                                 "another path to it); build the site into a folder of its own")
    site_ident = _identity(real, follow=False) if info is not None else None
    if site_ident is not None:
        for what, other in holders + [(what, Path(other)) for what, other in folders]:
            for above in _ancestors(_real(other)):
                if _identity(above) == site_ident:
                    raise SiteDirRefused(f"--site-dir {shown} holds {what} (it is {above}, another path to it); "
                                         "the build would replace it")
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise SiteDirRefused(f"--site-dir {shown} is {file_kind(info.st_mode)}, not a site folder; "
                             "the build never replaces it")
    if info is not None and _is_mount_point(real):
        raise SiteDirRefused(f"--site-dir {shown} is a mount point; the build swaps the site in by renames, which "
                             "cannot move a mount point: give a folder inside it")
    try:  # the work folders are made beside the site: its folder must take new entries
        check_output_folder(target.parent)
    except UnsafeOutputPath as exc:
        raise SiteDirRefused(f"--site-dir {shown}: {exc.strerror}") from None
    if info is None:
        return target
    try:
        marker = os.lstat(os.path.join(target, MARKER))
    except OSError:
        marker = None
    if marker is not None and stat.S_ISREG(marker.st_mode):
        foreign = _not_written_by_the_build(target, marker.st_size)
        if foreign is None:
            raise SiteDirRefused(f"--site-dir {shown} holds a {MARKER} file without the list of the files its build "
                                 "wrote (an older lingjun-kb, or a copied marker): the build cannot tell its own files from "
                                 "others; remove the folder to rebuild there, or choose another folder")
        if foreign:
            listed = ", ".join(_shown(name) for name in foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
            raise SiteDirRefused(f"--site-dir {shown} holds what no build wrote ({listed}); the build replaces only "
                                 "its own files: move them out or choose another folder")
        return target
    try:
        empty = not os.listdir(target)
    except OSError as exc:
        raise SiteDirRefused(f"--site-dir {shown}: cannot be listed: {exc.strerror or exc}") from None
    if not empty:
        raise SiteDirRefused(f"--site-dir {shown} is a folder no build made (it has no {MARKER} file); "
                             "the build replaces only its own sites: remove it or choose another folder")
    return target


#: the line after which the marker lists, one JSON string per line, every entry the build wrote
_LIST_HEADER = "Entries this build wrote (one JSON string per line):\n"
#: the most of a marker file read: a site's list is some 100 KiB
_MARKER_LIMIT = 64 * 1024 * 1024


def _entries(folder: str) -> Iterator[str]:
    """Every entry below ``folder`` (files, folders, links; relative, ``/``-separated), never following a link or
    entering another file system (a mount point is listed, not entered)."""
    top = os.lstat(folder).st_dev
    mounts = mount_points()  # bind mounts of the same file system share its device number
    for root, dirs, files in os.walk(folder, followlinks=False):
        rel = os.path.relpath(root, folder)
        keep = []
        for name in dirs:
            path = os.path.join(root, name)
            try:
                same = (os.lstat(path).st_dev == top and not os.path.ismount(path)
                        and os.path.abspath(path) not in mounts)
            except OSError:
                same = False
            if same:
                keep.append(name)
            yield name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")
        dirs[:] = keep
        for name in files:
            yield name if rel == "." else f"{rel}/{name}".replace(os.sep, "/")


def _not_written_by_the_build(folder: Path, size: int) -> Optional[list[str]]:
    """The entries of ``folder`` its marker does not list (sorted; empty: all the build's own); None when the marker
    holds no list (written by an older lingjun-kb, or a marker made by hand)."""
    if size > _MARKER_LIMIT:
        return None
    try:
        text = (Path(folder) / MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if _LIST_HEADER not in text:
        return None
    listed: set[str] = set()
    for line in text.split(_LIST_HEADER, 1)[1].splitlines():
        try:
            name = json.loads(line)
        except ValueError:
            return None
        if isinstance(name, str):
            listed.add(name)
    return sorted(e for e in _entries(str(folder)) if e != MARKER and e not in listed)


def _shown(name: str) -> str:
    return inert(name, 120)


def mark_site(folder: Path) -> None:
    """Write :data:`MARKER` into a freshly built site ``folder``, listing every entry the build wrote there, so that the
    next build replaces the folder only while it holds nothing else (a file copied in, a mount, a folder the site was
    copied into with other content)."""
    names = sorted(e for e in _entries(str(folder)) if e != MARKER)
    (Path(folder) / MARKER).write_text(_MARKER_TEXT + _LIST_HEADER + "".join(json.dumps(n) + "\n" for n in names),
                                       encoding="utf-8")


def make_work_folder(site_dir: Path, kind: str) -> Path:
    """Create a new, empty work folder ``.<name>.<kind>-<pid>-<random>`` next to ``site_dir``; returns it.

    Made with :func:`tempfile.mkdtemp` (``mkdir``, which fails on any existing
    entry, a link included, and is retried under another random name), so the
    build never reuses a path someone else put there.  The folder gets mode
    ``0o755`` (the site is for reading); ``kind`` is ``"tmp"`` or ``"old"``.

    Raises:
        OSError: the folder cannot be made.
    """
    site_dir = Path(site_dir)
    folder = tempfile.mkdtemp(prefix=f".{site_dir.name}.{kind}-{os.getpid()}-", dir=os.fspath(site_dir.parent))
    os.chmod(folder, 0o755)
    return Path(folder)


def same_folder(path: Path, identity: tuple[int, int]) -> bool:
    """True when ``path`` is (by ``lstat``, never followed) the real folder with ``(st_dev, st_ino)`` ``identity``."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and (info.st_dev, info.st_ino) == identity


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

    A work folder is ``.<name>.tmp-<pid>-<random>`` or ``.<name>.old-<pid>-<random>``
    (:func:`make_work_folder`; older builds left them without ``-<random>``) next
    to the site, a real folder (a link of that name is left alone: it is never
    followed, and never reused).  It is kept while process ``pid`` is
    alive, unless ``pid`` is this process (a leftover of an earlier process
    that had the same id).
    """
    site_dir = Path(site_dir)
    pattern = re.compile(r"\." + re.escape(site_dir.name) + r"\.(?:tmp|old)-([0-9]{1,10})(?:-[A-Za-z0-9_]{1,32})?\Z")
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
        remove_tree(path)  # a mount inside a dead build's folder is left, with what it holds
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
        import fcntl  # optional: absent on some platforms
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
