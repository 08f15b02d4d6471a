"""Rendering: every record gets its pages in both languages; text from records stays text."""

from __future__ import annotations

import re

import pytest

from lingjun.generator.site.model import build_site_model, release_page_id
from lingjun.generator.site.nav import LANGUAGES
from lingjun.generator.site.render import render_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.generator.site.upstream import expand_release_notes_url, upstream_link
from lingjun.schema.loader import load_knowledge_base

from site_kit import REPO


@pytest.fixture(scope="module")
def rendered(fixture_kb):
    site = build_site_model(fixture_kb)
    return site, {lang: {page.id: text for page, text in render_pages(site, lang)} for lang in LANGUAGES}


def test_every_record_has_a_page_in_both_languages(fixture_kb, rendered):
    site, pages = rendered
    for record in fixture_kb.releases:
        for lang in LANGUAGES:
            text = pages[lang][release_page_id(record)]
            assert f"# {fixture_kb.families[record.family].image_name} {record.version}" in text
            assert getattr(record.summary, lang).split()[0] in text
    for family in fixture_kb.families:
        assert f"family:{family}" in pages["en"] and f"family:{family}" in pages["zh"]
    assert set(pages["en"]) == set(pages["zh"])


def test_language_of_interface_strings(rendered):
    _, pages = rendered
    ref = "release:training-nv-pytorch:25.07"
    assert "## Driver requirements" in pages["en"][ref]
    assert "## 驱动要求" in pages["zh"][ref]
    assert "驱动要求" not in pages["en"][ref]


def test_missing_component_list_is_explained(rendered):
    _, pages = rendered
    assert "component list was not available" in pages["en"]["release:training-nv-pytorch:25.06"]
    assert "组件列表不可用" in pages["zh"]["release:training-nv-pytorch:25.06"]


def test_release_page_sections(rendered):
    _, pages = rendered
    text = pages["en"]["release:training-nv-pytorch:25.07"]
    # components by layer, with upstream release-notes links built from the catalog pattern
    assert "### Runtime layer" in text and "### Library layer" in text
    assert '<a href="https://github.com/pytorch/pytorch/releases/tag/v2.7.1">release notes</a>' in text
    # tags: public reference, products, VPC pattern keeping the region placeholder
    assert "``` text\negslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless\n```" in text
    assert "Lingjun single-tenant" in text
    assert "``` text\nacs-registry-vpc.{region-id}.cr.aliyuncs.com" in text
    # driver: forward compat, must-upgrade, resolution, truncated caveat
    assert "R535 (≥ 535.86; end of life since 2026-06)" in text  # with its lifecycle on the build day
    assert "resolved for R545: **must upgrade**" in text
    assert "Driver text cut off" in text
    # usage notes link to the checker rule anchors
    assert "(../../checker/rules.md#config-deepspeed-prefetch-bucket-size)" in text
    # source conflicts
    assert "Where the sources disagree" in text


def test_known_issue_pages(rendered):
    _, pages = rendered
    text = pages["en"]["known-issues"]
    assert "{ #vllm-moe-illegal-memory-access }" in text
    assert "Fixed" in text
    assert "releases/training-nv-pytorch/25.02.md" in text


def test_component_timeline(rendered):
    _, pages = rendered
    text = pages["en"]["component:vllm"]
    assert "<code>0.9.2</code>" in text and "<code>0.7.2</code>" in text
    assert "component list not available" in text  # 25.06


def test_hostile_text_is_escaped(hostile_kb_dir):
    kb, _ = load_knowledge_base(hostile_kb_dir)
    site = build_site_model(kb)
    for lang in LANGUAGES:
        for page, text in render_pages(site, lang):
            assert "<script>" not in text, page.id
            assert "](javascript" not in text, page.id
    en = {p.id: t for p, t in render_pages(site, "en")}
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in en["release:training-nv-pytorch:25.07"]
    assert "&lt;script&gt;" in en["known-issues"]


def test_string_table_is_complete():
    for key, value in STRINGS.items():
        assert value["en"].strip() and value["zh"].strip(), key


def test_template_keys_exist():
    used = set()
    for path in (REPO / "generator" / "site" / "templates").glob("*.j2"):
        used.update(re.findall(r't\("([a-z0-9_.-]+)"\)', path.read_text(encoding="utf-8")))
    assert used and used <= set(STRINGS), used - set(STRINGS)


