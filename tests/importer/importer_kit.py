"""Pages for the importer's tests: the three seeds in ``../shared/sources/seeds/`` and ``tests/fixtures/pages/``.

The seeds live beside the checkout (``../shared``), as in the team's CI.  Where
that folder is missing (a clone in a folder of its own) the seed tests are
skipped with the reason; the page copies under ``tests/fixtures/pages/`` run
everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "releases"
PAGES = ROOT / "tests" / "fixtures" / "pages"
SEEDS = ROOT.parent / "shared" / "sources" / "seeds"

#: every page fixture that is one release's page (the index and history pages are not)
RELEASE_PAGES = sorted(p for p in PAGES.glob("*.md") if p.name != "README.md"
                       and not p.name.startswith(("catalog-index", "ppu-release-history")))
INDEX_PAGES = sorted(PAGES.glob("catalog-index*.md")) + sorted(PAGES.glob("ppu-release-history*.md"))


def seed(name: str) -> Path:
    """The seed page ``name``; skips with the reason when ``../shared/sources/seeds`` is missing."""
    path = SEEDS / name
    if not path.is_file():
        reason = f"seed page {path} not found (../shared/sources/seeds/ sits beside the checkout in CI)"
        pytest.skip(reason)
    return path


def all_seeds() -> list[Path]:
    """The seed pages present; empty when ``../shared/sources/seeds`` is missing."""
    if not SEEDS.is_dir():
        return []
    return sorted(SEEDS.glob("*.txt"))
