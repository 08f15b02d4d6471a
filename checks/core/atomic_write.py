"""Replace a file atomically: readers see the old content or the new, never a partial file.

The one implementation behind the checker's ``--collect`` snapshot, the
``lingjun-check.pyz`` archive and the exported JSON Schemas: the content is
written to a temporary file in the target's own folder (so the rename never
crosses a file system), flushed to disk, given its final mode, then moved
over the target with :func:`os.replace`.  Standard library only.

Only a new file or an existing *regular* file is ever replaced
(:func:`check_output_file`, run by :func:`atomic_write` itself): an empty
name, a folder, a symbolic link, a FIFO, a socket or a device
(``/dev/null``, ``/dev/stdout`` in a root container) is refused with
:class:`UnsafeOutputPath` before anything is written.  The entry is
inspected with ``lstat`` and never opened, so a FIFO cannot block.

The folder the file goes in is checked too (:func:`check_output_folder`): the
nearest existing folder of the path must be a folder (``README.md/x`` names a
path through a file), on a file system mounted read-write and writable by this
process, and, when the caller does not create missing folders, the file's own
folder must exist.  So every such refusal comes before any work, with one
line, instead of after it from the first write.

An existing regular file is replaced only when it is one the command wrote
before: each caller passes a ``replaceable`` predicate (a previous zipapp,
snapshot or schema file, recognised from a small prefix read with
:func:`read_prefix`), so ``--output README.md`` never destroys a file the
command did not create.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Callable, Optional, Union

from lingjun.checks.core.file_kind import file_kind
from lingjun.checks.core.inert_text import NAME_LIMIT, capped

__all__ = ["atomic_write", "check_output_file", "check_output_folder", "read_prefix", "read_whole", "read_whole_text", "UnsafeOutputPath"]


class UnsafeOutputPath(OSError):
    """An output path that may not be written: empty, or naming something that is not a regular file.

    An :class:`OSError` (so callers reporting write failures report it too) whose
    ``strerror`` says why in words and whose ``filename`` is the path as given.
    """


def read_prefix(path: "Union[str, os.PathLike[str]]", size: int = 4096) -> bytes:
    """The first ``size`` bytes (at most) of the regular file ``path``; b"" when it cannot be read that way.

    Opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked with ``fstat``, so a
    link or a FIFO put there meanwhile is neither followed nor blocks.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(os.fspath(path), flags)
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, size)
    except OSError:
        return b""
    finally:
        os.close(fd)


def read_whole(path: "Union[str, os.PathLike[str]]", limit: int) -> "Optional[bytes]":
    """All of the regular file ``path`` when it holds at most ``limit`` bytes; None when it is larger or cannot be
    read that way (opened as :func:`read_prefix` opens it: no link followed, no FIFO waited on).

    For a ``replaceable`` predicate that recognises a previous output by its whole content, not a prefix.
    """
    data = read_prefix(path, limit + 1)
    if len(data) > limit:
        return None
    if not data:
        try:  # b"" from read_prefix: an empty regular file, or one that could not be read
            info = os.lstat(os.fspath(path))
        except OSError:
            return None
        return b"" if stat.S_ISREG(info.st_mode) and info.st_size == 0 else None
    return data


def read_whole_text(path: "Union[str, os.PathLike[str]]", limit: int) -> "Optional[str]":
    """:func:`read_whole` decoded as UTF-8; None when it is None, empty, or not UTF-8 (no output of ours is)."""
    raw = read_whole(path, limit)
    if not raw:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


#: ``replaceable(path) -> bool``: True when the existing regular file ``path`` is one the command wrote
Replaceable = Callable[[str], bool]


