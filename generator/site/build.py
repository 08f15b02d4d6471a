"""``lingjun-kb build``: records -> Markdown (en, zh) -> MkDocs -> ``site/``.

Stages, each timed (:class:`BuildTimings`): *validate* (load the records and
run the data gate), *render* (site model and Jinja2 Markdown for both
languages, hand-written pages, JSON API, feeds, jieba dictionary) and
*mkdocs* (one strict MkDocs build per language; the two at once where
processes can be forked: English in a child process, Chinese in this one, each
language then rendering its own Markdown in its process; *render* then counts
the shared part and the Chinese pages; English renders meanwhile, inside *mkdocs*).

Safety: the site folder is checked before anything is done
(:func:`lingjun.generator.site._site_dir.check_site_dir`: absent, or a site a
previous build made, never the checkout, a source folder, a link, a file or a
device).  The site is built into a temporary folder next to the target,
marked as a built site, and swapped in with renames only when both languages
built (a parallel build makes the Chinese site in a second new work folder,
moved under the first when both are done); a failed or interrupted build leaves the previous site untouched, and
work folders of killed builds are removed by the next one.  Generated
Markdown goes to a build folder (default ``.build/``, git-ignored); builds
sharing it run one at a time.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import threading
import time
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
import ctypes
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
import signal
from typing import Any, Optional, Union

from lingjun.schema.gate.validate import validate
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.problems import Problem

from lingjun.generator._interrupt import at_checkpoints, deferred, raise_if_interrupted
from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.generator.site._remove_tree import remove_tree
from lingjun.generator.site.api import atom_feed, write_api
from lingjun.generator.site._glossary import user_dictionary_text
from lingjun.generator.site._site_dir import (SiteDirRefused, check_site_dir, exclusive, make_work_folder, mark_site,
                                              protected_folders, remove_stale_work_folders, same_folder)
from lingjun.generator.site.mkdocs_build import MkDocsBuildError, build_language, find_config_dir, prepare_jieba
from lingjun.generator.site.model import SiteModel, build_site_model
from lingjun.generator.site.nav import LANGUAGES
from lingjun.generator.site.render import compile_templates, make_environment, render_pages
from lingjun.generator.site.site_url import language_site_url, site_url_from_config

__all__ = [
    "ValidationFailed",
    "SiteDirRefused",
    "BuildTimings",
    "load_validated",
    "render_markdown",
    "build_site",
    "source_date_epoch",
    "HAND_WRITTEN_DIR",
]

#: hand-written pages, ``docs/<lang>/`` (relative to the configuration folder)
HAND_WRITTEN_DIR = "docs"


class ValidationFailed(Exception):
    """The records have errors; ``problems`` are the errors (``Problem`` objects)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} error(s) in the release records")


@dataclass
class BuildTimings:
    """Seconds spent per stage and pages rendered (both languages together)."""

    validate: float = 0.0
    render: float = 0.0
    mkdocs: float = 0.0
    pages: int = 0
    extra: dict[str, float] = field(default_factory=dict)


def load_validated(releases: Path) -> KnowledgeBase:
    """Load ``releases`` and run the data gate.

    Runs the gate (:func:`lingjun.schema.gate.validate.validate`: the loader of
    :func:`lingjun.schema.loader.load_knowledge_base` and the cross-record rules).

    Raises:
        ValidationFailed: when any problem has severity ``error``.
        FileNotFoundError: when ``releases`` is not a folder.
    """
    if not Path(releases).is_dir():
        raise FileNotFoundError(f"{releases}: no such folder of release records")
    result = validate([Path(releases)], root=Path(releases), checker_rules=checker_rule_ids())
    kb, problems = result.kb, result.problems
    errors = [p for p in problems if p.is_error]
    if errors:
        raise ValidationFailed(errors)
    return kb


def source_date_epoch(kb: KnowledgeBase) -> int:
    """A build timestamp that depends only on the data: the latest date a record states.

    (The newest ``release_date``, ``recorded`` or ``revised`` of any release, midnight UTC; 2000-01-01 when no
    record states one.  Never a date made up from a ``YY.MM`` version.)
    """
    days = [day for r in kb.releases for day in (r.release_date, r.recorded, r.revised) if day is not None]
    if not days:
        return 946684800
    day = max(days)
    return int(datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp())


def _reset(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


def render_markdown(kb: KnowledgeBase, build_dir: Path, config_dir: Path,
                    site_url: Optional[str] = None) -> tuple[SiteModel, int]:
    """Write every language's Markdown, the API, the feeds and the jieba dictionary under ``build_dir``.

    ``site_url`` (the English root, ending in ``/``) makes the feeds' links absolute.

    Returns:
        ``(site model, number of generated pages in both languages)``.

    Raises:
        FileNotFoundError: when a hand-written page is missing in one language.
    """
    site = build_site_model(kb)
    env = make_environment()
    _render_shared(kb, build_dir)
    count = sum(_render_language(kb, site, env, lang, build_dir, config_dir, site_url) for lang in LANGUAGES)
    return site, count


def _render_shared(kb: KnowledgeBase, build_dir: Path) -> None:
    """Empty every language's Markdown folder, then write the JSON API (under ``en/``) and the jieba dictionary."""
    for lang in LANGUAGES:
        _reset(build_dir / lang)
    write_api(kb, build_dir / "en")
    (build_dir / "jieba-user-dict.txt").write_text(user_dictionary_text(kb), encoding="utf-8")


def _render_language(kb: KnowledgeBase, site: SiteModel, env: Any, lang: str, build_dir: Path, config_dir: Path,
                     site_url: Optional[str]) -> int:
    """Write ``lang``'s generated pages, hand-written pages and feed into ``build_dir/lang`` (emptied by
    :func:`_render_shared`); returns the number of generated pages.

    Raises:
        FileNotFoundError: when a hand-written page is missing in ``lang``.
    """
    out = build_dir / lang
    count = 0
    for page, text in render_pages(site, lang, env):
        target = out / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        count += 1
    hand = config_dir / HAND_WRITTEN_DIR / lang
    for page in site.sitemap.pages.values():
        if page.template is None:
            source = hand / page.path
            if not source.is_file():
                raise FileNotFoundError(f"{source}: hand-written page {page.id!r} is missing in {lang}")
    if hand.is_dir():
        shutil.copytree(hand, out, dirs_exist_ok=True)
    (out / "feed.xml").write_text(atom_feed(kb, lang, base_url=language_site_url(site_url, lang)), encoding="utf-8")
    if site.troubleshooting is not None:  # the search box's exact matcher of pasted error lines (known-errors.js)
        target = out / "troubleshooting" / "patterns.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(site.troubleshooting.search_patterns(lang), ensure_ascii=False, sort_keys=True),
                          encoding="utf-8")
    if site.error_catalogs is not None and site.error_catalogs.present:  # the catalogs' rows for the same box
        target = out / "troubleshooting" / "catalogs.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(site.error_catalogs.search_data(lang), ensure_ascii=False, sort_keys=True,
                                     separators=(",", ":")), encoding="utf-8")
    return count


