"""A full build (both languages, MkDocs strict) of the issue-12 fixture KB: the new pages exist, their links
resolve, search, navigation and sitemaps include them, and the API files are written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingjun.generator.site.build import build_site

from site_kit import REPO, load_release_shapes, release_shapes_folder
from made_once import made_ahead
from test_site_html_tables import check_article_links


@made_ahead("built12", "built12", seconds=3)
def _built12_folder(folder: Path, tmp_path_factory) -> None:
    kb_dir = release_shapes_folder(tmp_path_factory) / "kb"
    build_site(kb_dir, folder / "site", build_dir=folder / "build", config_dir=REPO, kb=load_release_shapes(kb_dir),
               site_url="https://kb.example.com/")


@pytest.fixture(scope="module")
def built12(tmp_path_factory, release_shapes_kb_dir):
    return _built12_folder(tmp_path_factory) / "site"


def test_new_pages_are_built_in_both_languages(built12):
    for lang in ("", "zh/"):
        for path in ("releases/inference-nv-pytorch/25.04", "releases/training-xpu-pytorch/2026-10-20",
                     "releases/inference-xpu-pytorch-opt/sglang0.5.4.post3-250105",
                     "families/inference-xpu-pytorch", "families/inference-nv-pytorch"):
            assert (built12 / f"{lang}{path}/index.html").is_file(), lang + path
    html = (built12 / "releases/inference-nv-pytorch/25.04/index.html").read_text(encoding="utf-8")
    assert 'id="variant-vllm"' in html and 'id="variant-sglang-layer-library"' in html
    # the attribute keeps "#" as a character reference (raw HTML in Markdown); a browser reads it as "#"
    assert 'href="../../../families/inference-nv-pytorch/&#35;release-25-10"' in html


def test_every_link_resolves(built12):
    checked, _ = check_article_links(built12)
    assert checked > 300


def test_search_sitemap_and_navigation_include_the_new_pages(built12):
    for lang, root in (("", "https://kb.example.com/"), ("zh/", "https://kb.example.com/zh/")):
        index = json.loads((built12 / f"{lang}search/search_index.json").read_text(encoding="utf-8"))
        locations = {doc["location"] for doc in index["docs"]}
        assert "releases/training-xpu-pytorch/2026-10-20/#runtimes" in locations
        assert "releases/inference-nv-pytorch/25.04/#variant-sglang" in locations
        sitemap = (built12 / f"{lang}sitemap.xml").read_text(encoding="utf-8")
        assert f"<loc>{root}releases/inference-xpu-pytorch-opt/sglang0.5.4.post3-250105/</loc>" in sitemap
        assert f"<loc>{root}families/inference-xpu-pytorch/</loc>" in sitemap
    home = (built12 / "index.html").read_text(encoding="utf-8")
    assert 'href="families/inference-xpu-pytorch/"' in home
    release = (built12 / "releases/training-xpu-pytorch/2026-10-20/index.html").read_text(encoding="utf-8")
    assert 'href="../25.05/"' in release  # the footer's previous release, by date


def test_api_files_of_the_new_shapes(built12):
    one = json.loads((built12 / "api/v1/releases/inference-nv-pytorch/25.04.json").read_text(encoding="utf-8"))
    assert [v["id"] for v in one["variants"]] == ["vllm", "sglang"]
    assert (built12 / "api/v1/releases/training-xpu-pytorch/2026-10-20.json").is_file()
    assert json.loads((built12 / "api/v1/families.json").read_text(encoding="utf-8"))["sources"]


def _zh_article_texts(site):
    """``{page folder: visible article text}`` of every built Chinese page (code shown as a placeholder word)."""
    import html as _html
    import re

    texts = {}
    for path in sorted((site / "zh").rglob("index.html")):
        found = re.search(r"<article.*?</article>", path.read_text(encoding="utf-8"), re.S)
        if not found:
            continue
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", found.group(0), flags=re.S)
        text = re.sub(r"<(code|pre)\b.*?</\1>", "CODE", text, flags=re.S)
        texts[str(path.parent.relative_to(site / "zh"))] = _html.unescape(re.sub(r"<[^>]+>", "", text))
    return texts


def test_zh_pages_have_no_gap_before_a_full_width_bracket_nor_ascii_semicolon_between_chinese(built12):
    import re

    texts = _zh_article_texts(built12)
    assert len(texts) > 40 and "releases/training-xpu-pytorch/2026-10-20" in texts
    gap = re.compile(r"\S[ \u00a0]+[（《「]")
    cjk = "\u3400-\u9fff\uff00-\uffef\u3000-\u303f"
    semicolon = re.compile(rf"[{cjk}][ ]?;[ ]?[{cjk}]")
    bad = [(page, m.group(0)) for page, text in texts.items() for p in (gap, semicolon) for m in p.finditer(text)]
    assert bad == []
    # the scan reads text where full-width brackets follow links and titles
    assert re.search(r"\d（已发布，尚未收录）", texts["releases/training-xpu-pytorch/25.05"])
    assert "《Lingjun training Image 2026-10-20》" in texts["releases/training-xpu-pytorch/2026-10-20"]
