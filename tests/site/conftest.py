"""Fixtures of the site tests: the small fixture knowledge base, a hostile copy, built sites."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lingjun.generator.site.build import build_site, load_validated

FIXTURE_KB = Path(__file__).parent / "fixtures" / "kb"
REPO = Path(__file__).resolve().parents[2]

#: record text that must be shown as text, never interpreted
HOSTILE = "Has <script>alert(1)</script> and [x](javascript:alert(1)) and a | pipe and `tick"
HOSTILE_ZH = "含有 <script>alert(1)</script> 与 [x](javascript:alert(1)) 以及 | 竖线"


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
    """A copy of the fixture KB with hostile text in it."""
    return make_hostile_kb(tmp_path_factory.mktemp("hostile") / "kb")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, hostile_kb_dir):
    """``(site_dir, build_dir)`` of a full build (both languages) of the hostile fixture KB."""
    root = tmp_path_factory.mktemp("built")
    site_dir, build_dir = root / "site", root / "build"
    build_site(hostile_kb_dir, site_dir, build_dir=build_dir, config_dir=REPO)
    return site_dir, build_dir
