"""Which destination is full when a write fails with "No space left on device".

The error's file name is often not the destination: a copy reports the file it
was copying *from* (MkDocs copying ``.build/zh/feed.xml`` into the site), so a
message built from it blames a source.  :func:`fullest` looks at the file
systems of the places a command writes to and names the one with the least
space left.  Standard library only.
"""

from __future__ import annotations

import errno
import os
from typing import Iterable, Optional, Union

__all__ = ["NO_SPACE_ERRNOS", "is_no_space", "fullest"]

#: the errors of a write that found no room: the disk is full, or the user's quota is
NO_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_no_space(exc: BaseException) -> bool:
    """Whether ``exc`` is an :class:`OSError` saying the file system (or the quota) is full."""
    return isinstance(exc, OSError) and exc.errno in NO_SPACE_ERRNOS


def _existing(path: str) -> str:
    path = os.path.abspath(path)
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def fullest(destinations: Iterable[Union[str, "os.PathLike[str]"]]) -> Optional[tuple[str, int]]:
    """``(destination, bytes free)`` of the destination whose file system has the least space left for this user
    (``statvfs``: ``f_bavail * f_frsize``); the first one given wins a tie.  None when none can be inspected.

    A destination that does not exist yet is measured at its nearest existing folder.
    """
    found: Optional[tuple[str, int]] = None
    for destination in destinations:
        shown = os.fspath(destination)
        try:
            info = os.statvfs(_existing(shown))
        except OSError:
            continue
        free = info.f_bavail * info.f_frsize
        if found is None or free < found[1]:
            found = (shown, free)
    return found
