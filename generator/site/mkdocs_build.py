"""Running MkDocs (Material) for one language, strictly and reproducibly.

``mkdocs.yml`` is the base configuration (English); ``mkdocs.zh.yml``
inherits it (``INHERIT``) and overrides the language keys.  This module
loads the right file, points it at the rendered Markdown and the output
folder, sets the navigation from the page-id spec, and builds with
``strict``: any MkDocs warning (broken link, missing anchor, ...) fails the
build and is reported.

Reproducibility: MkDocs stamps ``sitemap.xml`` (``lastmod``) and the gzip
header of ``sitemap.xml.gz`` with the build time unless ``SOURCE_DATE_EPOCH``
is set; :func:`build_language` sets it to a value derived from the data (see
:func:`lingjun.generator.site.build.source_date_epoch`), so the same input
gives byte-identical output.

Site URL: :func:`build_language` sets ``site_url`` for the language (the
Chinese site at ``<site_url>zh/``, never the inherited English value) and
``extra.lingjun_language_roots`` (every language's root URL) for the
sitemap, which is rendered from ``theme/partials/lj-sitemap.html`` (listing
each page with its other-language page) instead of MkDocs' own template.  Without a site URL the error page (``404.html``, served at
any depth) of a non-English site still links into that site: its base is
``/<lang>/``, not MkDocs' default ``/``.

Pages outside the navigation: the ``nav`` lists each family once, not its
releases (``not_in_nav`` in ``mkdocs.yml`` says so to MkDocs' strict
check).  :func:`build_language` takes their placements
(:meth:`~lingjun.generator.site.nav.SiteMap.mkdocs_placements`) and, before
any page is rendered, makes each such page a child of its family's section
(MkDocs marks a page's parents active, so Material opens that section as
where the reader is) and sets its footer neighbours (``previous_page`` /
``next_page``, which Material's footer and the ``<link rel=prev/next>`` of
``theme/main.html`` read) to the older and newer release.
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from pathlib import Path
import re
import secrets
from typing import Any, Iterator, Mapping, Optional

from lingjun.generator._interrupt import raise_if_interrupted
from lingjun.generator.site._search_worker_fix import search_worker_fix
from lingjun.generator.site._template_cache import TEMPLATE_CACHE
from lingjun.generator.site.site_url import language_site_url
from lingjun.generator.site.strings import STRINGS

__all__ = ["MkDocsBuildError", "CONFIG_FILES", "build_language", "find_config_dir", "error_page_words", "prepare_jieba"]

#: configuration file of each language, relative to the configuration folder
CONFIG_FILES = {"en": "mkdocs.yml", "zh": "mkdocs.zh.yml"}


class MkDocsBuildError(RuntimeError):
    """MkDocs failed or warned in strict mode; ``messages`` holds what it logged."""

    def __init__(self, lang: str, messages: list[str]) -> None:
        self.lang = lang
        self.messages = messages
        super().__init__(f"mkdocs build ({lang}) failed:\n" + "\n".join(messages))

    def __reduce__(self):
        # rebuilt with its language and messages when it comes back from the process that built a language
        return (MkDocsBuildError, (self.lang, self.messages))


def find_config_dir(start: Path | None = None) -> Path:
    """The folder holding ``mkdocs.yml``: ``start`` (default: the working folder) or the repository.

    Raises:
        FileNotFoundError: when neither has ``mkdocs.yml`` and ``mkdocs.zh.yml``.
    """
    candidates = [Path(start) if start else Path.cwd(), Path(__file__).resolve().parents[2]]
    for folder in candidates:
        if all((folder / name).is_file() for name in CONFIG_FILES.values()):
            return folder
    raise FileNotFoundError("mkdocs.yml and mkdocs.zh.yml not found in " + " or ".join(str(c) for c in candidates))


#: jieba's main dictionary as first loaded: ``(FREQ copy, total)``, see :func:`prepare_jieba`
_JIEBA_PRISTINE: Optional[tuple[dict, int]] = None


def prepare_jieba() -> None:
    """Load jieba's main dictionary in this process now, or give jieba's global tokenizer back its main dictionary
    only.

    Both languages' search indexes segment with jieba, and the search plugin adds the user dictionary to jieba's
    process-wide tokenizer on every build (``load_userdict`` also grows the frequency total each time).  Without
    this, a second build in the same process, or a build after one of other records, would segment Chinese text
    differently and the search index would not be byte-identical.  The Chinese build calls it first; a build
    that forks the English builder calls it before the fork, so that the forked process starts from the
    dictionary this one loaded instead of loading its own (about a second of CPU).  Costs one dictionary copy
    (tens of milliseconds) after the first load; does nothing where jieba is not installed.
    """
    global _JIEBA_PRISTINE
    try:
        import jieba  # optional: absent on some platforms
    except ImportError:  # pragma: no cover - a dependency of the site
        return
    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.dt
    if _JIEBA_PRISTINE is None:
        tokenizer.initialized = False  # drop anything loaded before the first site build
        tokenizer.initialize()
        _JIEBA_PRISTINE = (dict(tokenizer.FREQ), tokenizer.total)
        return
    tokenizer.FREQ = dict(_JIEBA_PRISTINE[0])
    tokenizer.total = _JIEBA_PRISTINE[1]
    tokenizer.user_word_tag_tab = {}


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


#: theme template rendered as ``sitemap.xml`` (under ``partials/`` so it is packaged with the other HTML templates)
SITEMAP_TEMPLATE = "partials/lj-sitemap.html"


def _sitemap_template(name: str) -> Any:
    """A MkDocs plugin making the theme's ``sitemap.xml`` template the template ``name``."""
    from jinja2 import ChoiceLoader, FunctionLoader  # deferred: pulls in jinja2, which other commands do not need
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    class SitemapTemplate(BasePlugin):
        def on_env(self, env, config, files):
            inner = env.loader

            def load(template: str):
                return inner.get_source(env, name) if template == "sitemap.xml" else None

            env.loader = ChoiceLoader([FunctionLoader(load), inner])
            return env

    return SitemapTemplate()


def _template_cache() -> Any:
    """A MkDocs plugin giving the theme's Jinja2 environment the process-wide cache of compiled templates
    (:data:`lingjun.generator.site._template_cache.TEMPLATE_CACHE`): MkDocs makes a new environment for every
    build and language, which compiled every theme template again."""
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    class TemplateCache(BasePlugin):
        def on_env(self, env, config, files):
            env.bytecode_cache = TEMPLATE_CACHE
            return env

    return TemplateCache()


def _error_page_base(base: str) -> Any:
    """A MkDocs plugin giving error pages (``404.html``) the base URL ``base`` (``/zh/``).

    MkDocs renders error pages with absolute links, rooted at ``site_url``'s
    path or, without one, at ``/``: the Chinese 404 page would link to the
    English pages and search index.
    """
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need
    from mkdocs.utils import is_error_template, normalize_url  # deferred: pulls in mkdocs, which other commands do not need

    class ErrorPageBase(BasePlugin):
        def on_template_context(self, context, template_name, config):
            if is_error_template(template_name):
                context["base_url"] = base
                context["extra_css"] = [normalize_url(path, None, base) for path in config.extra_css]
                context["extra_javascript"] = [normalize_url(str(s), None, base) for s in config.extra_javascript]
            return context

    return ErrorPageBase()


def _raw_tables() -> Any:
    """A MkDocs plugin passing the generated pages' raw HTML tables around Markdown.

    The templates write their big tables as raw HTML (every value escaped by
    the same filters as Markdown text): a line ``<table>`` up to a line
    ``</table>``, outside fenced code.  Python-Markdown would parse each such
    block with its HTML parser only to hand it on unchanged, most of a page's
    build time; this plugin takes the blocks out of the page's Markdown
    (``on_page_markdown``), leaving an HTML comment holding a per-build random
    key and number on a line of its own, and puts them back, unchanged, in
    place of the comment in the page's HTML (``on_page_content``), before the
    search plugin reads the page (``on_page_context``).
    """

    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    key = secrets.token_hex(8)
    token = re.compile(rf"<!--lj-raw-{key}-(\d+)-->")

    class RawTables(BasePlugin):
        def __init__(self) -> None:
            self.blocks: dict[str, list[str]] = {}

        def on_page_markdown(self, markdown, page, config, files):
            if "\n<table>\n" not in markdown and not markdown.startswith("<table>\n"):
                return markdown
            blocks: list[str] = []
            out: list[str] = []
            fence: Optional[str] = None
            table: Optional[list[str]] = None
            for line in markdown.split("\n"):
                if table is not None:
                    table.append(line)
                    if line == "</table>":
                        out.append(f"<!--lj-raw-{key}-{len(blocks)}-->")
                        blocks.append("\n".join(table))
                        table = None
                    continue
                stripped = line.lstrip()
                if fence is not None:
                    if stripped.startswith(fence):
                        fence = None
                elif stripped.startswith(("```", "~~~")):
                    fence = stripped[:3]
                elif line == "<table>":
                    table = [line]
                    continue
                out.append(line)
            if table is not None:  # no closing line: leave the rest to Markdown as it was
                out.extend(table)
            self.blocks[page.file.src_uri] = blocks
            return "\n".join(out)

        def on_page_content(self, html, page, config, files):
            blocks = self.blocks.pop(page.file.src_uri, None)
            if not blocks:
                return html
            return token.sub(lambda match: blocks[int(match.group(1))], html)

    return RawTables()


#: the words of the error page (``theme/404.html``), keys of :data:`~lingjun.generator.site.strings.STRINGS`
ERROR_PAGE_WORDS = ("title", "body", "home", "search")


def error_page_words(lang: str) -> dict[str, str]:
    """``{"title", "body", "home", "search"}``: the error page's words in ``lang`` (``error.*`` strings)."""
    return {word: STRINGS[f"error.{word}"][lang] for word in ERROR_PAGE_WORDS}


