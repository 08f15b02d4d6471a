"""The site's fixed pages and navigation sections, declared in one place.

Adding a page to the site is one :class:`Page` entry in :data:`SITE` plus
its template (``templates/<name>.md.j2``) or, for a hand-written page, its
two Markdown files ``docs/en/<path>`` and ``docs/zh/<path>``.  Everything
else is derived from :data:`SITE`:

* the page map (:func:`static_pages`, used by :mod:`.model`);
* the navigation tree of both languages (:func:`navigation`): pages and
  sections appear in the order they are declared here; a page inside a
  :class:`Section` is listed in that section;
* the interface strings ``page.<id>`` (``-`` written ``_``) that templates
  use to name a page in a link (:func:`title_strings`, merged into
  :data:`.strings.STRINGS`).

Pages that exist once per record (families, releases, components) are made
by :mod:`.model`, which passes them to :func:`navigation` as the dynamic
children of their section (``releases``, ``components``).

Example: a generated page, written to the pages of ``Section("tables", ...)``
(the "Compatibility" section) below, with one variable of its own::

    Page("glossary", "glossary.md", _t("Glossary", "术语表"), "glossary.md.j2",
         context=lambda site, page: {"terms": sorted(site.kb.components)}),

Templates link to it with ``link("glossary")`` and name it with
``t("page.glossary")``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence, Union

from lingjun.generator.site.nav import NavSection, PageSpec

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.generator.site.model import SiteModel

__all__ = ["Page", "Section", "SITE", "static_pages", "navigation", "title_strings", "title_key"]

#: ``context(site, page) -> extra template variables`` of one page
ContextBuilder = Callable[["SiteModel", PageSpec], Mapping[str, Any]]


@dataclass(frozen=True)
class Page:
    """One fixed page of the site.

    Attributes:
        id: stable page id, the target of ``link(id)`` in templates.
        path: docs-relative Markdown path, the same in both languages (``checker/rules.md``).
        title: ``{"en": ..., "zh": ...}``, the navigation title.
        template: Jinja2 template in ``templates/``; None for a hand-written page
            copied from ``docs/<lang>/<path>`` (the build fails when one language lacks it).
        link_title: the ``page.<id>`` string when a link or heading names the page
            differently from the navigation (default: ``title``).
        context: ``context(site, page)`` returning extra template variables
            (the common ones are ``site``, ``kb``, ``lang``, ``t``, ``link``, ...).
    """

    id: str
    path: str
    title: Mapping[str, str]
    template: Optional[str] = None
    link_title: Optional[Mapping[str, str]] = None
    context: Optional[ContextBuilder] = field(default=None, compare=False)

    def spec(self) -> PageSpec:
        """The :class:`~.nav.PageSpec` of this page."""
        return PageSpec(self.id, self.path, dict(self.title), self.template, self.context)


@dataclass(frozen=True)
class Section:
    """A navigation section: its fixed pages, in order; :mod:`.model` may append per-record children."""

    id: str
    title: Mapping[str, str]
    pages: tuple[Page, ...] = ()


def _t(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh": zh}


#: the fixed pages and the sections of the navigation, in navigation order
SITE: tuple[Union[Page, Section], ...] = (
    Page("home", "index.md", _t("Home", "首页"), "home.md.j2"),
    Page("introduction", "introduction.md", _t("Introduction", "简介")),
    Page("reading", "reading-a-record.md", _t("How to read a record", "如何阅读版本记录")),
    Page("reading-verdicts", "reading-verdicts.md", _t("Not stated, not recorded, skipped", "未说明、未记录与跳过")),
    # one sub-section per family (family page, then its releases), from the model
    Section("releases", _t("Releases", "版本")),
    Section("tables", _t("Compatibility", "兼容性"), (
        Page("finder", "finder.md", _t("Compatibility finder", "兼容性查询"), "finder.md.j2",
             context=lambda site, page: _finder_context(site, page)),
        Page("matrix", "matrix.md", _t("Support matrix", "支持矩阵"), "matrix.md.j2"),
        Page("drivers", "drivers.md", _t("Driver compatibility", "驱动兼容性"), "drivers.md.j2"),
        Page("changes", "changes.md", _t("What changed", "版本变更"), "changes.md.j2"),
        Page("compare", "compare.md", _t("Compare two releases", "比较任意两个版本"), "compare.md.j2"),
        Page("known-issues", "known-issues.md", _t("Known issues", "已知问题"), "known_issues.md.j2"),
    )),
    # followed by one page per catalog component, from the model
    Section("components", _t("Components", "组件"), (
        Page("components", "components/index.md", _t("All components", "全部组件"), "components.md.j2",
             link_title=_t("Components", "组件")),
    )),
    # followed by the error catalogs' pages the knowledge base has a catalog for (troubleshooting/xid/, cuda-errors/,
    # nccl-warnings/: error_catalogs.CATALOG_PAGES), then one page per printer that has error signatures
    # (troubleshooting/<printer>/), from the model
    Section("troubleshooting", _t("Troubleshooting", "故障排查"), (
        Page("troubleshooting", "troubleshooting/index.md", _t("Error messages", "错误信息"), "troubleshooting.md.j2",
             link_title=_t("Troubleshooting", "故障排查")),
    )),
    Section("checker", _t("Checker", "检查工具"), (
        Page("checker", "checker/index.md", _t("Checker guide", "检查工具指南")),
        Page("checker-rules", "checker/rules.md", _t("Checker rules", "检查规则"), "checker_rules.md.j2"),
        Page("checker-fleet", "checker/fleet.md", _t("Across a cluster", "在整个集群上运行")),
        Page("checker-at-scale", "checker/at-scale.md", _t("Results at fleet scale", "大规模集群的结果流转")),
        Page("data-gate", "checker/data-gate.md", _t("Data gate output", "数据校验输出格式")),
    )),
    Page("contributing", "contributing.md", _t("Contributing", "参与贡献")),
)


def _finder_context(site: "SiteModel", page: PageSpec) -> Mapping[str, Any]:
    from lingjun.generator.site.finder_page import finder_context  # deferred: pulls in pydantic, which other commands do not need

    return finder_context(site, page)


def _all_pages() -> list[Page]:
    pages: list[Page] = []
    for entry in SITE:
        pages.extend(entry.pages if isinstance(entry, Section) else (entry,))
    return pages


def static_pages() -> list[PageSpec]:
    """The :class:`~.nav.PageSpec` of every page declared in :data:`SITE`, in declaration order."""
    return [page.spec() for page in _all_pages()]


def title_key(page_id: str) -> str:
    """The interface-string key naming a page: ``page.<id>`` with ``-`` as ``_`` (``page.known_issues``)."""
    return "page." + page_id.replace("-", "_")


def title_strings() -> dict[str, tuple[str, str]]:
    """``{title_key(id): (en, zh)}`` for every declared page (its ``link_title``, else its ``title``)."""
    found: dict[str, tuple[str, str]] = {}
    for page in _all_pages():
        title = page.link_title or page.title
        found[title_key(page.id)] = (title["en"], title["zh"])
    return found


def navigation(dynamic: Optional[Mapping[str, Sequence[Union[NavSection, str]]]] = None) -> list[Union[NavSection, str]]:
    """The navigation tree: :data:`SITE` in order, each section's fixed pages then ``dynamic[section id]``.

    Sections get the navigation id ``nav:<id>``.

    Raises:
        KeyError: when ``dynamic`` names a section that :data:`SITE` does not declare.
    """
    dynamic = dict(dynamic or {})
    tree: list[Union[NavSection, str]] = []
    for entry in SITE:
        if isinstance(entry, Section):
            children: list[Union[NavSection, str]] = [page.id for page in entry.pages]
            children.extend(dynamic.pop(entry.id, ()))
            tree.append(NavSection(f"nav:{entry.id}", dict(entry.title), children))
        else:
            tree.append(entry.id)
    if dynamic:
        raise KeyError(f"no navigation section {sorted(dynamic)!r} in pages.SITE")
    return tree
