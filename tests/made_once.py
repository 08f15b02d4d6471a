"""Folders that several test processes share: a site build made once per test run, with or without pytest-xdist.

``made_once(tmp_path_factory, name, make)`` returns a folder that ``make(folder)`` filled.  In a plain
``pytest`` run it is a new temporary folder, as ``tmp_path_factory.mktemp(name)`` gives.  Under
pytest-xdist (``-n``) each worker process would otherwise make its own copy of every session fixture: here
the first worker that asks makes the folder in the run's temporary root, which all workers of the run
share, while it holds an exclusive ``flock``; the others wait for the lock and use the folder as it is.
A folder whose ``make`` failed is made again by the next worker that asks (it then fails there too, with
its own traceback).

Only for folders the tests read: a test that changes such a folder would change it for every other test.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Callable

__all__ = ["made_once"]


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` that ``make(folder)`` fills, made once per test run (see the module docstring)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name, numbered=True)
        make(folder)
        return folder
    root = tmp_path_factory.getbasetemp().parent  # the run's folder; each worker's own is popen-gwN inside it
    folder = root / f"shared-{name}"
    done = root / f"shared-{name}.done"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder
