"""Rendering the site model to Markdown for one language, with Jinja2.

Autoescape is on with :func:`escape.finalize` as the ``finalize`` hook, so
every printed value is Markdown- and HTML-escaped unless a filter made it
safe (a Markup); macros return Markup and are not escaped twice.  Jinja's
``~`` and ``format`` only HTML-escape, so templates never use them on record
data, and ``join`` is replaced by a Markdown-escaping one.
``StrictUndefined`` makes a misspelt variable fail the build instead of
printing nothing.  Templates live in ``templates/`` next to this module.
"""

from __future__ import annotations

import json
import re
import posixpath
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from markupsafe import Markup

from lingjun.schema.models import LocalizedText

from lingjun.generator.site import escape
from lingjun.generator.site._template_cache import TEMPLATE_CACHE
from lingjun.generator.site.checker_rules import checker_rules, rule_anchor, rule_areas
from lingjun.generator.site.driver_matrix import Compat
from lingjun.generator.site.gpu_support import gpu_support_line
from lingjun.generator.site.model import MATRIX_COLUMNS, SiteModel, component_page_id, family_page_id, release_page_id
from lingjun.generator.site.nav import PageSpec, nav_title, url_depth
from lingjun.generator.site.strings import translate, vendor_name
from lingjun.generator.site.upstream import upstream_link

__all__ = ["TEMPLATE_DIR", "make_environment", "compile_templates", "render_pages"]

TEMPLATE_DIR = Path(__file__).parent / "templates"


def _localize(lang: str) -> Callable[[Any], Optional[str]]:
    def loc(value: Any) -> Optional[str]:
        if value is None:
            return None
        if isinstance(value, LocalizedText):
            return getattr(value, lang)
        if isinstance(value, dict):
            return value[lang]
        return str(value)

    return loc


def _join(values: Any, separator: str = ", ") -> Markup:
    """``join`` that escapes each item for Markdown (Jinja's own only HTML-escapes).

    The separator is escaped too, keeping its surrounding blanks (``", "``).
    """
    core = separator.strip()
    sep = separator.replace(core, str(escape.md_text(core)), 1) if core else separator
    return Markup(sep).join(escape.finalize(v) for v in values)


def _join_title(parts: Any) -> Markup:
    """Front-matter title: the parts joined by a space, HTML-escaped (MkDocs prints a title as HTML),
    as a JSON (hence YAML) string; every character outside ASCII is a ``\\u`` escape, so no line
    separator can end the YAML line."""
    return Markup(json.dumps(nav_title(" ".join(str(p) for p in parts)), ensure_ascii=True))


#: a blank after full-width punctuation (Chinese pages): "说明： R575" -> "说明：R575"
_BLANK_AFTER_FULLWIDTH = re.compile(r"(?<=[：，。；、）])[ \t]+(?=[^\s{])")


def tidy_chinese(text: str) -> str:
    """Drop blanks that follow full-width punctuation (they come from joining template pieces).

    Only ASCII blanks directly after ``：，。；、）`` and before more text on the
    same line are removed, never before ``{`` (a heading's ``{ #anchor }``
    needs its blank); line structure (tables, lists, code) is unchanged.
    """
    return _BLANK_AFTER_FULLWIDTH.sub("", text)


def make_environment() -> Environment:
    """The Jinja2 environment with the escaping filters.

    Filters: ``md`` (inline text), ``cell`` (table cell, em dash when empty),
    ``prose`` (prose on one line), ``block(indent)`` (prose as blocks),
    ``url`` (http(s) link target), ``href`` (http(s) link target in raw HTML), ``attr`` (HTML attribute), ``html_id`` (an id printed exactly, refused unless safe), ``code``
    (fenced code block), ``json_script`` (JSON inside a script element).
    """
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=True,
        finalize=escape.finalize,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=TEMPLATE_CACHE,  # templates compiled once per process, not once per build (see the module)
    )
    env.filters.update(
        join=_join,
        join_title=_join_title,
        md=escape.md_text,
        cell=escape.md_cell,
        prose=escape.md_prose_inline,
        block=escape.md_prose_block,
        url=escape.md_url,
        href=escape.html_url,
        attr=escape.html_attr,
        html_id=escape.html_id,
        code=escape.code_block,
        json_script=escape.json_for_script,
    )
    env.globals.update(
        checker_rules=checker_rules,
        rule_areas=rule_areas,
        MATRIX_COLUMNS=MATRIX_COLUMNS,
        COMPAT_KINDS=tuple(c.value for c in Compat),
        rule_anchor=rule_anchor,
        release_page_id=release_page_id,
        family_page_id=family_page_id,
        component_page_id=component_page_id,
        gpu_support_line=gpu_support_line,
    )
    return env


