"""The audit of about 750 facts (issue 23): each finding it made about the reference tables and the family notes,
fixed in the data and held here.

Sources: NVIDIA's CUDA GPUs list https://developer.nvidia.com/cuda-gpus (the RTX PRO Server Editions in its Data
Center column; RTX PRO 2000 Blackwell, RTX 4000 SFF Ada, RTX 2000 Ada, RTX A3000, Jetson T5000 / T4000); the
data center driver tables of the R615 and R620 editions
(https://docs.nvidia.com/datacenter/tesla/drivers/615/supported-drivers-and-cuda-toolkit-versions.html,
https://docs.nvidia.com/datacenter/tesla/drivers/620/supported-drivers-and-cuda-toolkit-versions.html: "New Feature
Branches are short-lived and do not have an end-of-life date"); NVIDIA's driver archive
https://www.nvidia.com/en-us/drivers/unix.html (590.48.01, the latest new feature branch driver).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from lingjun.checks.core.driver_target import branch_end_of_life
from lingjun.schema.loader import load_knowledge_base

RELEASES = Path(__file__).resolve().parents[2] / "releases"


@pytest.fixture(scope="module")
def kb():
    knowledge, problems = load_knowledge_base(RELEASES)
    assert [p for p in problems if p.is_error] == []
    return knowledge


def _gpus(kb):
    return {g.name: g for g in kb.gpus.gpus}


def _branches(kb):
    return {b.branch: b for b in kb.driver_branches.branches}


@pytest.mark.parametrize("name", ["RTX PRO 6000 Blackwell Server Edition", "RTX PRO 4500 Blackwell Server Edition"])
def test_rtx_pro_server_editions_are_data_center_gpus_as_nvidia_lists_them(kb, name):
    gpu = _gpus(kb)[name]
    assert (gpu.data_center, gpu.compute_capability, gpu.architecture.value) == (True, "12.0", "blackwell")


@pytest.mark.parametrize("name, cc, arch", [
    ("RTX PRO 4500 Blackwell", "12.0", "blackwell"),
    ("RTX PRO 2000 Blackwell", "12.0", "blackwell"),
    ("RTX 4000 SFF Ada Generation", "8.9", "ada"),
    ("RTX 2000 Ada Generation", "8.9", "ada"),
    ("RTX A3000", "8.6", "ampere"),
    ("Jetson T5000", "11.0", "blackwell"),
    ("Jetson T4000", "11.0", "blackwell"),
])
def test_gpus_on_nvidias_list_are_in_the_table(kb, name, cc, arch):
    gpu = _gpus(kb)[name]
    assert (gpu.compute_capability, gpu.architecture.value, gpu.data_center) == (cc, arch, False)


def test_no_branch_row_stores_an_end_of_life_flag(kb):
    assert [b.branch for b in kb.driver_branches.branches if b.end_of_life is not None] == []


@pytest.mark.parametrize("day, ended", [
    (dt.date(2026, 6, 30), {470, 570}),
    (dt.date(2026, 12, 1), {470, 570, 535, 610}),
])
def test_end_of_life_of_the_dated_branches_is_computed_on_the_day(kb, day, ended):
    dated = {b.branch for b in kb.driver_branches.branches if b.eol is not None
             and branch_end_of_life(b.model_dump(mode="json"), day)}
    assert dated == ended


@pytest.mark.parametrize("branch", [590, 615])
def test_r590_and_r615_are_new_feature_branches_without_a_date(kb, branch):
    row = _branches(kb)[branch]
    assert (row.type.value, row.eol, row.eol_undated.value) == ("new-feature", None, "new-feature")
    assert branch_end_of_life(row.model_dump(mode="json"), dt.date(2030, 1, 1)) is False


@pytest.mark.parametrize("branch, edition", [
    (620, "/drivers/620/"), (615, "/drivers/620/"), (610, "/drivers/615/"), (595, "/drivers/620/"),
    (580, "/drivers/620/"), (535, "/drivers/615/"), (590, "/drivers/unix.html"),
])
def test_branch_rows_cite_the_table_edition_that_shows_them(kb, branch, edition):
    sources = {s.id: str(s.url) for s in kb.driver_branches.sources}
    assert edition in sources[_branches(kb)[branch].source]


def test_the_unversioned_table_is_cited_only_for_rows_it_shows(kb):
    sources = {s.id: str(s.url) for s in kb.driver_branches.sources}
    unversioned = [b.branch for b in kb.driver_branches.branches
                   if sources[b.source].endswith("/drivers/supported-drivers-and-cuda-toolkit-versions.html")]
    assert not {620, 615, 610, 595, 590} & set(unversioned)


def test_r580_takes_the_newest_editions_month_and_notes_the_older_one(kb):
    row = _branches(kb)[580]
    assert row.eol == "2028-06" and "August 2028" in row.note.en and "2028 年 8 月" in row.note.zh


@pytest.mark.parametrize("family", ["training-nv-pytorch", "training-xpu-pytorch"])
def test_vpc_notes_name_every_page_with_the_beijing_limit_and_the_chinese_pages_without(kb, family):
    note = kb.families[family].vpc_note
    assert "Indonesian 25.04, 25.06, 25.08 and 25.09 pages" in " ".join(note.en.split())
    assert "Chinese 25.03, 25.07 and 25.10 pages" in " ".join(note.en.split())
    assert "印尼语版25.04、25.06、25.08、25.09页面" in "".join(note.zh.split())
    assert "25.03、25.07、25.10" in "".join(note.zh.split())


def test_25_07_says_support_for_and_marks_nothing_new(kb):
    record = kb.release("training-nv-pytorch:25.07")
    assert [c.id for c in record.components if c.introduced] == []
    (highlight,) = [h for h in record.highlights if "peft" in h.components]
    assert highlight.text.en.startswith("Supports ") and "new" not in highlight.text.en.lower()
    assert highlight.text.zh.startswith("支持 ") and "新增" not in highlight.text.zh
    assert not [c.id for c in record.source_conflicts if c.id.endswith("-called-new")]
