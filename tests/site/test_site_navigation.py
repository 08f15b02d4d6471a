"""The navigation at scale and the footer of release pages.

The navigation lists each family once (its page); releases are listed on
their family page, not in the navigation, so the navigation rendered into
every page does not grow with the number of releases.  A release page shows
its family's section as where the reader is, and its footer's Previous/Next
go to the older and newer release of its family, as the page's own
"Previous release" does (Material's footer would follow navigation order:
releases newest first made 25.07's "Previous" 25.08).

Checked on the model and on the built HTML of the real records.
"""

from __future__ import annotations

import re

import pytest

from lingjun.generator.site.model import family_page_id, release_page_id
from lingjun.generator.site.nav import LANGUAGES, NavSection
from lingjun.generator.site.strings import STRINGS

PREFIX = {"en": "", "zh": "zh/"}


def _nav_ids(tree):
    for item in tree:
        if isinstance(item, NavSection):
            yield from _nav_ids(item.children)
        else:
            yield item


def test_navigation_lists_families_not_releases_and_places_every_release(real):
    kb, site = real
    listed = list(_nav_ids(site.sitemap.nav))
    for family in site.families:
        assert listed.count(family_page_id(family.id)) == 1
    assert not [page_id for page_id in listed if page_id.startswith("release:")]
    # every page is either listed once or placed beside a listed page, never both
    assert set(listed) | set(site.sitemap.placements) == set(site.sitemap.pages)
    assert not set(listed) & set(site.sitemap.placements)
    assert set(site.sitemap.placements) == {release_page_id(r) for r in kb.releases}
    for record in kb.releases:
        placement = site.sitemap.placements[release_page_id(record)]
        view = site.view(record)
        assert placement.beside == family_page_id(record.family)
        # the footer agrees with the page's "Previous release" (older) and its newer release
        assert placement.previous == (release_page_id(view.previous) if view.previous else None)
        assert placement.next == (release_page_id(view.newer) if view.newer else None)
    placement = site.sitemap.placements["release:training-nv-pytorch:25.07"]
    assert (placement.previous, placement.next) == ("release:training-nv-pytorch:25.06", "release:training-nv-pytorch:25.08")
    # 25.05 of training-nv-pytorch is not recorded: 25.06's previous release is 25.04
    assert site.sitemap.placements["release:training-nv-pytorch:25.06"].previous == "release:training-nv-pytorch:25.04"


def test_mkdocs_placements_are_docs_paths(real):
    _, site = real
    placed = site.sitemap.mkdocs_placements()
    assert placed["releases/training-nv-pytorch/25.07.md"] == (
        "families/training-nv-pytorch/index.md", "releases/training-nv-pytorch/25.06.md",
        "releases/training-nv-pytorch/25.08.md")
    newest = site.latest("training-nv-pytorch")
    assert placed[f"releases/training-nv-pytorch/{newest.version}.md"][2] is None


@pytest.fixture(scope="module")
def real_site(real_site_dir):
    """The built site of the real records in ``releases/`` (both languages; the session's one build)."""
    return real_site_dir


def _page(site, lang, path):
    return (site / PREFIX[lang] / path / "index.html").read_text(encoding="utf-8")


def _footer(html):
    """``{"prev": (href, title), "next": (href, title)}`` of Material's footer."""
    footer = html.split('<nav class="md-footer__inner', 1)[1].split("</nav>", 1)[0]
    found = {}
    for match in re.finditer(r'<a href="([^"]*)" class="md-footer__link md-footer__link--(prev|next)"'
                             r'.*?<div class="md-ellipsis">\s*(.*?)\s*</div>', footer, re.S):
        found[match.group(2)] = (match.group(1), match.group(3))
    return found


def _primary_nav(html):
    return html.split("md-nav--primary", 1)[1].split("md-sidebar--secondary", 1)[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_release_footer_follows_release_order_on_the_real_records(real_site, real, lang):
    kb, site = real
    html = _page(real_site, lang, "releases/training-nv-pytorch/25.07")
    assert _footer(html) == {"prev": ("../25.06/", "training-nv-pytorch 25.06"),
                             "next": ("../25.08/", "training-nv-pytorch 25.08")}
    assert '<link rel="prev" href="../25.06/">' in html and '<link rel="next" href="../25.08/">' in html
    # the page's own "Previous release" row links where the footer's Previous goes
    label = STRINGS["release.previous"][lang]
    assert re.search(r"<td>" + re.escape(label) + r'</td>\s*<td><a href="\.\./25\.06/">25\.06</a></td>', html)
    # the oldest release has no Previous, the newest no Next; every other one both, in release order
    records = site.releases_by_family["training-nv-pytorch"]  # newest first
    for index, record in enumerate(records):
        footer = _footer(_page(real_site, lang, f"releases/training-nv-pytorch/{record.version}"))
        older = records[index + 1] if index + 1 < len(records) else None
        newer = records[index - 1] if index > 0 else None
        assert footer.get("prev") == ((f"../{older.version}/", f"training-nv-pytorch {older.version}") if older else None)
        assert footer.get("next") == ((f"../{newer.version}/", f"training-nv-pytorch {newer.version}") if newer else None)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_release_page_navigation_shows_its_family_and_lists_no_release(real_site, real, lang):
    kb, _ = real
    html = _page(real_site, lang, "releases/training-nv-pytorch/25.07")
    nav = _primary_nav(html)
    assert "/releases/" not in nav and 'href="../25.' not in nav
    # the family's section is the active (open) one: its page's link sits in the active item
    active = re.findall(r'<li class="md-nav__item md-nav__item--active md-nav__item--nested">\s*'
                        r'<input[^>]*checked>\s*<div class="md-nav__link md-nav__container">\s*<a href="([^"]*)"', nav)
    assert active == ["../../../families/training-nv-pytorch/"]
    # navigation.prune: closed sections are one link each, not their whole list
    assert "md-nav__item--pruned" in nav


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_release_is_reachable_from_its_family_page(real_site, real, lang):
    kb, _ = real
    for family in kb.families.values():
        html = _page(real_site, lang, f"families/{family.id}")
        article = html.split('<article class="md-content__inner', 1)[1]
        for record in kb.releases_of(family.id):
            assert f'href="../../releases/{family.id}/{record.version}/"' in article, (lang, record.ref)
