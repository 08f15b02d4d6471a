"""Driver branch lifecycle on the drivers page: NVIDIA's month evaluated on the build day, with the table edition."""

from __future__ import annotations

import datetime as dt
import os

import pytest

from lingjun.generator.site.branch_lifecycle import EolWording, branch_lifecycle, build_day, eol_wording, stated_branches
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.schema.loader import load_knowledge_base

from site_kit import REPO

#: 2026-12-01 00:00:00 UTC, as SOURCE_DATE_EPOCH
DAY_EPOCH = "1796083200"


@pytest.fixture(scope="module")
def drivers_pages(fixture_kb):
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = DAY_EPOCH
    try:
        site = build_site_model(fixture_kb)
        return {lang: dict((p.id, t) for p, t in render_pages(site, lang))["drivers"] for lang in ("en", "zh")}
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


def _row(text: str, branch: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| R{branch} |"))


def test_build_day_is_source_date_epoch_when_set(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", DAY_EPOCH)
    assert build_day() == dt.date(2026, 12, 1)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not-a-number")
    assert build_day() == dt.date.today()


def test_wording_per_branch_is_computed_on_the_day(fixture_kb):
    by_branch = {b.branch: b for b in fixture_kb.driver_branches.branches}
    assert eol_wording(by_branch[570], dt.date(2026, 2, 28)) is EolWording.ahead   # the month's last day
    assert eol_wording(by_branch[570], dt.date(2026, 3, 1)) is EolWording.past
    assert eol_wording(by_branch[575], dt.date(2026, 3, 1)) is EolWording.listed    # eol_undated: listed
    assert eol_wording(by_branch[580], dt.date(2026, 3, 1)) is EolWording.disputed  # no month, note on it
    lifecycle = branch_lifecycle(fixture_kb.driver_branches, dt.date(2026, 12, 1))
    assert [b.branch for b, _ in lifecycle.rows] == [580, 570, 535]
    assert lifecycle.listed_only == (575, 550, 545, 470) and lifecycle.as_of == dt.date(2026, 12, 1)
    assert branch_lifecycle(None) is None


def test_every_wording_has_both_languages():
    for wording in EolWording:
        assert STRINGS[f"drivers.eol.{wording.value}"]["zh"], wording


def test_english_rows_say_whether_the_month_has_passed_on_the_build_day(drivers_pages):
    en = drivers_pages["en"]
    assert "end of life since 2026-02 (NVIDIA's date; past on 2026-12-01)" in _row(en, 570)
    assert "Production Branch" in _row(en, 570)
    assert "end of life since 2026-06 (NVIDIA's date; past on 2026-12-01)" in _row(en, 535)
    r580 = _row(en, 580)
    assert "no end-of-life date recorded" in r580 and "August 2028" in r580 and "June 2028" in r580
    assert "[<code>dc-drivers</code>](https://docs.nvidia.com/datacenter/tesla/drivers/" in _row(en, 570)
    assert "Also listed as end of life by NVIDIA, with no date, type or CUDA data&#58; R575, R550, R545, R470." in en
    assert "evaluated on the day this page was built, 2026-12-01" in en
    assert "(checker/rules.md#driver-branch-eol)" in en


def test_chinese_rows_are_chinese(drivers_pages):
    zh = drivers_pages["zh"]
    assert "已于 2026-02 停止支持（NVIDIA 公布的日期；截至 2026-12-01 已过）" in _row(zh, 570)
    assert "生产分支" in _row(zh, 570)
    assert "2028 年 6 月" in _row(zh, 580)
    assert "（无日期、类型或 CUDA 数据）：R575、R550、R545、R470。" in zh
    for stale in ("仍在维护", "维护至", "已停止维护", "NVIDIA's", "no date"):
        assert stale not in zh, stale


def test_real_branch_table_on_a_day():
    kb, _ = load_knowledge_base(REPO / "releases")
    lifecycle = branch_lifecycle(kb.driver_branches, dt.date(2026, 12, 1))
    rows = {b.branch: w for b, w in lifecycle.rows}
    assert rows[570] is rows[535] is rows[610] is EolWording.past
    assert rows[620] is rows[595] is rows[580] is EolWording.ahead
    assert rows[615] is rows[590] is EolWording.new_feature
    assert 575 in lifecycle.listed_only and 570 not in lifecycle.listed_only


def test_stated_branches_carry_each_branch_s_lifecycle_on_the_day(fixture_kb):
    rows = stated_branches([(470, "470.57"), (535, "535.86"), (999, None)], fixture_kb.driver_branches,
                           dt.date(2026, 12, 1))
    assert [(r.branch, r.minimum, r.wording, r.month) for r in rows] == [
        (470, "470.57", EolWording.listed, None),
        (535, "535.86", EolWording.past, "2026-06"),
        (999, None, None, None),  # NVIDIA's table has no row: nothing is said about its lifecycle
    ]
    assert stated_branches([(470, "470.57")], None, dt.date(2026, 12, 1))[0].wording is None


def test_release_page_states_the_lifecycle_of_its_forward_compatibility_branches(pages):
    for lang, wording, as_of in (("en", "R470 (≥ 470.57; end of life since 2024-07)", "Lifecycle on "),
                                 ("zh", "R470（≥ 470.57；已于 2024-07 停止支持）", "生命周期为截至 ")):
        text = pages[lang]["release:training-nv-pytorch:25.08"]
        line = next(l for l in text.splitlines() if wording in l)
        assert as_of + build_day().isoformat() in line
