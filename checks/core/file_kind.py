"""What a file-system entry is, in words, from its ``st_mode`` (``a FIFO``, ``a folder``).

The one wording shared by the release-data loader (a ``*.yaml`` entry that is
not a plain file), the output-file guard of :mod:`lingjun.checks.core.atomic_write`
and the site-folder guard of ``lingjun-kb build``.  Standard library only.
"""

from __future__ import annotations

import stat

__all__ = ["file_kind"]

_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def file_kind(mode: int) -> str:
    """The kind of entry ``mode`` (an ``os.lstat`` ``st_mode``) describes, with its article.

    Returns one of ``a regular file``, ``a folder``, ``a symbolic link``, ``a FIFO``,
    ``a socket``, ``a character device``, ``a block device``, or ``not a plain file``
    for anything else (a door, a whiteout).
    """
    for test, words in _KINDS:
        if test(mode):
            return words
    return "not a plain file"
