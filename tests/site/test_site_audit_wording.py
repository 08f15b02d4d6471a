"""The audit of issue 12 on the rendered pages of the real records: sections not captured from a page,
one Chinese term for forward compatibility, and the corrected statements."""

from __future__ import annotations

import html

from lingjun.generator.site.strings import STRINGS

NOT_CAPTURED = STRINGS["release.not_captured"]
PARTLY = STRINGS["release.partly_captured"]
NOT_RECORDED = STRINGS["release.not_recorded"]


def _section(page: str, anchor: str) -> str:
    """The text of one ``## ... { #anchor }`` section of a rendered page, HTML entities decoded."""
    start = page.index(f"{{ #{anchor} }}")
    end = page.find("\n## ", start)
    return html.unescape(page[start:end if end != -1 else None])


def test_a_section_not_captured_says_so_in_both_languages(pages):
    for lang in ("en", "zh"):
        page = pages[lang]["release:training-nv-pytorch:25.10"]
        for anchor in ("usage-notes", "features", "quick-start"):
            section = _section(page, anchor)
            assert NOT_CAPTURED[lang] in section and NOT_RECORDED[lang] not in section, (lang, anchor)
        known = _section(page, "known-issues")
        assert NOT_CAPTURED[lang] in known


def test_a_section_captured_in_part_keeps_its_items_and_says_more_may_exist(pages):
    page = pages["en"]["release:training-nv-pytorch:25.08"]
    features = _section(page, "features")
    assert "{ #feature-compile-optimization }" in features and PARTLY["en"] in features
    assert PARTLY["zh"] in _section(pages["zh"]["release:training-nv-pytorch:25.08"], "features")


def test_known_issues_from_another_page_do_not_hide_the_uncaptured_section(pages):
    # 25.02's known issue comes from the 25.03 page; its own page's known issues were not captured
    for lang in ("en", "zh"):
        known = _section(pages[lang]["release:training-nv-pytorch:25.02"], "known-issues")
        assert STRINGS["release.known_issues_not_captured"][lang] in known


def test_a_fully_captured_page_says_nothing_about_capture(pages):
    page = pages["en"]["release:training-nv-pytorch:25.07"]
    page = html.unescape(page)
    assert NOT_CAPTURED["en"] not in page and PARTLY["en"] not in page


def test_python_not_on_the_page_is_not_recorded_rather_than_a_dash(pages):
    for lang in ("en", "zh"):
        page = pages[lang]["release:training-nv-pytorch:25.06"]
        row = html.unescape(page[page.index("<td>Python</td>"):].split("</tr>")[0])
        assert STRINGS["components.not_recorded"][lang] in row and "—" not in row


def test_chinese_pages_say_xiangqian_jianrong_and_the_family_titles_match(pages):
    zh = "\n".join(pages["zh"].values())
    assert "向前兼容" in zh and "前向兼容" not in zh
    assert "training-nv-pytorch（NVIDIA GPU 镜像）" in zh and "训练镜像）" not in zh
    en = "\n".join(pages["en"].values())
    assert "training-nv-pytorch (NVIDIA GPU image)" in en


def test_vpc_note_on_the_family_page_names_the_pages(pages):
    en = html.unescape(pages["en"]["family:training-nv-pytorch"])
    assert "English 25.08 and 25.09 pages" in en and "25.03 page and later" not in en
    zh = html.unescape(pages["zh"]["family:training-nv-pytorch"])
    assert "英文版 25.08、25.09 页面" in zh and "25.03 及以后" not in zh
