"""Fixtures of the site tests: the small fixture knowledge base, a hostile copy, built sites."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from lingjun.generator.site.build import build_site, load_validated
from made_once import made_once

FIXTURE_KB = Path(__file__).parent / "fixtures" / "kb"
REPO = Path(__file__).resolve().parents[2]

#: record text that must be shown as text, never interpreted
HOSTILE = "Has <script>alert(1)</script> and [x](javascript:alert(1)) and a | pipe and `tick"
HOSTILE_ZH = "含有 <script>alert(1)</script> 与 [x](javascript:alert(1)) 以及 | 竖线"


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


def make_hostile_kb(target: Path) -> Path:
    """Copy the fixture KB and put hostile text into a summary, a known issue and a component note."""
    shutil.copytree(FIXTURE_KB, target)
    record = target / "training-nv-pytorch" / "25.07.yaml"
    text = record.read_text(encoding="utf-8")
    text = text.replace(
        'summary: {en: "vLLM 0.9.2, TransformerEngine 2.3.0 and peft 0.16.0.", zh: "vLLM 0.9.2、TransformerEngine 2.3.0 与 peft 0.16.0。"}',
        f'summary: {{en: "{HOSTILE}", zh: "{HOSTILE_ZH}"}}',
    )
    text = text.replace(
        '  - {id: peft, name: peft, version: "0.16.0"}',
        f'  - {{id: peft, name: peft, version: "0.16.0", note: {{en: "{HOSTILE}", zh: "{HOSTILE_ZH}"}}}}',
    )
    record.write_text(text, encoding="utf-8")
    issue = target / "known-issues" / "vllm-moe-illegal-memory-access.yaml"
    text = issue.read_text(encoding="utf-8")
    text = text.replace(
        'description: {en: "MoE models served with vLLM can hit an illegal memory access on H20 GPUs.",',
        f'description: {{en: "{HOSTILE}",',
    )
    issue.write_text(text, encoding="utf-8")
    assert HOSTILE in (target / "training-nv-pytorch" / "25.07.yaml").read_text(encoding="utf-8")
    assert HOSTILE in issue.read_text(encoding="utf-8")
    return target


@pytest.fixture(scope="session")
def hostile_kb_dir(tmp_path_factory):
    """A copy of the fixture KB with hostile text in it (one per test run, shared by xdist's workers: read only)."""
    return made_once(tmp_path_factory, "hostile", lambda folder: make_hostile_kb(folder / "kb")) / "kb"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, hostile_kb_dir):
    """``(site_dir, build_dir)`` of a full build (both languages) of the hostile fixture KB (made once per run)."""
    root = made_once(tmp_path_factory, "built", lambda folder: build_site(
        hostile_kb_dir, folder / "site", build_dir=folder / "build", config_dir=REPO))
    return root / "site", root / "build"


@pytest.fixture(scope="session")
def real_site_dir(tmp_path_factory) -> Path:
    """The built site (both languages) of the real records in ``releases/``, made once per test run (read only)."""
    root = made_once(tmp_path_factory, "real-site", lambda folder: build_site(
        REPO / "releases", folder / "site", build_dir=folder / "build", config_dir=REPO))
    return root / "site"


def copy_site_config(target: Path) -> Path:
    """``target`` made a folder with the site configuration (mkdocs.yml, docs/, theme), as a checkout holds it.

    A build run there (``lingjun-kb build`` in that working folder) renders into its ``.build/``, never into
    the checkout's, which other tests (and other xdist workers) may be building with or listing at that moment.
    """
    target.mkdir(parents=True)
    for name in ("mkdocs.yml", "mkdocs.zh.yml"):
        shutil.copy(REPO / name, target / name)
    shutil.copytree(REPO / "docs", target / "docs")
    shutil.copytree(REPO / "generator" / "site" / "theme", target / "generator" / "site" / "theme")
    return target


@pytest.fixture
def in_site_config(tmp_path_factory, monkeypatch) -> Path:
    """The working folder made a copy of the site configuration (:func:`copy_site_config`, outside ``tmp_path``):
    ``lingjun-kb build`` there renders into that copy's ``.build/``."""
    config = copy_site_config(tmp_path_factory.mktemp("config") / "checkout")
    monkeypatch.chdir(config)
    return config


