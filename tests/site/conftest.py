"""Fixtures of the site tests: the small fixture knowledge base, a hostile copy, built sites (paths and helpers:
:mod:`site_kit`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lingjun.generator.site.build import build_site, load_validated
from made_once import made_ahead
from site_kit import FIXTURE_KB, REPO, copy_site_config, load_release_shapes, make_hostile_kb, release_shapes_folder

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves a full-page screenshot of its page (its ``page`` or ``tab`` fixture) as
    ``test-artifacts/failed-<test id>.png``, taken before the page fixture's teardown moves the tab away."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    tab = item.funcargs.get("page") or item.funcargs.get("tab")
    if tab is None or not hasattr(tab, "screenshot"):
        return
    folder = REPO / "test-artifacts"
    folder.mkdir(exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", item.nodeid.split("::", 1)[-1])[:150]
    try:
        tab.screenshot(path=str(folder / f"failed-{name}.png"), full_page=True)
    except Exception as exc:  # a crashed page or closed browser: the failure itself is what the report shows
        report.sections.append(("screenshot", f"no screenshot: {exc}"))


@pytest.fixture(scope="session")
def real():
    """``(knowledge base, site model)`` of the real records in releases/ (validated), built once."""
    from lingjun.generator.site.model import build_site_model

    kb = load_validated(REPO / "releases")
    return kb, build_site_model(kb)


@pytest.fixture(scope="session")
def pages(real):
    """The rendered pages of the real records: ``{lang: {page id: markdown}}`` for en and zh.

    Modules that define their own ``pages`` fixture (built from other records) use theirs.
    """
    from lingjun.generator.site.render import render_pages

    _, site = real
    return {lang: {page.id: text for page, text in render_pages(site, lang)} for lang in ("en", "zh")}


@pytest.fixture(scope="session")
def fixture_kb():
    """The validated fixture knowledge base."""
    return load_validated(FIXTURE_KB)


@made_ahead("hostile", "hostile_kb_dir", seconds=0.3)
def _hostile_folder(folder: Path, tmp_path_factory) -> None:
    make_hostile_kb(folder / "kb")


@pytest.fixture(scope="session")
def hostile_kb_dir(tmp_path_factory):
    """A copy of the fixture KB with hostile text in it (one per test run, shared by xdist's workers: read only)."""
    return _hostile_folder(tmp_path_factory) / "kb"


@made_ahead("built", "built_site", seconds=6)
def _built_folder(folder: Path, tmp_path_factory) -> None:
    build_site(_hostile_folder(tmp_path_factory) / "kb", folder / "site", build_dir=folder / "build", config_dir=REPO)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, hostile_kb_dir):
    """``(site_dir, build_dir)`` of a full build (both languages) of the hostile fixture KB (made once per run)."""
    root = _built_folder(tmp_path_factory)
    return root / "site", root / "build"


@made_ahead("real-site", "real_site_dir", seconds=12)
def _real_site_folder(folder: Path, tmp_path_factory) -> None:
    build_site(REPO / "releases", folder / "site", build_dir=folder / "build", config_dir=REPO)


@pytest.fixture(scope="session")
def real_site_dir(tmp_path_factory) -> Path:
    """The built site (both languages) of the real records in ``releases/``, made once per test run (read only)."""
    return _real_site_folder(tmp_path_factory) / "site"


@pytest.fixture
def in_site_config(tmp_path_factory, monkeypatch) -> Path:
    """The working folder made a copy of the site configuration (:func:`copy_site_config`, outside ``tmp_path``):
    ``lingjun-kb build`` there renders into that copy's ``.build/``."""
    config = copy_site_config(tmp_path_factory.mktemp("config") / "checkout")
    monkeypatch.chdir(config)
    return config


@pytest.fixture(scope="session")
def release_shapes_kb_dir(tmp_path_factory):
    """Folder of the issue-12 fixture KB (:func:`make_release_shapes_kb`; once per run: read only)."""
    return release_shapes_folder(tmp_path_factory) / "kb"


@pytest.fixture(scope="session")
def release_shapes(release_shapes_kb_dir):
    """``(knowledge base, site model)`` of the issue-12 fixture KB, validated by the gate."""
    from lingjun.generator.site.model import build_site_model

    kb = load_release_shapes(release_shapes_kb_dir)
    return kb, build_site_model(kb)


@pytest.fixture(scope="session")
def release_shapes_pages(release_shapes):
    """Rendered pages of the issue-12 fixture KB: ``{lang: {page id: markdown}}``."""
    from lingjun.generator.site.render import render_pages

    _, site = release_shapes
    return {lang: {page.id: text for page, text in render_pages(site, lang)} for lang in ("en", "zh")}

