"""Readable release pages and the rest of issue 11 section 2, checked on the rendered Markdown and the built site.

* driver section: the release's own requirement in one sentence first, the per-branch table folded;
* image tags: one copyable code block per reference, the VPC references unescaped;
* support matrix: a mark on every row whose component list is partial or missing;
* error pages: in the site's language, with links home and to search;
* search: the separator, the driver page's boost, the variable names on the Chinese rules page;
* sitemaps of a build without a site URL parse, gzip copies included.
"""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET

import pytest

from lingjun.generator.site.mkdocs_build import error_page_words

REF_2507 = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"


def _section(page: str, anchor: str) -> str:
    start = page.index(f"{{ #{anchor} }}")
    return page[start:page.index("\n## ", start)]


# --- driver section -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang,sentence", [
    ("en", '<p class="lj-driver-requirement">This release requires NVIDIA driver release 575 or later (the official '
           'page says: “NVIDIA Driver release &gt;&#61; 575”).</p>'),
    ("zh", '<p class="lj-driver-requirement">此版本需要 NVIDIA 驱动 575 或更新版本（官方页面原文：'
           '“NVIDIA Driver release &gt;&#61; 575”）。</p>'),
])
def test_driver_section_states_the_requirement_first_and_folds_the_branch_table(pages, real, lang, sentence):
    _, site = real
    section = _section(pages[lang]["release:training-nv-pytorch:25.07"], "driver")
    body = [line for line in section.splitlines()[1:] if line.strip()]
    assert body[0] == sentence
    folded = section.index('<details class="abstract">\n<summary>')
    rows = re.findall(r"<tr>\n<td>R[0-9]+</td>", section[folded:section.index("</details>")])
    assert len(rows) == len(site.views["training-nv-pytorch:25.07"].driver_cells) >= 20
    assert "<td>R" not in section[:folded] and "<td>R" not in section[section.index("</details>"):]  # none unfolded
    assert not [line for line in section.splitlines() if line.startswith("| R")]


def test_a_ppu_release_names_its_own_driver(pages):
    section = _section(pages["en"]["release:training-xpu-pytorch:25.05"], "driver")
    assert "This release requires PPU driver release 1.1.0 or later" in section
    assert "“Driver version &gt;&#61; 1.1.0”" in section


# --- image tags ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_image_references_are_copyable_code_blocks(pages, real, lang):
    kb, _ = real
    for record in kb.releases:
        if not record.image_tags:
            continue
        section = _section(pages[lang][f"release:{record.ref}"], "image-tags")
        for tag in record.image_tags:
            assert f"``` text\n{tag.reference}\n```" in section, (record.ref, tag.tag)
            assert f"<code>{tag.reference}</code>" not in section
    vpc = "acs-registry-vpc.{region-id}.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"
    section = _section(pages[lang]["release:training-nv-pytorch:25.07"], "image-tags")
    assert f"``` text\n{vpc}\n```" in section  # verbatim in the block: no &#123; entity to copy
    assert f"``` text\n{REF_2507}\n```" in section


# --- support matrix -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_row_with_a_partial_or_missing_list_has_its_mark(pages, real, lang):
    kb, site = real
    page = pages[lang]["matrix"]
    expected = {}
    for record in kb.releases:  # one row per image; its list and its runtimes' lists decide its mark
        listed = site.components_of(record)
        expected[record.ref] = ["&#42;" if not listed else (None if row["complete"] else "†")
                                for row in site.matrix_rows(record)]
    marks = [m for found in expected.values() for m in found]
    assert "†" in marks  # the real records have partial lists (ngc-pytorch, training-nv-pytorch 25.06)
    assert expected["training-xpu-pytorch:2026-10-20"] == ["†"]  # its runtimes' lists were not captured
    for ref, found in expected.items():
        family, version = ref.split(":")
        rows = [row for row in re.findall(r"<tr>\n<td>.*?</tr>", page, re.S)
                if row.startswith(f'<tr>\n<td><a href="../releases/{family}/{version}/">{version}</a>')]
        assert len(rows) == len(found), ref
        for row, mark in zip(rows, found):
            cell = row.split("</td>")[0]
            assert (f" <small>{mark}</small>" in cell) if mark else (" <small>" not in cell), (ref, cell)
    for mark in {m for m in marks if m}:
        assert f"\n<small>{mark} " in page  # the footnote of each mark used


