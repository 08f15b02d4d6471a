"""Fixtures shared by every test folder (``tests/`` is on ``sys.path`` through this file: ``import hostile_paths``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable

import pytest

from hostile_paths import make_hostile_node
from made_once import made_ahead, make_ahead

# Bytecode is written during the run even where PYTHONDONTWRITEBYTECODE is set (this workplace sets it), into the
# ignored __pycache__/ folders: without it every one of the suite's several hundred lingjun-check / lingjun-kb
# processes compiles the project's modules from source again (0.1 to 0.3 s each on 2 cores), and a rerun rewrites
# every test module's assertions again (about 8 s in each xdist worker).  Set here, in the first conftest every
# worker imports, before the test modules are imported; the child processes inherit the environment.
if sys.dont_write_bytecode:
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture
def hostile_node(tmp_path) -> Callable[[str], str]:
    """``make(kind) -> path``: a hostile output target of ``kind`` in a fresh temporary folder."""
    counter = iter(range(1000))

    def make(kind: str) -> str:
        folder = tmp_path / f"node{next(counter)}"
        folder.mkdir()
        return make_hostile_node(folder, kind)

    return make


@pytest.fixture(scope="session", autouse=True)
def _shared_folders_made_ahead(request, tmp_path_factory) -> None:
    """Under pytest-xdist, before a worker's first test: the folders made once that the run's tests use and no
    other worker is making (:func:`made_once.make_ahead`)."""
    make_ahead(tmp_path_factory, {name for item in request.session.items for name in item.fixturenames})


@made_ahead("checker-pyz", "checker_pyz", seconds=1.5)
def _checker_pyz_folder(folder: Path, tmp_path_factory) -> None:
    """``lingjun-check.pyz`` as ``lingjun-kb bundle`` builds it (sources, bytecode, the embedded data)."""
    from lingjun.generator.zipapp import build_zipapp, with_bytecode, zip_entries  # deferred: generator-only tests need it

    out = folder / "lingjun-check.pyz"
    size = build_zipapp(out, with_bytecode(zip_entries()))
    assert size == out.stat().st_size


@pytest.fixture(scope="session")
def checker_pyz(tmp_path_factory) -> Path:
    """``lingjun-check.pyz`` as ``lingjun-kb bundle`` builds it (sources, bytecode, the embedded data), built once
    per run and shared by xdist's workers (read only: a test that changes an archive builds its own)."""
    return _checker_pyz_folder(tmp_path_factory) / "lingjun-check.pyz"