def compile_templates(env: Environment) -> None:
    """Compile every Markdown template of ``env`` now (into the process-wide cache of compiled templates,
    :data:`lingjun.generator.site._template_cache.TEMPLATE_CACHE`): a build calls it before forking the English
    builder, which then inherits them compiled instead of compiling them again."""
    for name in env.list_templates():
        env.get_template(name)


@pass_context
def _link(context: Any, page_id: str, anchor: Optional[str] = None) -> Markup:
    """Relative Markdown link target from the page being rendered to another page."""
    site: SiteModel = context["site"]
    return Markup(site.sitemap.href(context["page"].id, page_id, anchor))


@pass_context
def _html_link(context: Any, page_id: str, anchor: Optional[str] = None) -> Markup:
    """Relative URL from the page being rendered to another page, for a link in raw HTML.

    The large tables are written as raw HTML (Markdown passes them through
    without inline processing, which dominated the build time); MkDocs does
    not rewrite or check links there, so the built page's URL is computed
    (:meth:`~lingjun.generator.site.nav.SiteMap.url_href`); tests check that
    every such link resolves to a built page.
    """
    site: SiteModel = context["site"]
    return Markup(escape.html_attr(site.sitemap.url_href(context["page"].id, page_id, anchor)))


@pass_context
def _root_href(context: Any, path: str) -> Markup:
    """A raw-HTML href from the current page to a file at the root of the English site.

    Used for the machine-readable files (``api/v1/...``), which exist once
    for both languages; MkDocs does not rewrite raw HTML links, so the
    relative path is computed here.
    """
    page: PageSpec = context["page"]
    depth = url_depth(page.path) + (1 if context["lang"] == "zh" else 0)
    return Markup(escape.html_attr(posixpath.join(*([".."] * depth), path) if depth else path))


#: interface strings that are punctuation with their blanks (", " / "、", ": " / "："):
#: printed as they are, since the escaping filters would strip the blanks
PUNCTUATION_KEYS = frozenset({"list_sep", "colon", "clause_sep", "paren_open", "paren_close", "sentence_end"})


def _translate_markup(lang: str) -> Callable[[str], Any]:
    """:func:`translate` whose punctuation strings (:data:`PUNCTUATION_KEYS`) are Markup."""
    plain = translate(lang)

    def t(key: str) -> Any:
        text = plain(key)
        return Markup(text) if key in PUNCTUATION_KEYS else text

    return t


def render_pages(site: SiteModel, lang: str, env: Optional[Environment] = None) -> Iterator[tuple[PageSpec, str]]:
    """Yield ``(page, markdown)`` for every generated page in ``lang``.

    Raises:
        jinja2.TemplateError: on a template bug (undefined variable, ...).
    """
    env = env or make_environment()
    t = _translate_markup(lang)
    common = {
        "site": site,
        "kb": site.kb,
        "lang": lang,
        "t": t,
        "loc": _localize(lang),
        "vendor_name": lambda vendor: vendor_name(vendor, lang),
        "link": _link,
        "html_link": _html_link,
        "root_href": _root_href,
        "upstream": upstream_link,
        "usage_by_rule": site.usage_by_rule,
    }
    templates: dict[str, Any] = {}
    for page in site.sitemap.pages.values():
        if page.template is None:
            continue
        template = templates.get(page.template)
        if template is None:
            template = templates[page.template] = env.get_template(page.template)
        context = dict(common, page=page)
        if page.context is not None:
            context.update(page.context(site, page))
        text = template.render(context)
        yield page, tidy_chinese(text) if lang == "zh" else text