# --- error pages ----------------------------------------------------------------------------------


def test_error_page_words_are_in_each_language():
    en, zh = error_page_words("en"), error_page_words("zh")
    assert en["title"] == "Page not found" and zh["title"] == "页面不存在"
    assert set(en) == set(zh) == {"title", "body", "home", "search"}
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in zh.values())


@pytest.mark.parametrize("prefix,lang,title,home", [("", "en", "Page not found", "/"), ("zh/", "zh", "页面不存在", "/zh/")])
def test_built_error_pages_link_home_and_to_search_in_their_language(built_site, prefix, lang, title, home):
    site, _ = built_site
    text = (site / prefix / "404.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}"' in text and f"<h1>{title}</h1>" in text
    assert f'href="{home}" data-lj-home>{error_page_words(lang)["home"]}</a>' in text
    assert f'for="__search" role="button" tabindex="0" data-lj-search>{error_page_words(lang)["search"]}</label>' in text
    other = "页面不存在" if lang == "en" else "Page not found"
    assert other not in text


# --- search ---------------------------------------------------------------------------------------


def _index(site, prefix: str) -> dict:
    return json.loads((site / prefix / "search" / "search_index.json").read_text(encoding="utf-8"))


def _tokens(separator: str, text: str) -> list[str]:
    """Words as lunr makes them: lower-cased, split by the configured separator (Python's re reads it alike),
    with non-word characters trimmed from both ends (lunr's trimmer)."""
    words = (re.sub(r"^\W+|\W+$", "", w) for w in re.split(separator, text.lower()))
    return [w for w in words if w]


@pytest.mark.parametrize("prefix", ["", "zh/"])
def test_search_index_finds_535_in_the_r535_rows(built_site, prefix):
    site, _ = built_site
    index = _index(site, prefix)
    rows = [d for d in index["docs"] if d["location"].startswith("drivers/") and "R535" in d["text"]]
    assert rows, "the driver compatibility page lists R535"
    assert all("535" in _tokens(index["config"]["separator"], re.sub(r"<[^>]+>", " ", d["text"])) for d in rows)
    assert "for535" in _tokens(index["config"]["separator"], "for535")  # only a branch's R is split off


@pytest.mark.parametrize("prefix", ["", "zh/"])
def test_the_driver_page_is_boosted(built_site, prefix):
    site, _ = built_site
    boosted = {d["location"].split("#")[0]: d.get("boost") for d in _index(site, prefix)["docs"] if "boost" in d}
    assert boosted == {"drivers/": 5}


def test_chinese_index_holds_nccl_socket_ifname_on_the_rules_page_as_the_query_splits_it(built_site):
    site, _ = built_site
    for prefix in ("", "zh/"):
        index = _index(site, prefix)
        separator = index["config"]["separator"]
        query = _tokens(separator, "NCCL_SOCKET_IFNAME")
        assert query == ["nccl", "socket", "ifname"]
        doc = next(d for d in index["docs"] if d["location"] == "checker/rules/#env-nccl-socket-ifname")
        words = _tokens(separator, re.sub(r"<[^>]+>", " ", doc["text"]))
        assert all(word in words for word in query), (prefix, words)


def test_rules_page_lists_the_variables_a_rule_checks_in_both_languages(pages):
    for lang, label in (("en", "Environment variables it checks"), ("zh", "检查的环境变量")):
        page = pages[lang]["checker-rules"]
        entry = page.split("{ #env-nccl-socket-ifname }")[1].split("### ")[0]
        assert f"{label}{'：' if lang == 'zh' else ': '}<code>NCCL&#95;SOCKET&#95;IFNAME</code>" in entry


# --- sitemaps -------------------------------------------------------------------------------------


def test_default_build_sitemaps_and_their_gzip_copies_parse(built_site):
    site, _ = built_site
    for prefix in ("", "zh/"):
        for root in (ET.parse(site / prefix / "sitemap.xml").getroot(),
                     ET.fromstring(gzip.decompress((site / prefix / "sitemap.xml.gz").read_bytes()))):
            assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset"
