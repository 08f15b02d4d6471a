"""Driver branch lifecycle on the drivers page: NVIDIA's dates, never a status that goes stale."""

from __future__ import annotations

import pytest

from lingjun.generator.site.branch_lifecycle import EolWording, branch_lifecycle, eol_wording
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.schema.loader import load_knowledge_base

from conftest import REPO


@pytest.fixture(scope="module")
def drivers_pages(fixture_kb):
    site = build_site_model(fixture_kb)
    return {lang: dict((p.id, t) for p, t in render_pages(site, lang))["drivers"] for lang in ("en", "zh")}


def _row(text: str, branch: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| R{branch} |"))


def test_wording_per_branch(fixture_kb):
    by_branch = {b.branch: b for b in fixture_kb.driver_branches.branches}
    assert eol_wording(by_branch[570]) is EolWording.date       # eol 2026-02, flag false
    assert eol_wording(by_branch[575]) is EolWording.listed     # flag only
    assert eol_wording(by_branch[580]) is EolWording.disputed   # no month, note on the disagreement
    lifecycle = branch_lifecycle(fixture_kb.driver_branches)
    assert [b.branch for b, _ in lifecycle.rows] == [580, 570, 535]
    assert lifecycle.listed_only == (575, 550, 545, 470)
    assert branch_lifecycle(None) is None


def test_every_wording_has_both_languages():
    for wording in EolWording:
        assert STRINGS[f"drivers.eol.{wording.value}"]["zh"], wording


def test_english_rows_state_nvidia_dates_not_a_status(drivers_pages):
    en = drivers_pages["en"]
    assert "2026-02 (NVIDIA's date)" in _row(en, 570)
    assert "Production Branch" in _row(en, 570)
    assert "2026-06 (NVIDIA's date)" in _row(en, 535)
    r580 = _row(en, 580)
    assert "no end-of-life date recorded" in r580 and "August 2028" in r580 and "June 2028" in r580
    assert "Also listed as end of life by NVIDIA, with no date, type or CUDA data&#58; R575, R550, R545, R470." in en
    assert "lingjun-check compares the date with the current day" in en
    assert "(checker/rules.md#driver-branch-eol)" in en
    lowered = en.lower()
    for stale in ("supported (", "still", "until", "reached"):
        assert stale not in lowered.split("## driver branch lifecycle")[1].split("## sources")[0], stale


def test_chinese_rows_are_chinese(drivers_pages):
    zh = drivers_pages["zh"]
    assert "2026-02（NVIDIA 公布的日期）" in _row(zh, 570)
    assert "生产分支" in _row(zh, 570)
    assert "2028 年 6 月" in _row(zh, 580)
    assert "（无日期、类型或 CUDA 数据）：R575、R550、R545、R470。" in zh
    for stale in ("仍在维护", "维护至", "已停止维护", "NVIDIA's", "no date"):
        assert stale not in zh, stale


def test_real_branch_table():
    kb, _ = load_knowledge_base(REPO / "releases")
    lifecycle = branch_lifecycle(kb.driver_branches)
    rows = {b.branch: w for b, w in lifecycle.rows}
    assert rows[570] is EolWording.date and rows[580] is EolWording.disputed
    assert 575 in lifecycle.listed_only and 570 not in lifecycle.listed_only
