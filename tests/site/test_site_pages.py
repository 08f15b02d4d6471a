"""The page declarations (generator/site/pages.py): one place gives the page map, the navigation and the title strings."""

from __future__ import annotations

import re

import pytest
from jinja2 import ChoiceLoader, DictLoader

from lingjun.generator.site import pages
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.nav import LANGUAGES, NavSection
from lingjun.generator.site.pages import SITE, Page, Section, navigation, static_pages, title_key, title_strings
from lingjun.generator.site.render import TEMPLATE_DIR, make_environment, render_pages
from lingjun.generator.site.strings import STRINGS

from site_kit import REPO


def _nav_ids(tree):
    for item in tree:
        if isinstance(item, NavSection):
            yield from _nav_ids(item.children)
        else:
            yield item


def test_every_declared_page_is_in_the_page_map_and_the_navigation_once(fixture_kb):
    site = build_site_model(fixture_kb)
    declared = [page.id for page in static_pages()]
    assert len(declared) == len(set(declared))
    listed = list(_nav_ids(site.sitemap.nav))
    # releases are listed on their family page and placed beside it, not in the navigation
    assert len(listed) == len(set(listed)) == len(site.sitemap.pages) - len(site.sitemap.placements)
    assert sorted(site.sitemap.placements) == sorted(f"release:{r.ref}" for r in fixture_kb.releases)
    for page_id in declared:
        assert page_id in site.sitemap.pages and page_id in listed


def test_declared_templates_and_hand_written_pages_exist():
    for page in static_pages():
        if page.template:
            assert (TEMPLATE_DIR / page.template).is_file(), page.template
        else:
            for lang in LANGUAGES:
                assert (REPO / "docs" / lang / page.path).is_file(), (lang, page.path)


def test_navigation_follows_the_declaration_order(fixture_kb):
    top = [entry.id if isinstance(entry, Page) else f"nav:{entry.id}" for entry in SITE]
    tree = build_site_model(fixture_kb).sitemap.nav
    assert [item.id if isinstance(item, NavSection) else item for item in tree] == top
    tables = next(item for item in tree if isinstance(item, NavSection) and item.id == "nav:tables")
    declared = next(entry for entry in SITE if not isinstance(entry, Page) and entry.id == "tables")
    assert tables.children == [page.id for page in declared.pages]
    existing = ["matrix", "drivers", "changes", "compare", "known-issues"]  # a new page may go anywhere between them
    assert [child for child in tables.children if child in existing] == existing


def test_page_titles_are_interface_strings():
    for key, (en, zh) in title_strings().items():
        assert STRINGS[key] == {"en": en, "zh": zh}
    assert STRINGS[title_key("known-issues")]["zh"] == "已知问题"
    # a link title may differ from the navigation title
    assert STRINGS["page.components"]["en"] == "Components"


def test_navigation_rejects_an_unknown_section():
    with pytest.raises(KeyError):
        navigation({"no-such-section": ["x"]})


def test_one_declaration_adds_a_generated_page(fixture_kb, monkeypatch):
    """A page declared in SITE is in the page map and the navigation, and its template gets its context."""
    extra = Page("extra", "tables/extra.md", {"en": "Extra", "zh": "附加"}, "extra.md.j2",
                 context=lambda site, page: {"seen": page.id})
    site_entries = tuple(
        Section(e.id, e.title, e.pages + (extra,)) if isinstance(e, Section) and e.id == "tables" else e for e in SITE
    )
    monkeypatch.setattr(pages, "SITE", site_entries)
    site = build_site_model(fixture_kb)
    assert site.sitemap.pages["extra"].path == "tables/extra.md"
    def section(lang, title):
        return next(e[title] for e in site.sitemap.mkdocs_nav(lang) if isinstance(e, dict) and title in e)

    assert {"Extra": "tables/extra.md"} in section("en", "Compatibility")
    assert {"附加": "tables/extra.md"} in section("zh", "兼容性")
    env = make_environment()
    env.loader = ChoiceLoader([DictLoader({"extra.md.j2": "# {{ seen }} [{{ t('page.matrix') }}]({{ link('matrix') }})\n"}),
                               env.loader])
    rendered = {page.id: text for page, text in render_pages(site, "zh", env)}
    assert rendered["extra"] == "# extra [支持矩阵](../matrix.md)\n"


