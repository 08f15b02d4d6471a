"""Replace a file atomically: readers see the old content or the new, never a partial file.

The one implementation behind the checker's ``--collect`` snapshot, the
``lingjun-check.pyz`` archive and the exported JSON Schemas: the content is
written to a temporary file in the target's own folder (so the rename never
crosses a file system), flushed to disk, given its final mode, then moved
over the target with :func:`os.replace`.  Standard library only.
"""

from __future__ import annotations

import os
import tempfile
from typing import Union

__all__ = ["atomic_write"]


def atomic_write(path: "Union[str, os.PathLike[str]]", data: Union[str, bytes], mode: int = 0o644, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    Args:
        path: the file to create or replace.
        data: bytes written as they are, or text written as UTF-8 with ``\\n`` line ends kept.
        mode: permission bits of the new file (``0o644``; ``0o755`` for an executable).
        make_parents: create the missing parent folders first.

    Raises:
        OSError: the folder cannot be made or written, or the rename fails; nothing is
            left behind (no partial target, no temporary file).
    """
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