def check_output_folder(folder: "Union[str, os.PathLike[str]]", make_parents: bool = True,
                        shown: "Optional[Union[str, os.PathLike[str]]]" = None) -> None:
    """Refuse a folder that files cannot be created in, before any work is done.

    The nearest existing entry of ``folder`` (``folder`` itself, else the folder above it, and so on) must be
    a folder (following links), on a file system not mounted read-only (``statvfs``), writable and searchable
    by this process (``access``).  With ``make_parents`` False ``folder`` itself must exist.

    Args:
        folder: the folder the output goes in (created by the caller when missing and ``make_parents``).
        make_parents: the caller creates missing folders.
        shown: the path the user gave, kept as the exception's ``filename`` (default ``folder``).

    Raises:
        UnsafeOutputPath: ``errno`` ENOTDIR (a path through a file), EROFS (read-only file system), EACCES
            (not writable) or ENOENT (missing, without ``make_parents``); ``strerror`` says which entry, in words.
    """
    given = os.fspath(folder) or "."
    name = os.fspath(shown) if shown is not None else given
    probe = os.path.abspath(given)
    while True:
        try:
            info = os.stat(probe)
            break
        except (FileNotFoundError, NotADirectoryError):
            if not make_parents and probe == os.path.abspath(given):
                raise UnsafeOutputPath(errno.ENOENT, f"the folder {capped(given, NAME_LIMIT)} does not exist; create it first", name) from None
            above = os.path.dirname(probe)
            if above == probe:
                return
            probe = above
        except OSError as exc:
            raise UnsafeOutputPath(exc.errno or errno.EACCES, f"{capped(probe, NAME_LIMIT)} cannot be inspected: {exc.strerror or exc}",
                                   name) from None
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeOutputPath(errno.ENOTDIR, f"{capped(probe, NAME_LIMIT)} is {file_kind(info.st_mode)}, not a folder", name)
    try:
        read_only = bool(os.statvfs(probe).f_flag & getattr(os, "ST_RDONLY", 1))
    except (OSError, AttributeError):
        read_only = False
    if read_only:
        raise UnsafeOutputPath(errno.EROFS, f"{capped(probe, NAME_LIMIT)} is on a read-only file system", name)
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UnsafeOutputPath(errno.EACCES, f"{capped(probe, NAME_LIMIT)} is not writable (permission denied)", name)


def check_output_file(path: "Union[str, os.PathLike[str]]", replaceable: Optional[Replaceable] = None,
                      ours: str = "a file this command wrote", make_parents: bool = True) -> None:
    """Refuse an output path that writing a file there would destroy or misuse.

    Allowed: a path where nothing exists yet (its folder may be missing) and an
    existing regular file for which ``replaceable(path)`` is true (any regular
    file when ``replaceable`` is None).  The path is inspected with ``os.lstat``;
    only ``replaceable`` reads it (see :func:`read_prefix`).

    Args:
        path: the output file.
        replaceable: recognises a file the command wrote before.
        ours: what ``replaceable`` recognises, for the message ("a lingjun-check zipapp").
        make_parents: the caller creates a missing folder of the path (:func:`check_output_folder`).

    Raises:
        UnsafeOutputPath: the path is empty, ends with a path separator, names a
            folder, a symbolic link, a FIFO, a socket or a character or block
            device, or a regular file ``replaceable`` does not recognise; or its folder cannot take a new file
            (:func:`check_output_folder`: a path through a file, a read-only file system, no permission).
        OSError: ``lstat`` failed for another reason than a missing entry (a name
            too long, permission denied on a folder of the path).
    """
    target = os.fspath(path)
    if not target:
        raise UnsafeOutputPath(errno.EINVAL, "empty file name; give the path of the file to write", target)
    if target.endswith("/") or (os.altsep and target.endswith(os.altsep)) or target.endswith(os.sep):
        raise UnsafeOutputPath(errno.EISDIR, "names a folder (it ends with a path separator); give a file name", target)
    try:
        mode = os.lstat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        check_output_folder(os.path.dirname(target), make_parents, target)
        return
    if stat.S_ISREG(mode):
        if replaceable is None or replaceable(target):
            check_output_folder(os.path.dirname(target), make_parents, target)
            return
        raise UnsafeOutputPath(errno.EEXIST, f"exists and is not {ours}; only a new file or {ours} "
                               "is replaced: remove it or choose another name", target)
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EEXIST
    raise UnsafeOutputPath(code, f"is {file_kind(mode)}; only a new file or a regular file is replaced", target)


def atomic_write(path: "Union[str, os.PathLike[str]]", data: Union[str, bytes], mode: int = 0o644, make_parents: bool = False,
                 replaceable: Optional[Replaceable] = None, ours: str = "a file this command wrote") -> None:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    Args:
        path: the file to create or replace.
        data: bytes written as they are, or text written as UTF-8 with ``\\n`` line ends kept.
        mode: permission bits of the new file (``0o644``; ``0o755`` for an executable).
        make_parents: create the missing parent folders first.
        replaceable, ours: which existing regular file may be replaced (:func:`check_output_file`).

    Raises:
        UnsafeOutputPath: ``path`` is empty, is not a regular file or is one ``replaceable``
            does not recognise (:func:`check_output_file`); nothing is written.
        OSError: the folder cannot be made or written, or the rename fails; nothing is
            left behind (no partial target, no temporary file).
    """
    check_output_file(path, replaceable, ours, make_parents)
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    if make_parents:
        os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