def build_site(
    releases: Path,
    site_dir: Union[str, Path],
    build_dir: Optional[Path] = None,
    config_dir: Optional[Path] = None,
    kb: Optional[KnowledgeBase] = None,
    site_url: Optional[str] = None,
    parallel: bool = True,
) -> BuildTimings:
    """Validate, render and build the site into ``site_dir``.

    Args:
        releases: the releases folder.
        site_dir: where the finished site goes (replaced atomically-by-rename); absent, or a
            folder a previous build made (see :mod:`lingjun.generator.site._site_dir`).
        build_dir: where the Markdown is rendered (default ``<config_dir>/.build``).
        config_dir: folder with ``mkdocs.yml``, ``mkdocs.zh.yml`` and ``docs/`` (the JSON Schemas
            come from the installed ``lingjun.schema`` package).
        kb: an already validated knowledge base (skips the validate stage).
        site_url: the public URL of the English site (Chinese: ``site_url + "zh/"``), normalized
            (:func:`~lingjun.generator.site.site_url.normalize_site_url`); None: from
            :func:`~lingjun.generator.site.site_url.site_url_from_config` (environment, ``mkdocs.yml``),
            and when neither sets one the site has relative links only and empty sitemaps.
        parallel: build the two languages at once, English in a forked process (see
            :func:`_build_languages_in_parallel`); False, or where processes cannot be forked, one after the other.

    Raises:
        SiteDirRefused: ``site_dir`` may not be written (nothing is written); a ``ValueError``.
        ValidationFailed: the records have errors (nothing is written).
        MkDocsBuildError: MkDocs failed or warned (the previous site is untouched).
        ValueError: the site URL from the environment or ``mkdocs.yml`` is not an http(s) URL.
    """
    timings = BuildTimings()
    config_dir = Path(config_dir) if config_dir else find_config_dir()
    build_dir = Path(build_dir) if build_dir else config_dir / ".build"
    protected = protected_folders(config_dir, Path(releases), build_dir)
    given_site_dir = site_dir
    site_dir = check_site_dir(site_dir, config_dir, protected)  # absolute, ".." resolved
    if site_url is None:
        site_url = site_url_from_config(config_dir)

    start = time.perf_counter()
    if kb is None:
        kb = load_validated(Path(releases))
    timings.validate = time.perf_counter() - start

    # Ctrl-C is remembered and stops the build at its checkpoints (between steps, before every page), never inside a
    # lock's release where it would leave the lock held and hang a forked process (lingjun.generator._interrupt)
    with at_checkpoints(), exclusive(build_dir):  # builds sharing the Markdown folder take turns
        start = time.perf_counter()
        fork = _fork_context() if parallel else None  # decided once: a thread started later changes nothing
        forking = fork is not None
        if forking:  # each language renders its Markdown in the process that builds it (see below)
            site = build_site_model(kb)
            _render_shared(kb, build_dir)
        else:
            site, timings.pages = render_markdown(kb, build_dir, config_dir, site_url)
        timings.render = time.perf_counter() - start
        raise_if_interrupted()

        start = time.perf_counter()
        site_dir.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_work_folders(site_dir)
        epoch = source_date_epoch(kb)
        jieba_dict = (build_dir / "jieba-user-dict.txt").absolute()
        tmp: Optional[Path] = None
        identity = (-1, -1)
        zh_work: Optional[Path] = None
        zh_made = (-1, -1)
        try:
            with deferred():  # a Ctrl-C lands after the folder's name is kept, so the finally removes it
                tmp = make_work_folder(site_dir, "tmp")  # a new folder: a planted link is never followed
                made = os.lstat(tmp)
                identity = (made.st_dev, made.st_ino)
            args = {lang: (lang, config_dir, (build_dir / lang).absolute(), None, site.sitemap.mkdocs_nav(lang), jieba_dict,
                           epoch, site_url) for lang in LANGUAGES}
            placements = site.sitemap.mkdocs_placements()
            # MkDocs empties its output folder first: the Chinese site is built into a work folder of its own
            # (never inside the English one, which MkDocs would be emptying meanwhile in a parallel build) and
            # moved under it once both are checked
            with deferred():
                zh_work = make_work_folder(site_dir, "tmp")
                info = os.lstat(zh_work)
                zh_made = (info.st_dev, info.st_ino)
            targets = {"en": tmp, "zh": zh_work}
            if forking:
                env = make_environment()
                compile_templates(env)  # here, once: the English process inherits them compiled
                render = (kb, site, env, build_dir, config_dir, site_url)
                timings.pages, rendered = _build_languages_in_parallel(args, targets, placements, render, fork)
                timings.render += rendered  # the Chinese rendering, here (English renders at the same time)
                start += rendered
            else:
                for lang in LANGUAGES:
                    build_language(*_with_target(args[lang], targets[lang]), placements=placements)
            if not same_folder(tmp, identity) or not same_folder(zh_work, zh_made):
                raise SiteDirRefused(f"a work folder ({tmp} or {zh_work}) was replaced during the build; "
                                     "nothing was replaced")
            zh_work.rename(tmp / "zh")
            zh_work = None
            mark_site(tmp)
            with exclusive(site_dir.parent):  # builds with other build folders swap one at a time
                if check_site_dir(given_site_dir, config_dir, protected) != site_dir:  # unchanged since the start?
                    raise SiteDirRefused(f"--site-dir {os.fspath(given_site_dir)} names another folder than "
                                         "when the build started; nothing was replaced")
                if not same_folder(tmp, identity):
                    raise SiteDirRefused(f"the work folder {tmp} was replaced during the build; nothing was replaced")
                _swap(tmp, identity, site_dir)
        finally:
            if tmp is not None and same_folder(tmp, identity):
                remove_tree(tmp)
            if zh_work is not None and same_folder(zh_work, zh_made):
                remove_tree(zh_work)
        timings.mkdocs = time.perf_counter() - start
    return timings


def _fork_context() -> Optional[Any]:
    """The ``fork`` multiprocessing context, or None: where there is none (Windows), with one CPU, and in a
    process running other threads (``lingjun-kb serve`` rebuilds from its watcher thread while another serves:
    a lock one of them holds at the fork would stay held in the child forever)."""
    if (os.cpu_count() or 1) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    if _threads_running() > 1:
        return None
    return multiprocessing.get_context("fork")


def _threads_running() -> int:
    """The number of threads of this process: on Linux the kernel's count (``/proc/self/task``), which includes
    threads started outside :mod:`threading` (``_thread.start_new_thread``, C extensions; pytest-xdist's worker
    has such an I/O thread, which ``threading.active_count()`` does not see); elsewhere the
    :mod:`threading` count."""
    try:
        return max(len(os.listdir("/proc/self/task")), threading.active_count())
    except OSError:  # not Linux, or no /proc
        return threading.active_count()


def _with_target(args: tuple, target: Path) -> tuple:
    return args[:3] + (target,) + args[4:]