#: hostile record text for the site, one entry per kind (tests/fixtures/hostile-site/payloads.yaml)
PAYLOAD_FILE = REPO / "tests" / "fixtures" / "hostile-site" / "payloads.yaml"


def load_payloads() -> dict:
    """``{"payloads": [{kind, text, short?}, ...], "url": ...}`` from :data:`PAYLOAD_FILE`."""
    import yaml

    return yaml.safe_load(PAYLOAD_FILE.read_text(encoding="utf-8"))


def injection_texts() -> tuple[str, str, str, str]:
    """``(prose en, prose zh, short text, url)``: what :func:`make_injection_kb` writes into the records.

    The prose holds every payload as a paragraph; the short text (at most 300
    characters, the schema's limit) the payloads marked ``short``.
    """
    data = load_payloads()
    prose = "\n\n".join(p["text"] for p in data["payloads"])
    short = " ".join(p["text"] for p in data["payloads"] if p.get("short"))
    assert len(short) <= 300, len(short)
    return prose, "中文 " + prose, short, data["url"]


#: short-text fields (str values) that take the short payload, by key
_SHORT_KEYS = {"title", "name", "project", "stated_as", "last_updated", "value", "kept"}


def make_injection_kb(target: Path) -> Path:
    """Copy the fixture KB with hostile text in every text field it has.

    Every bilingual text (``{en, zh}``) becomes all payloads of
    :data:`PAYLOAD_FILE`; short texts (source and upstream titles, the
    catalog's component names, upstream projects, ...) the short payloads;
    every ``url`` of a source or an upstream reference the hostile URL;
    quick-start commands every payload line.  The result passes the data gate.
    """
    import yaml

    prose_en, prose_zh, short, url = injection_texts()

    def walk(node, key=None, parent_key=None):
        if isinstance(node, dict):
            if set(node) == {"en", "zh"}:
                return {"en": prose_en, "zh": prose_zh}
            out = {}
            for k, v in node.items():
                if k == "url" and parent_key in ("sources", "upstream", "references"):
                    out[k] = url
                elif k == "source" and key == "released":
                    out[k] = url  # the page the date comes from is one of the sources, all of which are hostile
                elif isinstance(v, str) and (k in _SHORT_KEYS or (k == "vendor" and "image_name" in node)) and not (
                        k == "name" and "layer" not in node and "image_name" not in node):
                    out[k] = short
                elif k == "commands" and isinstance(v, list):
                    out[k] = [line for line in prose_en.split("\n") if line.strip()]
                else:
                    out[k] = walk(v, k, key)
            return out
        if isinstance(node, list):
            return [walk(item, key, parent_key if key is None else key) for item in node]
        return node

    shutil.copytree(FIXTURE_KB, target)
    for path in sorted(target.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        path.write_text(yaml.safe_dump(walk(data), allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


#: overlay on the fixture KB with the shapes of issue 12 (variants, runtimes, new identifiers, unrecorded releases)
RELEASE_SHAPES_OVERLAY = Path(__file__).parent / "fixtures" / "kb-release-shapes"


def make_release_shapes_kb(target: Path) -> Path:
    """Copy the fixture KB and lay :data:`RELEASE_SHAPES_OVERLAY` over it (files replaced or added).

    training-xpu-pytorch 25.05 becomes ``superseded``: the overlay adds its 2026-10-20 successor.
    """
    shutil.copytree(FIXTURE_KB, target)
    for path in sorted(RELEASE_SHAPES_OVERLAY.rglob("*.yaml")):
        dest = target / path.relative_to(RELEASE_SHAPES_OVERLAY)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    old = target / "training-xpu-pytorch" / "25.05.yaml"
    text = old.read_text(encoding="utf-8")
    assert "\nstatus: current\n" in text
    old.write_text(text.replace("\nstatus: current\n", "\nstatus: superseded\n"), encoding="utf-8")
    return target


def load_release_shapes(folder: Path):
    """The issue-12 fixture KB (or any releases folder), validated by the data gate (:func:`load_validated`)."""
    return load_validated(folder)


@pytest.fixture(scope="session")
def release_shapes_kb_dir(tmp_path_factory):
    """Folder of the issue-12 fixture KB (:func:`make_release_shapes_kb`; once per run: read only)."""
    return made_once(tmp_path_factory, "release_shapes", lambda folder: make_release_shapes_kb(folder / "kb")) / "kb"


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
