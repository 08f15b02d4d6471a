"""Pages for the importer's tests: the three seeds in ``tests/fixtures/seeds/`` and ``tests/fixtures/pages/``.

The seeds are the team's shared copies of the first three release-note pages, their long prose
paraphrased line for line (``tests/fixtures/seeds/README.md``); every test runs in a clone of its own.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "releases"
PAGES = ROOT / "tests" / "fixtures" / "pages"
SEEDS = ROOT / "tests" / "fixtures" / "seeds"

#: every page fixture that is one release's page (the index and history pages are not)
RELEASE_PAGES = sorted(p for p in PAGES.glob("*.md") if p.name != "README.md"
                       and not p.name.startswith(("catalog-index", "ppu-release-history")))
INDEX_PAGES = sorted(PAGES.glob("catalog-index*.md")) + sorted(PAGES.glob("ppu-release-history*.md"))


def seed(name: str) -> Path:
    """The seed page ``name`` (a missing one fails the test: it is part of the checkout)."""
    path = SEEDS / name
    assert path.is_file(), f"seed page {path} is missing"
    return path


def all_seeds() -> list[Path]:
    """The three seed pages."""
    found = sorted(SEEDS.glob("*.txt"))
    assert len(found) == 3, found
    return found
