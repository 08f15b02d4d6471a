"""Fixtures shared by every test folder (``tests/`` is on ``sys.path`` through this file: ``import hostile_paths``)."""

from __future__ import annotations

from typing import Callable

import pytest

from hostile_paths import make_hostile_node


@pytest.fixture
def hostile_node(tmp_path) -> Callable[[str], str]:
    """``make(kind) -> path``: a hostile output target of ``kind`` in a fresh temporary folder."""
    counter = iter(range(1000))

    def make(kind: str) -> str:
        folder = tmp_path / f"node{next(counter)}"
        folder.mkdir()
        return make_hostile_node(folder, kind)

    return make
