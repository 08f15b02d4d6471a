"""The large generated tables are raw HTML (no Markdown inside, for build speed): their links are the built
pages' URLs, which MkDocs neither rewrites nor checks there, so these tests check them."""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

from lingjun.generator.site.nav import PageSpec, SiteMap, page_url


def _map(*paths: str) -> SiteMap:
    site = SiteMap()
    for path in paths:
        site.add(PageSpec(id=path, path=path, title={"en": path, "zh": path}))
    return site


def test_page_urls_and_relative_links_follow_directory_urls():
    assert page_url("index.md") == ""
    assert page_url("families/f/index.md") == "families/f/"
    assert page_url("releases/f/25.07.md") == "releases/f/25.07/"
    site = _map("index.md", "drivers.md", "families/f/index.md", "releases/f/25.07.md", "releases/f/25.06.md",
                "components/vllm.md")
    assert site.url_href("releases/f/25.07.md", "releases/f/25.06.md") == "../25.06/"
    assert site.url_href("releases/f/25.07.md", "components/vllm.md") == "../../../components/vllm/"
    assert site.url_href("releases/f/25.07.md", "families/f/index.md") == "../../../families/f/"
    assert site.url_href("releases/f/25.07.md", "index.md", "x") == "../../../#x"
    assert site.url_href("index.md", "drivers.md") == "drivers/"
    assert site.url_href("drivers.md", "drivers.md", "r535") == "./#r535"
    assert site.url_href("components/vllm.md", "releases/f/25.07.md") == "../../releases/f/25.07/"


class _Links(HTMLParser):
    """Relative hrefs inside ``<article>`` and every element id of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "article":
            self.depth += 1
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        href = attrs.get("href")
        if self.depth and tag == "a" and href and not re.match(r"[a-z][a-z0-9+.-]*:", href):
            self.links.append(href)

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _parsed(parsed: "dict[Path, _Links]", page: Path) -> _Links:
    """``page`` parsed, once: ``parsed`` keeps each page's parse (``setdefault(page, _parse(page))`` would parse it
    again for every link that names it)."""
    if page not in parsed:
        parsed[page] = _parse(page)
    return parsed[page]


def check_article_links(site_dir: Path) -> tuple[int, int]:
    """Assert that every relative link in the content of every built page resolves (with its anchor);
    returns ``(links checked, links in raw-HTML table cells)``."""
    parsed: dict[Path, _Links] = {}
    checked = 0
    table_links = 0
    for page in sorted(site_dir.rglob("*.html")):
        if page.name == "404.html":
            continue
        links = _parsed(parsed, page)
        text = page.read_text(encoding="utf-8")
        table_links += len(re.findall(r"<td><a href=\"\.\./", text))
        for href in links.links:
            path, _, anchor = href.partition("#")
            path = path.partition("?")[0]  # the finder's preset (?release=...) is read by its script
            target = Path(posixpath.normpath(posixpath.join(str(page.parent), path))) if path else page
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), (str(page.relative_to(site_dir)), href)
            if anchor and target.suffix == ".html":
                ids = _parsed(parsed, target).ids
                assert anchor in ids, (str(page.relative_to(site_dir)), href)
            checked += 1
    return checked, table_links


def test_every_link_in_an_article_reaches_a_built_page_and_its_anchor(built_site):
    """Every relative link in the content of every page, Markdown's and the HTML tables', resolves to a built
    page (the API's JSON files included) and, with an anchor, to an element with that id."""
    site_dir, _ = built_site
    checked, table_links = check_article_links(site_dir)
    assert checked > 500 and table_links > 50, (checked, table_links)


def test_release_tables_are_html_that_markdown_passes_through(built_site):
    """The components table of a release page links the component page and the upstream notes, and the driver
    table is folded in a <details> of Material's "abstract" kind, as the ``???`` block made it."""
    site_dir, _ = built_site
    html = (site_dir / "releases" / "training-nv-pytorch" / "25.07" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<td><a href="\.\./\.\./\.\./components/torch/">PyTorch</a><small> \(Torch\)</small></td>\s*'
                     r'<td><code>2\.7\.1\.8\+nv25\.3</code></td>', html)
    assert '<a href="https://github.com/pytorch/pytorch/releases/tag/v2.7.1">release notes</a>' in html
    assert re.search(r'<details class="abstract">\s*<summary>[^<]*branch[^<]*</summary>\s*<p>[^<]*'
                     r'<a href="\.\./\.\./\.\./drivers/">', html)
    assert "<td>R535</td>" in html and "|" not in re.sub(r"<[^>]*>", "", html.split('id="components"')[1].split("</table>")[0])