def test_upstream_url_placeholders(fixture_kb):
    assert expand_release_notes_url("https://x/v{release3}", "2.7.1.8+nv25.3") == "https://x/v2.7.1"
    assert expand_release_notes_url("https://x/v{release}", "2.3.0+5de3e14") == "https://x/v2.3.0"
    assert expand_release_notes_url("https://x/v{version}", "0.16.9+ali") == "https://x/v0.16.9+ali"
    assert expand_release_notes_url("https://x/v{release}", "15.0.50.20240403-git") is None
    assert expand_release_notes_url("https://x/v{release3}", "2.1") == "https://x/v2.1.0"
    component = fixture_kb.components["peft"]  # homepage, no pattern
    assert upstream_link(component, "0.16.0") == ("https://github.com/huggingface/peft", "homepage")
    assert upstream_link(fixture_kb.components["accl-n"], "2.27.5.14") == (None, "none")


def test_hand_written_pages_exist_in_both_languages():
    en = {p.relative_to(REPO / "docs" / "en") for p in (REPO / "docs" / "en").rglob("*.md")}
    zh = {p.relative_to(REPO / "docs" / "zh") for p in (REPO / "docs" / "zh").rglob("*.md")}
    assert en == zh and en


def test_join_keeps_the_blanks_of_its_separator():
    from lingjun.generator.site.render import _join

    assert str(_join(["H20", "A|B"], ", ")) == "H20, A&#124;B"
    assert str(_join(["R575", "R570"], "、")) == "R575、R570"


def test_tidy_chinese_drops_blanks_after_fullwidth_punctuation_only():
    from lingjun.generator.site.render import tidy_chinese

    assert tidy_chinese("以下版本未说明驱动要求： [25.05](x)") == "以下版本未说明驱动要求：[25.05](x)"
    assert tidy_chinese("| 说明。 |\n- a, b") == "| 说明。|\n- a, b"
    assert tidy_chinese("结尾。\n下一行") == "结尾。\n下一行"
    assert tidy_chinese("## training-nv-pytorch（NVIDIA GPU 训练镜像） { #training-nv-pytorch }").endswith("） { #training-nv-pytorch }")


def test_chinese_heading_anchors_keep_their_blank(rendered):
    _, pages = rendered
    for page_id, text in pages["zh"].items():
        for line in text.splitlines():
            if line.startswith("#") and "{ #" in line:
                assert " { #" in line, (page_id, line)


def _section(text: str, heading_start: str) -> str:
    return text.split(heading_start, 1)[1].split("\n## ", 1)[0]


def test_minimum_driver_column_names_the_vendor_once(rendered):
    """Matrix and family tables (one family each): the header names the vendor, cells read "≥ 575"."""
    _, pages = rendered
    matrix = pages["en"]["matrix"]
    nv = _section(matrix, "{ #training-nv-pytorch }")
    assert "<th>Minimum NVIDIA driver</th>" in nv
    assert "<td>≥ 575</td>" in nv and "NVIDIA driver ≥" not in nv
    ppu = _section(matrix, "{ #training-xpu-pytorch }")
    assert "<th>Minimum PPU driver</th>" in ppu and "<td>≥ 1.1.0</td>" in ppu
    assert "<th>最低 NVIDIA 驱动</th>" in pages["zh"]["matrix"] and "NVIDIA 驱动 ≥" not in pages["zh"]["matrix"]
    family = pages["en"]["family:training-nv-pytorch"]
    assert "<th>Minimum NVIDIA driver</th>" in family and "<td>≥ 575</td>" in family
    # a single cell outside such a table keeps the vendor
    assert "<td>Minimum driver</td>\n<td>NVIDIA driver ≥ 575</td>" in pages["en"]["release:training-nv-pytorch:25.07"]


def test_chinese_pages_use_full_width_punctuation_around_values(rendered):
    """Template punctuation follows the language: ': ' / '：', ', ' / '、', ' (…)' / '（…）'."""
    _, pages = rendered
    zh = pages["zh"]["release:training-nv-pytorch:25.07"]
    en = pages["en"]["release:training-nv-pytorch:25.07"]
    assert "此版本需要 NVIDIA 驱动 575 或更新版本（官方页面原文：“" in zh
    assert "This release requires NVIDIA driver release 575 or later (the official page says: “" in en
    assert "R470（≥ 470.57；已停止支持）" in zh and "R470 (≥ 470.57; end of life)" in en
    assert "适用于" in zh and "ACS（容器计算服务）、灵骏多租" in zh
    assert "ACS (Container Compute Service), Lingjun multi-tenant" in en
    for text in (zh, pages["zh"]["known-issues"]):
        assert not re.search(r"[\u4e00-\u9fff]: ", text), re.search(r".{20}[\u4e00-\u9fff]: .{20}", text)


