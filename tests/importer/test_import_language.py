"""lingjun-kb import: the page's language read from its text, for every page fixture (the file name says it): a
Chinese page whose headings, component names and versions are in English is still Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.generator.importer._markdown import markdown_blocks
from lingjun.generator.importer._recognise import recognise

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
FIXTURES = sorted(p for p in PAGES.glob("*.md") if p.name != "README.md")


@pytest.mark.parametrize("page", FIXTURES, ids=lambda p: p.name)
def test_every_page_fixture_reads_as_the_language_its_name_says(page):
    expected = "zh" if page.name.endswith(".zh.md") else "en"  # the Indonesian-routed pages are English text
    text = page.read_text(encoding="utf-8")
    assert recognise(markdown_blocks(text), text).language == expected


def test_an_english_page_naming_a_product_in_chinese_stays_english():
    blocks = markdown_blocks("# training-nv-pytorch 25.09\n\nThe image runs on Lingjun (灵骏) clusters and ACS.\n")
    assert recognise(blocks, "").language == "en"
