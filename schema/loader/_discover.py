"""Discovery: the data files under a folder, refusing symbolic links and special files."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lingjun.schema.loader._documents import _problem
from lingjun.schema.loader._read import _file_type
from lingjun.schema.problems import Problem


def scan(root: Path) -> tuple[list[Path], list[Problem]]:
    """The data files under ``root`` (or ``root`` itself when it is not a folder), sorted, and what was refused.

    A folder is walked without following symbolic links: hidden files and
    folders (``.name``) are skipped; every ``*.yaml``/``*.yml`` entry must be
    a plain file.  A symbolic link there (to a file, a folder, or nowhere) is
    an error (``file.symlink``): the data is committed as files, and a link
    could make the gate read and echo anything on the machine running it (a
    secret file, ``/dev/zero``).  A symbolic link to a folder is refused
    whatever its name; a folder named ``*.yaml``/``*.yml`` is an error
    (``file.read``) and is not walked, never skipped unseen.  Other special files named ``*.yaml`` (a FIFO, a
    socket) are ``file.read`` errors and are never opened.  A path given
    directly (not a folder) is returned as is: :func:`read_text` refuses it
    if it is not a plain file.
    """
    root = Path(root)
    if not root.is_dir():
        return [root], []
    found: list[Path] = []
    problems: list[Problem] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder)
        visible = sorted(d for d in dirs if not d.startswith("."))
        dirs[:] = []
        for name in visible:
            path = base / name
            if path.is_symlink():
                problems.append(_problem(path, None, None, "symbolic link to a folder; the gate does not follow "
                                         "links: commit the files themselves", "file.symlink"))
            elif name.endswith((".yaml", ".yml")):
                problems.append(_problem(path, None, None, "a folder named like a data file; a release data "
                                         "file must be a plain file (rename or remove the folder)", "file.read"))
            else:
                dirs.append(name)
        for name in files:
            if name.startswith(".") or not name.endswith((".yaml", ".yml")):
                continue
            path = base / name
            try:
                mode = path.lstat().st_mode
            except OSError as exc:
                problems.append(_problem(path, None, None, f"cannot read file: {exc.strerror or exc}", "file.read"))
                continue
            if stat.S_ISREG(mode):
                found.append(path)
            elif stat.S_ISLNK(mode):
                problems.append(_problem(path, None, None, "symbolic link; the gate does not follow links: "
                                         "commit the file itself", "file.symlink"))
            else:
                problems.append(_problem(path, None, None, f"not a regular file ({_file_type(mode)}); "
                                         "a release data file must be a plain file", "file.read"))
    return sorted(found), problems


def discover(root: Path) -> list[Path]:
    """The data files :func:`scan` finds under ``root`` (or ``[root]`` when it is not a folder), sorted."""
    return scan(root)[0]