def _die_with_parent(parent: int) -> None:
    """In the forked builder: be killed (SIGKILL) when the build process ``parent`` (a PID) dies, on Linux.

    A ``kill -9`` of ``lingjun-kb build`` would otherwise leave the English builder running on, writing
    into a work folder the next build removes as a dead build's.  Elsewhere (no ``prctl``) nothing changes.
    """

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # it died before the request took effect
        os._exit(1)


#: what the forked English process renders from (set just before the fork: the forked process inherits
#: it without pickling the site model)
_RENDER_IN_CHILD: Optional[tuple] = None


def _build_language_here(*args: Any, **kwargs: Any) -> int:
    """Render the language's Markdown (from :data:`_RENDER_IN_CHILD`), then :func:`build_language` as this module
    names it when called (the forked process's copy of the module); returns the number of generated pages."""
    kb, site, env, build_dir, config_dir, site_url = _RENDER_IN_CHILD
    count = _render_language(kb, site, env, args[0], build_dir, config_dir, site_url)
    build_language(*args, **kwargs)
    return count


def _build_languages_in_parallel(args: dict[str, tuple], targets: dict[str, Path],
                                 placements: dict[str, tuple[str, Optional[str], Optional[str]]],
                                 render: tuple, fork: Any) -> tuple[int, float]:
    """Render and build English in a forked process and Chinese in this one, at once.

    ``render`` is ``(kb, site model, Jinja2 environment, build folder, configuration folder, site URL)``
    (:func:`_render_language`'s inputs; the shared part, :func:`_render_shared`, is done); ``fork`` is the
    context :func:`_fork_context` gave.  The forked
    process starts with everything this one has imported and set (MkDocs, Material, a test's replacement
    of :func:`build_language`); Chinese stays here, where jieba's dictionary is loaded once for all builds
    of the process.  Returns when both are done, with ``(generated pages of both languages, seconds this
    process spent rendering Chinese)``; an error of either is raised here (Chinese's first), as the
    sequential build raises it (a :class:`~lingjun.generator.site.mkdocs_build.MkDocsBuildError` keeps
    its language and messages).

    Raises:
        MkDocsBuildError: MkDocs failed or warned, or the English process ended without a result.
        FileNotFoundError: a hand-written page is missing in a language.
    """
    global _RENDER_IN_CHILD
    _RENDER_IN_CHILD = render
    prepare_jieba()  # loaded once, here: the English process inherits the dictionary (see prepare_jieba)
    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=fork, initializer=_die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            english = pool.submit(_build_language_here, *_with_target(args["en"], targets["en"]),
                                  placements=placements)
            try:
                start = time.perf_counter()
                kb, site, env, build_dir, config_dir, site_url = render
                count = _render_language(kb, site, env, "zh", build_dir, config_dir, site_url)
                rendered = time.perf_counter() - start
                build_language(*_with_target(args["zh"], targets["zh"]), placements=placements)
            finally:
                wait([english])  # never leave the English process writing while the caller cleans up
    except Exception as exc:
        # Ctrl-C while the pool starts its thread: shutting the pool down then fails too (a thread never
        # started cannot be joined); the interrupt is what happened, and the caller reports it as one line
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise
    finally:
        _RENDER_IN_CHILD = None
    try:
        count += english.result()
    except BrokenProcessPool:
        raise MkDocsBuildError("en", ["the process building the English site ended without a result"]) from None
    return count, rendered


def _swap(tmp: Path, identity: tuple[int, int], site_dir: Path) -> None:
    """Put the built ``tmp`` (the folder ``identity``) at ``site_dir`` by renames.

    The previous site is first renamed onto a new empty work folder
    (:func:`make_work_folder`) and deleted after; only real folders this
    build made or checked are ever renamed or deleted.
    """
    raise_if_interrupted()  # a Ctrl-C swallowed mid-build (it landed in a finaliser) still keeps the previous site
    previous = None
    old = None
    with deferred():  # the two renames happen together or not at all; a Ctrl-C meanwhile lands after them
        if os.path.lexists(site_dir):
            info = os.lstat(site_dir)
            previous = (info.st_dev, info.st_ino)
            old = make_work_folder(site_dir, "old")
            try:
                site_dir.rename(old)  # replaces the empty folder just made
            except BaseException:
                with contextlib.suppress(OSError):
                    os.rmdir(old)
                raise
        try:
            tmp.rename(site_dir)
            if not same_folder(site_dir, identity):
                raise SiteDirRefused(f"{site_dir} is not the folder this build made after the swap")
        except BaseException:
            if old is not None and previous is not None and same_folder(old, previous) and not os.path.lexists(site_dir):
                old.rename(site_dir)
            raise
    if old is not None and previous is not None and same_folder(old, previous):
        remove_tree(old)  # never through a mount someone placed in the old site
