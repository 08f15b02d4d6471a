"""The site's pages and navigation, keyed by page id for both languages.

One spec serves both builds: every page has an id (``home``,
``release:training-nv-pytorch:25.07``), one docs path (the same in
``.build/en`` and ``.build/zh``) and a title per language.  The MkDocs
``nav`` of each language is produced from this spec; translated titles are
never used as keys.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Mapping, Optional, Union

__all__ = ["LANGUAGES", "PageSpec", "NavSection", "SiteMap", "url_depth", "STATIC_PAGES"]

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
    """

    id: str
    path: str
    title: Mapping[str, str]
    template: Optional[str] = None


@dataclass
class NavSection:
    """A navigation section: an id, a title per language and children (page ids or sections)."""

    id: str
    title: Mapping[str, str]
    children: list[Union["NavSection", str]] = field(default_factory=list)


def _t(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh": zh}


#: pages whose path and title do not depend on the data
STATIC_PAGES: tuple[PageSpec, ...] = (
    PageSpec("home", "index.md", _t("Home", "首页"), "home.md.j2"),
    PageSpec("introduction", "introduction.md", _t("Introduction", "简介")),
    PageSpec("reading", "reading-a-record.md", _t("How to read a record", "如何阅读版本记录")),
    PageSpec("matrix", "matrix.md", _t("Support matrix", "支持矩阵"), "matrix.md.j2"),
    PageSpec("changes", "changes.md", _t("What changed", "版本变更"), "changes.md.j2"),
    PageSpec("compare", "compare.md", _t("Compare two releases", "比较任意两个版本"), "compare.md.j2"),
    PageSpec("known-issues", "known-issues.md", _t("Known issues", "已知问题"), "known_issues.md.j2"),
    PageSpec("drivers", "drivers.md", _t("Driver compatibility", "驱动兼容性"), "drivers.md.j2"),
    PageSpec("components", "components/index.md", _t("All components", "全部组件"), "components.md.j2"),
    PageSpec("checker", "checker/index.md", _t("Checker guide", "检查工具指南")),
    PageSpec("checker-rules", "checker/rules.md", _t("Checker rules", "检查规则"), "checker_rules.md.j2"),
    PageSpec("data-gate", "checker/data-gate.md", _t("Data gate output", "数据校验输出格式")),
)


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

    def mkdocs_nav(self, lang: str) -> list:
        """The MkDocs ``nav`` list for ``lang``."""
        return [self._nav_item(item, lang) for item in self.nav]

    def _nav_item(self, item: Union[NavSection, str], lang: str) -> dict:
        if isinstance(item, NavSection):
            return {item.title[lang]: [self._nav_item(child, lang) for child in item.children]}
        page = self.pages[item]
        return {page.title[lang]: page.path}
