"""The corpus of hostile output targets, shared by every test folder.

An output option (``lingjun-check --collect``, ``lingjun-kb bundle --output``,
``lingjun-kb build --site-dir``) may only create its file or folder or replace
one the tool itself made.  :data:`HOSTILE_OUTPUT_KINDS` lists the kinds of
path an attacker or a careless user can give instead; :func:`make_hostile_node`
makes one (the ``hostile_node`` fixture of ``tests/conftest.py`` in a fresh
temporary folder) and :func:`node_state` tells whether it was left untouched.
"""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path
from typing import Optional

import pytest

#: kinds of existing (or empty) path an output must never replace, with the words its refusal uses
HOSTILE_OUTPUT_KINDS = {
    "empty name": "empty",
    "folder": "a folder",
    "symbolic link to a file": "a symbolic link",
    "dangling symbolic link": "a symbolic link",
    "FIFO": "a FIFO",
    "socket": "a socket",
    "character device": "a character device",
    "block device": "a block device",
    "path through a file": "is a regular file, not a folder",
}


def make_hostile_node(folder: Path, kind: str) -> str:
    """Make a path of ``kind`` (a key of :data:`HOSTILE_OUTPUT_KINDS`, or ``"regular file"``) in ``folder``.

    Devices are made with ``os.mknod`` (the numbers of ``/dev/null`` and of a loop
    device); the test is skipped where that is not permitted (not root).
    Returns the path as a string (``""`` for ``"empty name"``).
    """
    if kind == "empty name":
        return ""
    path = folder / "target"
    if kind == "path through a file":  # README.md/x: the folder of the path is a file
        (folder / "afile").write_text("precious\n", encoding="utf-8")
        return str(folder / "afile" / "target")
    if kind == "regular file":
        path.write_text("precious\n", encoding="utf-8")
    elif kind == "folder":
        path.mkdir()
        (path / "precious.txt").write_text("precious\n", encoding="utf-8")
    elif kind == "symbolic link to a file":
        (folder / "real.txt").write_text("precious\n", encoding="utf-8")
        path.symlink_to(folder / "real.txt")
    elif kind == "dangling symbolic link":
        path.symlink_to(folder / "nowhere")
    elif kind == "FIFO":
        os.mkfifo(path)
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        try:
            server.bind(str(path))
        except OSError as exc:  # a path over the socket name limit
            pytest.skip(f"cannot bind a socket at {path}: {exc}")
        finally:
            server.close()
    elif kind in ("character device", "block device"):
        mode, device = (stat.S_IFCHR, os.makedev(1, 3)) if kind == "character device" else (stat.S_IFBLK, os.makedev(7, 250))
        try:
            os.mknod(path, 0o600 | mode, device)
        except (PermissionError, AttributeError) as exc:
            pytest.skip(f"cannot make a device node here: {exc}")
    else:  # pragma: no cover - a typo in a test
        raise ValueError(kind)
    return str(path)


def node_folder(path: str) -> str:
    """The folder holding the node ``path`` names (for "path through a file", the folder of that file)."""
    folder = os.path.dirname(path)
    return os.path.dirname(folder) if os.path.isfile(folder) else folder


def node_state(path: str) -> Optional[tuple]:
    """What identifies ``path`` as it is (kind, inode, size, content of a file or link target), None if absent."""
    if not path:
        return None
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None if not os.path.isfile(os.path.dirname(path)) else ("through a file", Path(os.path.dirname(path)).read_bytes())
    detail: object = None
    if stat.S_ISLNK(info.st_mode):
        detail = os.readlink(path)
    elif stat.S_ISDIR(info.st_mode):
        detail = sorted(os.listdir(path))
    elif stat.S_ISREG(info.st_mode):
        detail = Path(path).read_bytes()
    return (stat.S_IFMT(info.st_mode), info.st_ino, info.st_rdev, detail)
