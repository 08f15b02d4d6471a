"""Release pages: usage notes and known issues the family's earlier releases state, carried to a release whose
record did not capture them, with their provenance (the decision of lingjun.checks.knowledge.carried)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.generator.site.build import load_validated

#: the checker-rule tests' frozen knowledge base (tests/site/fixtures/kb holds no 25.08-25.10)
CHECKER_KB = Path(__file__).resolve().parents[1] / "fixtures" / "kb"
PAGE_2510 = "release:training-nv-pytorch:25.10"


@pytest.fixture(scope="module")
def checker_kb():
    return load_validated(CHECKER_KB)


@pytest.fixture(scope="module")
def fixture_pages(checker_kb):
    """Rendered pages of the fixture knowledge base (25.07 states the NCCL note; 25.08-25.10 did not capture usage notes)."""
    from lingjun.generator.site.model import build_site_model
    from lingjun.generator.site.render import render_pages

    site = build_site_model(checker_kb)
    return {lang: {page.id: text for page, text in render_pages(site, lang)} for lang in ("en", "zh")}


def _usage_notes(page: str) -> str:
    start = page.index("{ #usage-notes }")
    end = page.find("\n## ", start)
    return page[start:end if end != -1 else len(page)]


def test_25_10_page_shows_the_nccl_note_of_25_07_with_its_provenance(fixture_pages):
    section = _usage_notes(fixture_pages["en"][PAGE_2510])
    assert "Not recorded from the page" in section
    assert "Stated by the family's earlier releases and not contradicted by this record" in section
    line = next(line for line in section.splitlines() if "NCCL" in line and "SOCKET" in line)
    assert '<small class="lj-carried">stated by 25.07; not recorded for 25.10 · Checked by' in line
    assert "env.nccl-socket-ifname-pod-size" in line


def test_25_10_chinese_page_names_the_provenance(fixture_pages):
    section = _usage_notes(fixture_pages["zh"][PAGE_2510])
    assert "本系列此前的版本载明了以下各条，本记录与之并无矛盾" in section
    assert '<small class="lj-carried">25.07 载明；25.10 未记录该部分 · 检查规则' in section


def test_the_release_that_states_the_note_shows_it_as_its_own(fixture_pages):
    section = _usage_notes(fixture_pages["en"]["release:training-nv-pytorch:25.07"])
    assert "NCCL" in section and "lj-carried" not in section and "earlier releases" not in section


def test_page_carries_what_the_checker_reads_from_the_bundle(checker_kb):
    """The site feeds the decision the records as dumped models, the checker the bundle: both give the same notes."""
    from lingjun.checks.knowledge.bundle import KnowledgeData
    from lingjun.checks.knowledge.carried import carried_usage_notes
    from lingjun.generator.bundle import compile_bundle
    from lingjun.generator.site.model import build_site_model

    views = build_site_model(checker_kb).views
    data = KnowledgeData.from_dict(compile_bundle(checker_kb))
    for ref in ("training-nv-pytorch:25.08", "training-nv-pytorch:25.10"):
        shown = [(note.id, c.provenance_en) for note, c in views[ref].carried_notes]
        applied = [(c.key(), c.provenance_en) for c in carried_usage_notes(data.releases, data.release(ref))]
        assert shown == applied
    assert ("nccl-socket-ifname", "stated by 25.07; not recorded for 25.10") in shown