def _placements(placements: Mapping[str, tuple[str, Optional[str], Optional[str]]]) -> Any:
    """A MkDocs plugin placing pages the navigation does not list (see the module docstring).

    ``placements`` maps a docs path to ``(path of a navigation page whose
    section is the page's parent, previous page's path or None, next page's
    path or None)``.
    """
    from mkdocs.exceptions import MkDocsException  # deferred: pulls in mkdocs, which other commands do not need
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    class Placements(BasePlugin):
        def on_nav(self, nav, config, files):
            def page(path: Optional[str]):
                if path is None:
                    return None
                found = files.get_file_from_path(path)
                if found is None or found.page is None:
                    raise MkDocsException(f"placement: no page {path!r} in the docs folder")
                return found.page

            for path, (beside, previous, following) in placements.items():
                placed = page(path)
                placed.parent = page(beside).parent
                placed.previous_page = page(previous)
                placed.next_page = page(following)
            return nav

    return Placements()


@contextmanager
def _environ(name: str, value: str) -> Iterator[None]:
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def _interrupt_checkpoint() -> Any:
    """A MkDocs plugin that stops the build before each page when Ctrl-C was pressed
    (:func:`lingjun.generator._interrupt.at_checkpoints`)."""
    from mkdocs.plugins import BasePlugin  # deferred: pulls in mkdocs, which other commands do not need

    class InterruptCheckpoint(BasePlugin):
        def on_page_markdown(self, markdown, **kwargs):
            raise_if_interrupted()
            return markdown

        def on_post_build(self, **kwargs):
            raise_if_interrupted()

    return InterruptCheckpoint()


def build_language(
    lang: str,
    config_dir: Path,
    docs_dir: Path,
    site_dir: Path,
    nav: list,
    jieba_dict: Path,
    epoch: int,
    site_url: Optional[str] = None,
    placements: Optional[Mapping[str, tuple[str, Optional[str], Optional[str]]]] = None,
) -> None:
    """Build one language with MkDocs.

    Args:
        lang: ``"en"`` or ``"zh"``.
        config_dir: folder holding ``mkdocs.yml`` and ``mkdocs.zh.yml``.
        docs_dir: rendered Markdown of this language.
        site_dir: output folder (emptied by MkDocs first).
        nav: MkDocs nav for this language (from :meth:`SiteMap.mkdocs_nav`).
        jieba_dict: the generated jieba user dictionary.
        epoch: value for ``SOURCE_DATE_EPOCH``.
        site_url: public URL of the English site (ending in ``/``) or None (relative links only).
        placements: pages outside ``nav`` by docs path (from
            :meth:`SiteMap.mkdocs_placements`): ``(path beside, previous path, next path)``.

    Raises:
        MkDocsBuildError: on any error or, strict, any warning.
    """
    from mkdocs.commands.build import build  # deferred: pulls in mkdocs, which other commands do not need
    from mkdocs.config import load_config  # deferred: pulls in mkdocs, which other commands do not need
    from mkdocs.exceptions import MkDocsException  # deferred: pulls in mkdocs, which other commands do not need

    if lang == "zh":  # only the Chinese search index segments with jieba
        prepare_jieba()
    collector = _Collector()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(collector)
    try:
        with _environ("SOURCE_DATE_EPOCH", str(epoch)):
            config = load_config(
                config_file=str(config_dir / CONFIG_FILES[lang]),
                docs_dir=str(docs_dir),
                site_dir=str(site_dir),
                nav=nav,
                strict=True,
            )
            # jieba (imported by the search plugin above) logs its dictionary loading at DEBUG
            logging.getLogger("jieba").setLevel(logging.WARNING)
            config.site_url = language_site_url(site_url, lang)
            config.extra["lingjun_language_roots"] = (
                {code: language_site_url(site_url, code) for code in CONFIG_FILES} if site_url else None)
            config.extra["lingjun_error"] = error_page_words(lang)
            config.plugins["lingjun-sitemap"] = _sitemap_template(SITEMAP_TEMPLATE)
            config.plugins["lingjun-template-cache"] = _template_cache()
            config.plugins["lingjun-raw-tables"] = _raw_tables()
            config.plugins["lingjun-search-worker-fix"] = search_worker_fix()  # lunr's numeric-term bug, see the module
            config.plugins["lingjun-interrupt"] = _interrupt_checkpoint()  # Ctrl-C stops the build between pages
            if placements:
                config.plugins["lingjun-placements"] = _placements(placements)
            if site_url is None and lang != "en":
                config.plugins["lingjun-error-page-base"] = _error_page_base(f"/{lang}/")
            for name, plugin in config.plugins.items():
                if name.endswith("search") and hasattr(plugin.config, "jieba_dict_user"):
                    plugin.config.jieba_dict_user = str(jieba_dict)
            build(config)
    except MkDocsException as exc:
        raise MkDocsBuildError(lang, collector.messages or [str(exc)]) from None
    finally:
        logger.removeHandler(collector)
    if collector.messages:
        raise MkDocsBuildError(lang, collector.messages)
