"""Fixtures of the gate tests: a valid releases tree and per-rule overlays on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

GATE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gate"


def build_tree(tmp_path: Path, *overlays: str) -> Path:
    """Copy ``fixtures/gate/base`` to ``tmp_path/releases`` and lay each overlay folder over it."""
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    for overlay in overlays:
        shutil.copytree(GATE_FIXTURES / overlay, root, dirs_exist_ok=True)
    return root


@pytest.fixture
def tree(tmp_path: Path):
    """``tree("driver-minimum/fail")`` -> path of a releases tree with that overlay applied."""
    return lambda *overlays: build_tree(tmp_path, *overlays)
