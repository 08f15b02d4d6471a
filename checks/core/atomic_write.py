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
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Union

from lingjun.checks.core.file_kind import file_kind

__all__ = ["atomic_write", "check_output_file", "UnsafeOutputPath"]


class UnsafeOutputPath(OSError):
    """An output path that may not be written: empty, or naming something that is not a regular file.

    An :class:`OSError` (so callers reporting write failures report it too) whose
    ``strerror`` says why in words and whose ``filename`` is the path as given.
    """


def check_output_file(path: "Union[str, os.PathLike[str]]") -> None:
    """Refuse an output path that writing a file there would destroy or misuse.

    Allowed: a path where nothing exists yet (its folder may be missing) and an
    existing regular file.  The path is inspected with ``os.lstat`` only.

    Raises:
        UnsafeOutputPath: the path is empty, ends with a path separator, or names a
            folder, a symbolic link, a FIFO, a socket or a character or block device.
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
        return
    if stat.S_ISREG(mode):
        return
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EEXIST
    raise UnsafeOutputPath(code, f"is {file_kind(mode)}; only a new file or a regular file is replaced", target)


def atomic_write(path: "Union[str, os.PathLike[str]]", data: Union[str, bytes], mode: int = 0o644, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    Args:
        path: the file to create or replace.
        data: bytes written as they are, or text written as UTF-8 with ``\\n`` line ends kept.
        mode: permission bits of the new file (``0o644``; ``0o755`` for an executable).
        make_parents: create the missing parent folders first.

    Raises:
        UnsafeOutputPath: ``path`` is empty or is not a regular file (:func:`check_output_file`);
            nothing is written.
        OSError: the folder cannot be made or written, or the rename fails; nothing is
            left behind (no partial target, no temporary file).
    """
    check_output_file(path)
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
