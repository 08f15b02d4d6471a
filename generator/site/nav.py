"""The site's pages and navigation, keyed by page id for both languages.

One spec serves both builds: every page has an id (``home``,
``release:training-nv-pytorch:25.07``), one docs path (the same in
``.build/en`` and ``.build/zh``) and a title per language.  The MkDocs
``nav`` of each language is produced from this spec; translated titles are
never used as keys.

Titles are text; MkDocs and Material treat a navigation title as HTML (they
print it unescaped in the navigation, the breadcrumbs, the page header, the
footer and the search index).  :func:`nav_title` escapes a title for MkDocs;
:meth:`SiteMap.mkdocs_nav` and a page's front-matter ``title`` (the
``join_title`` filter of :mod:`.render`) both go through it.  The fixed pages and the order of the navigation are
declared in :mod:`.pages`; this module holds the types and the page map.

Pages kept out of the navigation (releases: the navigation lists each
family once and the family page lists its releases, so the navigation
rendered into every page does not grow with the number of releases) get a
:class:`Placement`: the navigation section they belong to, shown as where
the reader is, and their footer neighbours (release order, not navigation
order).  :meth:`SiteMap.mkdocs_placements` hands them to the MkDocs build.
"""

from __future__ import annotations

import html
import posixpath
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Union

__all__ = ["LANGUAGES", "PageSpec", "NavSection", "Placement", "SiteMap", "nav_title", "page_url", "url_depth"]

#: languages in build order; English is the root site, Chinese lives under ``zh/``
LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class PageSpec:
    """One page of the site.

    Attributes:
        id: stable page id.
        path: docs-relative Markdown path (``releases/training-nv-pytorch/25.07.md``).
        title: language -> navigation title.
        template: Jinja2 template name for generated pages; None for a
            hand-written page copied from ``docs/<lang>/<path>``.
        context: ``context(site, page)`` returning the page's own template
            variables (None: only the common ones).
    """

    id: str
    path: str
    title: Mapping[str, str]
    template: Optional[str] = None
    context: Optional[Callable[[Any, "PageSpec"], Mapping[str, Any]]] = field(default=None, compare=False)


@dataclass
class NavSection:
    """A navigation section: an id, a title per language and children (page ids or sections)."""

    id: str
    title: Mapping[str, str]
    children: list[Union["NavSection", str]] = field(default_factory=list)


@dataclass(frozen=True)
class Placement:
    """Where a page that the navigation does not list belongs.

    Attributes:
        beside: id of a navigation page whose section holds this page (a
            release: its family page); that section is shown as where the
            reader is.
        previous: id of the page the footer's "Previous" link goes to, or None.
        next: id of the page the footer's "Next" link goes to, or None.
    """

    beside: str
    previous: Optional[str] = None
    next: Optional[str] = None


def nav_title(text: str) -> str:
    """A title as MkDocs expects it: HTML text (``Fam</title>`` -> ``Fam&lt;/title&gt;``), on one line.

    Runs of whitespace (newlines included) become one blank.
    """
    return html.escape(" ".join(str(text).split()), quote=True)


def page_url(path: str) -> str:
    """The URL path of a page built with ``use_directory_urls`` (``releases/f/25.07.md`` -> ``releases/f/25.07/``,
    ``families/f/index.md`` -> ``families/f/``, ``index.md`` -> ``""``)."""
    stem = path[:-3] if path.endswith(".md") else path
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] == "index":
        parts = parts[:-1]
    return "".join(p + "/" for p in parts)


def url_depth(path: str) -> int:
    """Number of directory levels of a page's URL (``releases/f/25.07.md`` -> 3, ``index.md`` -> 0)."""
    stem = path[:-3] if path.endswith(".md") else path
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] == "index":
        parts = parts[:-1]
    return len(parts)


class SiteMap:
    """All pages by id plus the navigation tree.

    ``href`` gives the relative Markdown link between two pages, which MkDocs
    validates (``--strict``) and turns into a URL.
    """

    def __init__(self) -> None:
        self.pages: dict[str, PageSpec] = {}
        self.nav: list[Union[NavSection, str]] = []
        #: page id -> placement of a page the navigation does not list
        self.placements: dict[str, Placement] = {}

    def add(self, page: PageSpec) -> PageSpec:
        """Register a page.

        Raises:
            ValueError: on a duplicate id or path.
        """
        if page.id in self.pages:
            raise ValueError(f"duplicate page id {page.id!r}")
        if any(p.path == page.path for p in self.pages.values()):
            raise ValueError(f"duplicate page path {page.path!r}")
        self.pages[page.id] = page
        return page

    def href(self, from_id: str, to_id: str, anchor: Optional[str] = None) -> str:
        """Relative Markdown link from one page to another (``../../matrix.md#x``).

        Raises:
            KeyError: for an unknown page id.
        """
        source = self.pages[from_id].path
        target = self.pages[to_id].path
        rel = posixpath.relpath(target, posixpath.dirname(source) or ".")
        return rel + (f"#{anchor}" if anchor else "")

    def url_href(self, from_id: str, to_id: str, anchor: Optional[str] = None) -> str:
        """Relative URL from one built page to another (``../../../components/vllm/#x``), for raw HTML.

        MkDocs turns :meth:`href` links in Markdown into such URLs; it leaves
        links in raw HTML blocks (the large generated tables, which skip
        Markdown's inline processing) as written, so those are computed here,
        for the ``use_directory_urls: true`` layout of ``mkdocs.yml``.  A link to
        the page itself is ``./`` (plus the anchor).

        Raises:
            KeyError: for an unknown page id.
        """
        source = page_url(self.pages[from_id].path)
        target = page_url(self.pages[to_id].path)
        rel = posixpath.relpath(target or ".", source or ".")
        rel = "./" if rel == "." else rel + "/"
        return rel + (f"#{anchor}" if anchor else "")

    def mkdocs_nav(self, lang: str) -> list:
        """The MkDocs ``nav`` list for ``lang``: ``[{title: path or [children]}, ...]``.

        Every title is HTML-escaped (``&``, ``<``, ``>``, quotes), because
        MkDocs and the theme print navigation titles as HTML.
        """
        return [self._nav_item(item, lang) for item in self.nav]

    def _nav_item(self, item: Union[NavSection, str], lang: str) -> dict:
        if isinstance(item, NavSection):
            return {nav_title(item.title[lang]): [self._nav_item(child, lang) for child in item.children]}
        page = self.pages[item]
        return {nav_title(page.title[lang]): page.path}

    def mkdocs_placements(self) -> dict[str, tuple[str, Optional[str], Optional[str]]]:
        """Placements by docs path: ``{path: (path beside, previous path or None, next path or None)}``.

        Raises:
            KeyError: for a placement naming an unknown page id.
        """
        def path(page_id: Optional[str]) -> Optional[str]:
            return None if page_id is None else self.pages[page_id].path

        return {self.pages[page_id].path: (path(p.beside), path(p.previous), path(p.next))
                for page_id, p in self.placements.items()}
