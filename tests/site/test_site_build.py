"""Full builds: both languages, API files, reproducibility, failure handling, CLI."""

from __future__ import annotations

import filecmp
import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from lingjun.generator.site import cli_build
from lingjun.generator.site.build import ValidationFailed, build_site
from lingjun.generator.site.mkdocs_build import MkDocsBuildError

from conftest import FIXTURE_KB, REPO


def all_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_both_languages_and_machine_readable_files(built_site):
    site, _ = built_site
    assert (site / "index.html").is_file() and (site / "zh" / "index.html").is_file()
    assert (site / "releases/training-nv-pytorch/25.07/index.html").is_file()
    assert (site / "zh/releases/training-nv-pytorch/25.07/index.html").is_file()
    assert (site / "search/search_index.json").is_file() and (site / "zh/search/search_index.json").is_file()
    data = json.loads((site / "api/v1/releases.json").read_text(encoding="utf-8"))
    assert data["format"] == 1 and len(data["releases"]) == 6
    one = json.loads((site / "api/v1/releases/training-nv-pytorch/25.07.json").read_text(encoding="utf-8"))
    assert one["version"] == "25.07" and one["cuda"] == "12.8"
    for kind in ("release", "families", "components", "known-issue", "cuda-drivers", "driver-branches"):
        assert (site / f"api/v1/schema/{kind}.schema.json").is_file()
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert feed.index("training-nv-pytorch 25.07") < feed.index("training-nv-pytorch 25.06")
    assert "<updated>2025-07-01T00:00:00Z</updated>" in feed
    assert "灵骏" in (site / "zh/feed.xml").read_text(encoding="utf-8")


def test_language_settings_and_switcher(built_site):
    site, build = built_site
    en = (site / "releases/training-nv-pytorch/25.07/index.html").read_text(encoding="utf-8")
    zh = (site / "zh/releases/training-nv-pytorch/25.07/index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in en and '<html lang="zh"' in zh
    assert 'href="../../../zh/releases/training-nv-pytorch/25.07/" hreflang="zh" target="_self" class="md-select__link' in en
    assert 'href="../../../../releases/training-nv-pytorch/25.07/" hreflang="en" target="_self" class="md-select__link' in zh
    index = json.loads((site / "zh/search/search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["zh"] and "\\u200b" in index["config"]["separator"]
    words = (build / "jieba-user-dict.txt").read_text(encoding="utf-8").split()
    assert {"驱动版本", "已知问题", "前向兼容", "驱动分支", "accl-n", "training-nv-pytorch"} <= set(words)


def test_hostile_text_in_html(built_site):
    site, _ = built_site
    html = (site / "releases/training-nv-pytorch/25.07/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html
    assert 'href="javascript' not in html


def test_rebuild_is_byte_identical(built_site, hostile_kb_dir, tmp_path):
    site, _ = built_site
    again = tmp_path / "site"
    build_site(hostile_kb_dir, again, build_dir=tmp_path / "build", config_dir=REPO)
    first, second = all_files(site), all_files(again)
    assert first.keys() == second.keys()
    different = [name for name in first if first[name] != second[name]]
    assert different == []
    assert "sitemap.xml.gz" in first


def test_invalid_records_stop_the_build_and_keep_the_site(tmp_path, capsys):
    kb = tmp_path / "kb"
    shutil.copytree(FIXTURE_KB, kb)
    site = tmp_path / "site"
    site.mkdir()
    (site / "keep.txt").write_text("old site", encoding="utf-8")
    record = kb / "training-nv-pytorch" / "25.07.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("status: current", "status: shiny"), encoding="utf-8")
    status = cli_build(SimpleNamespace(releases=str(kb), site_dir=str(site)))
    assert status == 1
    err = capsys.readouterr().err
    assert re.search(r"25\.07\.yaml:\d+:\d+: status: ", err), err
    assert (site / "keep.txt").read_text(encoding="utf-8") == "old site"
    with pytest.raises(ValidationFailed):
        build_site(kb, site, build_dir=tmp_path / "b", config_dir=REPO)


def test_mkdocs_failure_keeps_the_previous_site(tmp_path):
    config = tmp_path / "config"
    config.mkdir()
    for name in ("mkdocs.yml", "mkdocs.zh.yml"):
        shutil.copy(REPO / name, config / name)
    shutil.copytree(REPO / "docs", config / "docs")
    (config / "generator").mkdir()
    shutil.copytree(REPO / "generator" / "site" / "theme", config / "generator" / "site" / "theme")
    # a hand-written page with a broken link: strict MkDocs must refuse it
    page = config / "docs" / "zh" / "introduction.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[坏链接](no-such-page.md)\n", encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    (site / "keep.txt").write_text("old site", encoding="utf-8")
    with pytest.raises(MkDocsBuildError) as info:
        build_site(FIXTURE_KB, site, build_dir=tmp_path / "build", config_dir=config)
    assert any("no-such-page.md" in m for m in info.value.messages)
    assert [p.name for p in site.iterdir()] == ["keep.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]


def test_jieba_forgets_the_user_dictionary_of_an_earlier_build(tmp_path):
    import jieba

    from lingjun.generator.site.mkdocs_build import _fresh_jieba

    _fresh_jieba()
    total = jieba.dt.total
    words = tmp_path / "user.txt"
    words.write_text("灵骏测试专用词 1000 n\n", encoding="utf-8")
    jieba.load_userdict(str(words))
    jieba.load_userdict(str(words))
    assert jieba.dt.FREQ.get("灵骏测试专用词") == 1000 and jieba.dt.total == total + 2000
    _fresh_jieba()
    assert "灵骏测试专用词" not in jieba.dt.FREQ and jieba.dt.total == total


def test_head_hreflang_links_point_at_the_same_page_in_each_language(built_site):
    import posixpath

    site, _ = built_site
    pages = [p for p in site.rglob("index.html")]
    assert len(pages) > 40
    for path in pages:
        rel = path.relative_to(site).as_posix()
        en_rel = rel[3:] if rel.startswith("zh/") else rel
        html = path.read_text(encoding="utf-8")
        head = html.split("</head>")[0]
        links = dict((lang, href) for href, lang in re.findall(r'<link rel="alternate" href="([^"]*)" hreflang="(\w+)">', head))
        assert set(links) == {"en", "zh"}, rel
        for lang, href in links.items():
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), href))
            expected = posixpath.dirname(en_rel) if lang == "en" else posixpath.join("zh", posixpath.dirname(en_rel))
            assert target == posixpath.normpath(expected or "."), (rel, lang, href)
            assert (site / target / "index.html").is_file(), (rel, lang, href)


def test_navigation_lists_each_family_once(built_site, fixture_kb):
    """The family page is its navigation section's index page (Material's navigation.indexes)."""
    site, _ = built_site
    for lang, prefix in (("en", ""), ("zh", "zh/")):
        html = (site / prefix / "releases/training-nv-pytorch/25.07/index.html").read_text(encoding="utf-8")
        nav = html.split('md-nav--primary', 1)[1].split('md-sidebar--secondary', 1)[0]
        for family in fixture_kb.families.values():
            title = getattr(family.title, lang)
            links = re.findall(r'<a href="([^"]*)" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*'
                               + re.escape(title) + r"\s*</span>", nav)
            assert links == [f"../../../families/{family.id}/"], (lang, title, links)
            shown = re.findall(r'<span class="md-ellipsis">\s*' + re.escape(title) + r"\s*</span>", nav)
            assert len(shown) == 1, (lang, title)
