"""Folders that several test processes share: a site build made once per test run, with or without pytest-xdist.

``made_once(tmp_path_factory, name, make)`` returns a folder that ``make(folder)`` filled.  In a plain
``pytest`` run it is a new temporary folder, as ``tmp_path_factory.mktemp(name)`` gives.  Under
pytest-xdist (``-n``) each worker process would otherwise make its own copy of every session fixture: here
the first worker that asks makes the folder in the run's temporary root, which all workers of the run
share, while it holds an exclusive ``flock``; the others wait for the lock and use the folder as it is.
A folder whose ``make`` failed is made again by the next worker that asks (it then fails there too, with
its own traceback).

Only for folders the tests read: a test that changes such a folder would change it for every other test.

A folder that several workers need is registered with :func:`made_ahead` (its name, the fixture that uses it and
its ``make(folder, tmp_path_factory)``).  Before its first test each worker makes the registered folders that a
test of the run uses and that no other worker is making (:func:`make_ahead`, called from ``tests/conftest.py``):
the two workers then build different sites at the same time, where otherwise the second one to need a site sat
idle until the first had built it (10 to 14 s each for the real records' site and the hostile sites).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path
from typing import Any, Callable, Iterable

__all__ = ["made_once", "made_ahead", "make_ahead"]

#: the registered folders: ``(name, fixture that uses it, seconds it takes to make, make(folder, tmp_path_factory))``
_AHEAD: list[tuple[str, str, float, Callable[[Path, Any], None]]] = []


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` that ``make(folder)`` fills, made once per test run (see the module docstring)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.mktemp(name, numbered=True)
        make(folder)
        return folder
    folder, _ = _made(tmp_path_factory, name, make, wait=True)
    return folder


def _made(tmp_path_factory, name: str, make: Callable[[Path], None], wait: bool) -> tuple[Path, str]:
    """``(folder, "made" | "found" | "busy")``; "busy" (only without ``wait``): another worker holds the lock."""
    root = tmp_path_factory.getbasetemp().parent  # the run's folder; each worker's own is popen-gwN inside it
    folder = root / f"shared-{name}"
    done = root / f"shared-{name}.done"
    with open(root / f"shared-{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when closed
        except BlockingIOError:
            return folder, "busy"
        if done.exists():
            return folder, "found"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        make(folder)
        done.touch()
    return folder, "made"


def made_ahead(name: str, fixture: str, seconds: float) -> Callable[[Callable[[Path, Any], None]], Callable[[Any], Path]]:
    """Register ``make(folder, tmp_path_factory)`` as the folder ``name`` that the fixture ``fixture`` uses;
    ``seconds`` is about how long it takes on 2 cores (the longest are made first, so that the workers finish
    together).

    Decorates ``make`` into ``folder(tmp_path_factory) -> Path`` (:func:`made_once` of it), which the fixture
    calls.  ``make`` may ask for other folders made once (the hostile site needs the hostile records); a
    registered folder never waits for one that needs it.  A name registered again (a module imported twice)
    keeps its first registration.
    """

    def register(make: Callable[[Path, Any], None]) -> Callable[[Any], Path]:
        if all(entry[0] != name for entry in _AHEAD):
            _AHEAD.append((name, fixture, seconds, make))

        def folder(tmp_path_factory) -> Path:
            return made_once(tmp_path_factory, name, lambda target: make(target, tmp_path_factory))

        folder.__doc__ = make.__doc__
        return folder

    return register


def make_ahead(tmp_path_factory, fixtures: Iterable[str]) -> list[str]:
    """Under pytest-xdist, make every registered folder whose fixture is in ``fixtures`` (those the run's tests
    use) and that no other worker is making or has made; returns the names this worker made, in order.  Without
    xdist nothing is made ahead (each folder is made when a test first asks, as before)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return []
    wanted = set(fixtures)
    made = []
    for name, fixture, _, make in sorted(_AHEAD, key=lambda entry: -entry[2]):
        if fixture not in wanted:
            continue
        _, status = _made(tmp_path_factory, name, lambda target, make=make: make(target, tmp_path_factory), wait=False)
        if status == "made":
            made.append(name)
    return made
