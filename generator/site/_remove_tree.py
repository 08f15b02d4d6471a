"""Removing a folder the build made without ever crossing into a mount inside it.

``shutil.rmtree`` descends into whatever lies below a folder, a bind mount or an NFS mount included, and so
deletes what another filesystem holds (a ``mount --bind releases site/mnt`` placed in an old site emptied
``releases/``).  :func:`remove_tree` walks the folder itself (links are never followed), skips every
directory that is a mount point (listed in ``/proc/self/mountinfo``) or that lies on another device than the
folder, and deletes only the rest; a folder holding a skipped mount is left in place with the mount.
Standard library only.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Union

__all__ = ["mount_points", "remove_tree"]


def _unescape(field: str) -> str:
    """A mount point as ``mountinfo`` writes it: space, tab, newline and backslash as ``\\040`` octal escapes."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and field[i + 1:i + 4].isdigit() and len(field[i + 1:i + 4]) == 3:
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def mount_points(table: str = "/proc/self/mountinfo") -> set[str]:
    """Every mount point of this process's mount namespace (absolute paths); empty when the table is unreadable."""
    try:
        with open(table, encoding="utf-8", errors="surrogateescape") as lines:
            return {_unescape(line.split(" ")[4]) for line in lines if len(line.split(" ")) > 4}
    except OSError:
        return set()


def remove_tree(folder: Union[str, Path]) -> list[str]:
    """Delete ``folder`` and everything below it that is on its own filesystem; returns the mount points (and
    other-device folders) left in place, whose parents are then kept too.  Never raises for what it cannot
    delete (it is left); a ``folder`` that is not a real folder (a link, a file, missing) is left alone."""
    root = os.path.abspath(os.fspath(folder))
    try:
        top = os.lstat(root)
    except OSError:
        return []
    if not stat.S_ISDIR(top.st_mode):
        return []
    mounts = {m for m in mount_points() if m == root or m.startswith(root.rstrip("/") + "/")}
    kept: list[str] = []
    if root in mounts:
        return [root]
    visited: list[str] = []
    for here, dirs, files in os.walk(root, topdown=True, followlinks=False):
        visited.append(here)
        keep = []
        for name in dirs:
            path = os.path.join(here, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                files.append(name)  # a link to a folder is removed as a link, never followed
            elif path in mounts or info.st_dev != top.st_dev:
                kept.append(path)
            else:
                keep.append(name)
        dirs[:] = keep
        for name in files:
            try:
                os.unlink(os.path.join(here, name))
            except OSError:
                pass
    for here in reversed(visited):  # children before their parents; the walk never entered a kept folder
        try:
            os.rmdir(here)
        except OSError:
            pass  # holds a kept mount (or what could not be deleted)
    return kept