@pytest.mark.parametrize("lang, title", [("en", "Contributing"), ("zh", "参与贡献")])
def test_contributing_page_exists_in_both_languages_and_is_in_the_navigation(built_site, lang, title):
    site_dir, build_dir = built_site
    root = site_dir if lang == "en" else site_dir / "zh"
    assert (REPO / "docs" / lang / "contributing.md").is_file()
    assert (build_dir / lang / "contributing.md").is_file()
    page = (root / "contributing" / "index.html").read_text(encoding="utf-8")
    assert "<h1" in page and title in page
    # listed in the navigation of the other pages (home, and one a level down)
    for html in ((root / "index.html").read_text(encoding="utf-8"), (root / "matrix" / "index.html").read_text(encoding="utf-8")):
        nav = html.split("md-nav--primary", 1)[1].split("md-sidebar--secondary", 1)[0]
        assert re.search(r'<a href="[^"]*contributing/" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*'
                         + re.escape(title) + r"\s*</span>", nav), lang
    # it shows how to add each of the four kinds of contribution, and how to run the tests
    text = (build_dir / lang / "contributing.md").read_text(encoding="utf-8")
    for needle in ("checks/rules/", "@rule(", "schema/gate/rules/", "@gate_rule(", "generator/site/pages.py",
                   "lingjun-kb new", "lingjun-kb validate", "pytest -q", "bench/"):
        assert needle in text, (lang, needle)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_contributing_page_names_only_files_and_tables_that_exist(lang):
    """Every project path the page names in backticks exists, and the tables it points a new rule's author to
    (``AREAS``, ``SECTIONS``) are where it says."""
    from lingjun.checks import coverage
    from lingjun.checks.report import model

    text = (REPO / "docs" / lang / "contributing.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:checks|schema|generator|tests|releases|docs|bench)/[^`\s<>*]*)`", text))
    assert len(named) > 20 and not [path for path in sorted(named) if not (REPO / path.rstrip("/")).exists()]
    for table, module, path in (("AREAS", model, "checks/report/model.py"), ("SECTIONS", coverage, "checks/coverage.py")):
        assert f"`{table}`" in text and f"`{path}`" in text and hasattr(module, table), table
        assert module.__file__.endswith(path.split("/", 1)[1]), (module.__file__, path)


@pytest.mark.parametrize("lang, title, heading", [
    ("en", "Not stated, not recorded, skipped", "Skipped checks"),
    ("zh", "未说明、未记录与跳过", "跳过的检查"),
])
def test_reading_verdicts_page_is_in_both_languages_and_the_navigation(built_site, lang, title, heading):
    site_dir, _ = built_site
    root = site_dir if lang == "en" else site_dir / "zh"
    assert (REPO / "docs" / lang / "reading-verdicts.md").is_file()
    page = (root / "reading-verdicts" / "index.html").read_text(encoding="utf-8")
    assert heading in page  # the checker's part of the page goes under this heading
    home = (root / "index.html").read_text(encoding="utf-8")
    nav = home.split("md-nav--primary", 1)[1].split("md-sidebar--secondary", 1)[0]
    assert "reading-verdicts/" in nav and title in nav


@pytest.mark.parametrize("lang, title, heading", [
    ("en", "Across a cluster", "Should the pod hold GPUs?"),
    ("zh", "在整个集群上运行", "Pod 要不要占用 GPU？"),
])
def test_fleet_page_is_in_both_languages_and_the_checker_section(built_site, lang, title, heading):
    site_dir, _ = built_site
    root = site_dir if lang == "en" else site_dir / "zh"
    page = (root / "checker" / "fleet" / "index.html").read_text(encoding="utf-8")
    assert heading in page and "lingjun-kb bundle --configmap" in page
    # navigation.prune renders the open section only: on the checker guide the Checker section is open
    guide = (root / "checker" / "index.html").read_text(encoding="utf-8")
    nav = guide.split("md-nav--primary", 1)[1].split("md-sidebar--secondary", 1)[0]
    assert 'href="fleet/"' in nav and title in nav
    # and the guide's text links to it
    assert 'href="fleet/"' in guide.split("md-content", 1)[1]


@pytest.mark.parametrize("lang, title, heading", [
    ("en", "Results at fleet scale", "Three paths, each for its own question"),
    ("zh", "大规模集群的结果流转", "三条路径，各答一个问题"),
])
def test_at_scale_page_is_in_both_languages_and_the_checker_section(built_site, lang, title, heading):
    site_dir, _ = built_site
    root = site_dir if lang == "en" else site_dir / "zh"
    page = (root / "checker" / "at-scale" / "index.html").read_text(encoding="utf-8")
    assert heading in page and "remote_write" in page and "LingjunCheckProblem" in page
    nav = page.split("md-nav--primary", 1)[1].split("md-sidebar--secondary", 1)[0]
    assert title in nav
    # the fleet page links to it
    fleet = (root / "checker" / "fleet" / "index.html").read_text(encoding="utf-8")
    assert 'href="../at-scale/"' in fleet.split("md-content", 1)[1]
