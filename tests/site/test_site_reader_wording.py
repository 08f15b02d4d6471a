"""Pages are written for readers: no internal provenance wording, and the Chinese pages in Chinese.

Where a value came from inside the project (the seed page, a public copy of a page, "our copy") stays in
the records as YAML comments; a page says what the official page shows, as recorded.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: internal provenance wording that no page may contain (compared case-insensitively, HTML entities decoded)
PROVENANCE = {
    "en": ("our copy", "seed page", "seed copy", "project's seed", "public copy", "public copies", "copies read",
           "copies of the page we read", "copies of the official page", "not available to us", "when we read"),
    "zh": ("页面副本", "副本显示", "副本中", "种子页面", "种子副本", "我们读取", "我们保存", "我们的副本", "我们未能", "公开副本"),
}


def _hand_written(lang: str) -> dict[str, str]:
    folder = REPO / "docs" / lang
    return {str(path.relative_to(folder)): path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.md"))}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_page_contains_internal_provenance_wording(pages, lang):
    texts = {**{f"page {pid}": text for pid, text in pages[lang].items()},
             **{f"docs/{lang}/{name}": text for name, text in _hand_written(lang).items()}}
    assert len(texts) > 40  # every generated release page and the hand-written ones
    found = [(where, phrase) for where, text in texts.items()
             for phrase in PROVENANCE["en"] + PROVENANCE["zh"] if phrase in html.unescape(text).lower()]
    assert found == []


def test_the_phrases_are_caught_where_they_occur():
    """The check above can fail: the old wording of the 25.07 source note holds two of the phrases."""
    old = "Our copy (the project's seed page) shows main features"
    assert [p for p in PROVENANCE["en"] if p in old.lower()] == ["our copy", "seed page", "project's seed"]


def test_source_notes_say_what_the_official_page_shows(pages):
    en = html.unescape(pages["en"]["release:training-nv-pytorch:25.07"].split("{ #sources }")[1])
    assert "As recorded, this page shows main features" in en
    zh = html.unescape(pages["zh"]["release:training-nv-pytorch:25.07"].split("{ #sources }")[1])
    assert "记录的页面内容包含主要特性" in zh


def test_chinese_drivers_page_lists_its_sources_in_chinese(pages):
    section = pages["zh"]["drivers"].split("{ #sources }")[1]
    items = [line for line in section.splitlines() if line.startswith("- [")]
    assert len(items) >= 10
    titles = [re.match(r"- \[(.*)\]\(", line).group(1) for line in items]
    assert all(re.search(r"[\u4e00-\u9fff]", title) for title in titles), titles
    english = pages["en"]["drivers"].split("{ #sources }")[1]
    assert "release notes" in english and "发行说明" not in english