def test_dev_and_pre_releases_get_no_release_notes_link(fixture_kb):
    """25.03's vLLM 0.8.2.dev0 build predates v0.8.2: link the home page, not v0.8.2's notes."""
    assert expand_release_notes_url("https://x/v{release3}", "0.8.2.dev0+g61c7a1b8.d20250325.cu128") is None
    assert expand_release_notes_url("https://x/v{release3}", "3.0.0b1") is None
    assert expand_release_notes_url("https://x/v{release3}", "2.5.1.6.post2") == "https://x/v2.5.1"
    url, kind = upstream_link(fixture_kb.components["vllm"], "0.8.2.dev0+g61c7a1b8.d20250325.cu128")
    assert kind == "homepage" and url == fixture_kb.components["vllm"].homepage


def _table_headers(text: str) -> list[list[str]]:
    """Header cells of every table in ``text``: Markdown (the row above a ``|---|`` delimiter row) and raw
    HTML (the ``<th>`` cells of the ``<thead>`` row; a table without one gives ``[]``)."""
    lines = text.splitlines()
    headers = []
    for above, line in zip(lines, lines[1:]):
        if re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()):
            headers.append([cell.strip() for cell in above.strip().strip("|").split("|")])
    for table in re.findall(r"<table>(.*?)</table>", text, re.S):
        head = re.match(r"\s*<thead>\s*<tr>(.*?)</tr>\s*</thead>", table, re.S)
        headers.append([cell.strip() for cell in re.findall(r"<th>(.*?)</th>", head.group(1), re.S)] if head else [])
    return headers


def test_every_table_has_a_header_row(rendered):
    """Two-column key/value tables and the drivers legend name their columns (no empty <thead>)."""
    _, pages = rendered
    seen = 0
    for lang in LANGUAGES:
        for page_id, text in pages[lang].items():
            for cells in _table_headers(text):
                seen += 1
                assert cells and all(cells), (lang, page_id, cells)
    assert seen > 20
    assert "<th>Field</th>\n<th>Value</th>" in pages["en"]["release:training-nv-pytorch:25.07"]
    assert "<th>字段</th>\n<th>值</th>" in pages["zh"]["release:training-nv-pytorch:25.07"]
    assert "| Field | Value |" in pages["en"]["family:training-nv-pytorch"]
    assert "| Symbol | Meaning |" in pages["en"]["drivers"]
    assert "| 标记 | 含义 |" in pages["zh"]["drivers"]


def test_home_family_table_names_each_family_once(fixture_kb, rendered):
    """The first column holds the family title only; the image name is on the family page."""
    _, pages = rendered
    for lang in LANGUAGES:
        rows = [line for line in pages[lang]["home"].splitlines() if "(families/" in line and line.startswith("| ")]
        assert len(rows) == len(fixture_kb.families), rows
        for family in fixture_kb.families.values():
            row = next(r for r in rows if f"(families/{family.id}/index.md)" in r)
            first = row.split("|")[1]
            assert "<code>" not in first, row
            assert first.startswith(f" [{getattr(family.title, lang)}](families/{family.id}/index.md)"), row


def test_changes_page_names_the_previous_release(rendered):
    _, pages = rendered
    en, zh = pages["en"]["changes"], pages["zh"]["changes"]
    assert "Previous release: [25.02](releases/training-nv-pytorch/25.02.md)\n\n| Component |" in en
    assert "上一版本：[25.02](releases/training-nv-pytorch/25.02.md)\n\n| 组件 |" in zh
    # 25.06 has no component list
    assert ("Previous release: [25.03](releases/training-nv-pytorch/25.03.md)\n\n"
            "One of the two releases has no component list") in en
    assert "上一版本：[25.03](releases/training-nv-pytorch/25.03.md)\n\n两个版本之一没有组件列表" in zh
    assert "Since" not in en and " → [" not in en and " → [" not in zh
