"""Fixtures of the importer tests; the shared paths and helpers live in :mod:`importer_kit`
(a module of its own name: ``conftest`` is a name every test folder's conftest shares)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from importer_kit import RELEASES


@pytest.fixture
def releases_copy(tmp_path) -> Path:
    """A copy of releases/ to change or write into."""
    target = tmp_path / "releases"
    shutil.copytree(RELEASES, target)
    return target
