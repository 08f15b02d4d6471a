"""Full builds: both languages, API files, reproducibility, failure handling, CLI."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from lingjun.generator.site import cli_build
from lingjun.generator.site._site_dir import MARKER, mark_site
from lingjun.generator.site.build import ValidationFailed, build_site
from lingjun.generator.site.mkdocs_build import MkDocsBuildError

from site_kit import FIXTURE_KB, REPO
from made_once import made_ahead


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
    assert feed.index("training-nv-pytorch 25.07") < feed.index("training-nv-pytorch 25.02")
    # dated by the release's own date from the evidence, never by when the knowledge base recorded or revised it
    entry = feed.split("<title>training-nv-pytorch 25.07</title>")[1].split("</entry>")[0]
    assert "<published>2025-08-01T00:00:00Z</published>" in entry and "<updated>2025-08-01T00:00:00Z</updated>" in entry
    assert 'term="page-published"' in entry
    older = feed.split("<title>training-nv-pytorch 25.02</title>")[1].split("</entry>")[0]
    assert "<published>2025-03-27T00:00:00Z</published>" in older and 'term="page-updated"' in older
    # a release whose evidence states no date is an entry too, dated by its recording (updated, no published) and
    # labelled so; the feed's own updated is the latest entry's
    for undated in ("training-nv-pytorch 25.06", "training-nv-pytorch 25.03"):
        entry = feed.split(f"<title>{undated}</title>")[1].split("</entry>")[0]
        assert "<published>" not in entry and 'term="recorded"' in entry and "<updated>2026-" in entry
    latest = max(re.findall(r"<updated>([^<]+)</updated>", feed.split("<entry>", 1)[1]))
    assert f"<updated>{latest}</updated>\n  <link rel=\"self\"" in feed
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
    assert {"驱动版本", "已知问题", "向前兼容", "驱动分支", "accl-n", "training-nv-pytorch"} <= set(words)


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
    mark_site(site)  # a site an earlier build made: the only kind of folder a build may replace
    record = kb / "training-nv-pytorch" / "25.07.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("status: current", "status: shiny"), encoding="utf-8")
    status = cli_build(SimpleNamespace(releases=str(kb), site_dir=str(site)))
    assert status == 1
    err = capsys.readouterr().err
    assert re.search(r"25\.07\.yaml:\d+:\d+: status: ", err), err
    assert (site / "keep.txt").read_text(encoding="utf-8") == "old site"
    with pytest.raises(ValidationFailed):
        build_site(kb, site, build_dir=tmp_path / "b", config_dir=REPO)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mkdocs_failure_keeps_the_previous_site(tmp_path, lang):
    """Either language's failure (English builds in a forked process, Chinese in this one) comes back as a
    MkDocsBuildError naming its language and MkDocs' messages."""
    config = tmp_path / "config"
    config.mkdir()
    for name in ("mkdocs.yml", "mkdocs.zh.yml"):
        shutil.copy(REPO / name, config / name)
    shutil.copytree(REPO / "docs", config / "docs")
    (config / "generator").mkdir()
    shutil.copytree(REPO / "generator" / "site" / "theme", config / "generator" / "site" / "theme")
    # a hand-written page with a broken link: strict MkDocs must refuse it
    page = config / "docs" / lang / "introduction.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[坏链接](no-such-page.md)\n", encoding="utf-8")
    site = tmp_path / "site"
    site.mkdir()
    (site / "keep.txt").write_text("old site", encoding="utf-8")
    mark_site(site)  # a site an earlier build made: the only kind of folder a build may replace
    with pytest.raises(MkDocsBuildError) as info:
        build_site(FIXTURE_KB, site, build_dir=tmp_path / "build", config_dir=config)
    assert info.value.lang == lang and any("no-such-page.md" in m for m in info.value.messages)
    assert sorted(p.name for p in site.iterdir()) == [MARKER, "keep.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]


def test_jieba_forgets_the_user_dictionary_of_an_earlier_build(tmp_path):
    import jieba

    from lingjun.generator.site.mkdocs_build import prepare_jieba

    prepare_jieba()
    total = jieba.dt.total
    words = tmp_path / "user.txt"
    words.write_text("灵骏测试专用词 1000 n\n", encoding="utf-8")
    jieba.load_userdict(str(words))
    jieba.load_userdict(str(words))
    assert jieba.dt.FREQ.get("灵骏测试专用词") == 1000 and jieba.dt.total == total + 2000
    prepare_jieba()
    assert "灵骏测试专用词" not in jieba.dt.FREQ and jieba.dt.total == total


SITE_URL = "https://kb.example.com/lingjun/"


@made_ahead("with-url", "site_with_url", seconds=3)
def _with_url_folder(folder: Path, tmp_path_factory) -> None:
    build_site(FIXTURE_KB, folder / "site", build_dir=folder / "build", config_dir=REPO, site_url=SITE_URL)


@pytest.fixture(scope="module")
def site_with_url(tmp_path_factory):
    """A full build of the fixture KB with ``site_url`` set (once per run: read only)."""
    return _with_url_folder(tmp_path_factory) / "site"


def _heads(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8").split("</head>")[0]
            for p in sorted(site.rglob("*.html"))}


def test_no_page_links_an_alternate_that_makes_material_fetch_a_missing_sitemap(built_site, site_with_url):
    """Material fetches sitemap.xml next to every <link rel="alternate">: there are none in the heads."""
    for site in (built_site[0], site_with_url):
        heads = _heads(site)
        assert len(heads) > 40
        assert [name for name, head in heads.items() if re.search(r'<link rel="?alternate', head)] == []


def test_without_site_url_sitemaps_are_empty_and_links_relative(built_site):
    import xml.etree.ElementTree as ET

    site, _ = built_site
    for prefix in ("", "zh/"):
        sitemap = (site / prefix / "sitemap.xml").read_text(encoding="utf-8")
        assert sitemap.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')
        assert "<url>" not in sitemap and "site-url option" in sitemap
        root = ET.parse(site / prefix / "sitemap.xml").getroot()  # well-formed: no "--" inside a comment
        assert root.tag == "{http://www.sitemaps.org/schemas/sitemap/0.9}urlset" and list(root) == []
    xml_files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.xml"))
    assert {"sitemap.xml", "zh/sitemap.xml", "feed.xml", "zh/feed.xml"} <= set(xml_files)
    for name in xml_files:
        ET.parse(site / name)
    heads = _heads(site)
    assert [name for name, head in heads.items() if 'rel="canonical"' in head] == []
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    assert "<!-- links are relative to the URL this feed was fetched from -->" in feed
    assert '<link rel="alternate" href="releases/training-nv-pytorch/25.07/"/>' in feed


def test_without_site_url_the_chinese_404_page_links_into_the_chinese_site(built_site):
    site, _ = built_site
    zh = (site / "zh/404.html").read_text(encoding="utf-8")
    assert 'href="/zh/assets/lingjun/site.css"' in zh
    # the navigation's Releases section links the first family page (releases are listed on family pages)
    assert 'href="/zh/families/training-nv-pytorch/"' in zh
    assert 'href="/families/' not in zh
    en = (site / "404.html").read_text(encoding="utf-8")
    assert 'href="/families/training-nv-pytorch/"' in en and 'href="/zh/families/' not in en


def test_site_url_makes_sitemaps_canonical_links_and_feeds_absolute(site_with_url):
    import posixpath
    import xml.etree.ElementTree as ET

    site = site_with_url
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    for lang, root in (("en", SITE_URL), ("zh", SITE_URL + "zh/")):
        folder = site if lang == "en" else site / "zh"
        tree = ET.parse(folder / "sitemap.xml")
        urls = tree.getroot().findall("s:url", ns)
        pages = sorted(p.parent.relative_to(folder).as_posix() for p in folder.rglob("index.html")
                       if not (lang == "en" and p.relative_to(folder).parts[0] == "zh"))
        locs = sorted(u.find("s:loc", ns).text for u in urls)
        assert locs == sorted(root + ("" if p == "." else p + "/") for p in pages)
        for url in urls:
            loc = url.find("s:loc", ns).text
            path = loc[len(root):]
            links = {link.get("hreflang"): link.get("href") for link in url.findall("x:link", ns)}
            assert links == {"en": SITE_URL + path, "zh": SITE_URL + "zh/" + path, "x-default": SITE_URL + path}
            for href in links.values():
                local = href[len(SITE_URL):]
                assert (site / posixpath.join(local, "index.html")).is_file(), href
        html = (folder / "releases/training-nv-pytorch/25.07/index.html").read_text(encoding="utf-8")
        assert f'<link rel="canonical" href="{root}releases/training-nv-pytorch/25.07/">' in html
        feed = (folder / "feed.xml").read_text(encoding="utf-8")
        assert f'<link rel="self" href="{root}feed.xml"/>' in feed
        assert f'<link rel="alternate" href="{root}releases/training-nv-pytorch/25.07/"/>' in feed
        assert "relative to the URL" not in feed
    zh404 = (site / "zh/404.html").read_text(encoding="utf-8")
    assert 'href="/lingjun/zh/families/training-nv-pytorch/"' in zh404


def test_build_rejects_a_site_url_that_is_not_http(tmp_path, capsys):
    status = cli_build(SimpleNamespace(releases=str(FIXTURE_KB), site_dir=str(tmp_path / "site"),
                                       site_url="kb.example.com/lingjun"))
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("lingjun-kb build: --site-url: 'kb.example.com/lingjun' is not an absolute http:// or https:// URL")
    assert not (tmp_path / "site").exists()

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
