"""Unknown is not absent: diffs and driver cells of the real records say only what both sides show.

Reproduces the claims of issue 7 on ``releases/`` (25.06 has no full
component list; 25.10/25.07/25.04/25.02 have a cut-off driver text) and
scans the whole site model and the rendered pages for a row or a cell that
states more than the records hold.
"""

from __future__ import annotations

import re

import pytest

from lingjun.generator.site.diff import ChangeKind, build_tag_change, compare_releases, diff_releases, table_kind
from lingjun.generator.site.driver_matrix import Compat
from lingjun.checks.core.versions import DriverVersion
from lingjun.schema.models import ListState, StatedIn


def rows(diff):
    return {c.key: (c.kind, c.old, c.new) for c in diff.changes}


def test_25_06_to_25_07_shows_the_real_change_and_nothing_resting_on_25_06s_missing_list(real):
    _, site = real
    diff = site.views["training-nv-pytorch:25.07"].diff
    notable = {c.key: (c.kind, c.old, c.new, c.name) for c in diff.changes if c.notable}
    assert notable == {
        "vllm": (ChangeKind.upgraded, "0.9.1", "0.9.2", "vLLM"),
        "torch": (ChangeKind.build_tag, "2.7.1.8", "2.7.1.8+nv25.3", "PyTorch"),
        # 12.8 is 12.8.0 written with less precision: not a downgrade, not "unchanged" either
        "cuda": (ChangeKind.less_precise, "12.8.0", "12.8", "CUDA Toolkit"),
    }
    counts = diff.counts
    assert (counts["added"], counts["removed"], counts["upgraded"], counts["build-tag"]) == (0, 0, 1, 1)
    # the 24 others of 25.07's list were never stated for 25.06: not recorded there, not "added"; nor "new" for
    # Transformer Engine, PEFT and Diffusers, of which 25.07's page says only "support for"
    one_sided = {c.key for c in diff.not_recorded}
    assert len(one_sided) == 24 and {"ubuntu", "python", "deepspeed", "accl-n", "peft", "diffusers",
                                     "transformer-engine"} <= one_sided
    assert all(c.kind is ChangeKind.not_recorded_old for c in diff.not_recorded)
    assert rows(diff)["triton"] == (ChangeKind.unchanged, "3.3.0", "3.3.0")
    assert rows(diff)["cuda"] == (ChangeKind.less_precise, "12.8.0", "12.8")


def test_25_06_to_25_07_on_the_changes_and_release_pages_in_both_languages(pages):
    en = pages["en"]["changes"].split("### training-nv-pytorch 25.07")[1].split("###")[0]
    assert "| vLLM | <span class=\"lj-change lj-upgraded\">upgraded</span> | 0.9.1 | 0.9.2 |" in en
    assert "| PyTorch | <span class=\"lj-change lj-build-tag\">same version number, build tag added</span> | 2.7.1.8 | 2.7.1.8+nv25.3 |" in en
    assert "lj-introduced" not in en  # the page says "support for", never "new"
    assert "lj-added" not in en and "lj-removed" not in en
    assert "Not compared&#58; 25.06's component list is partial, so it does not show whether these were in it&#58; " in en
    assert "Ubuntu" in en.split("Not compared")[1]
    zh = pages["zh"]["changes"].split("### training-nv-pytorch 25.07")[1].split("###")[0]
    assert "版本号相同，新增构建标签" in zh and "新增（据 25.07 页面所述）" not in zh
    assert "未比较：25.06 的组件列表不完整，无法判断其中是否包含以下组件：" in zh
    assert "lj-added" not in zh and "lj-removed" not in zh
    release = pages["en"]["release:training-nv-pytorch:25.07"].split("## What changed")[1].split("##")[0]
    assert "1 upgraded, 0 downgraded, 0 added, 0 removed, 0 changed (not comparable), 1 same version number, other build tag, " \
           "1 written with other precision, 24 not recorded on one side." in release
    page_2506 = pages["en"]["release:training-nv-pytorch:25.06"]
    assert "Partial component list" in page_2506
    assert "0 added, 0 removed" in page_2506.split("## What changed")[1]


def test_ngc_25_02_and_25_03_do_not_remove_and_add_again_what_25_02_does_not_list(real):
    kb, site = real
    d0203 = site.views["ngc-pytorch:25.03"].diff
    assert rows(d0203)["python"] == (ChangeKind.not_recorded_old, None, "3.12.3")
    assert rows(d0203)["ubuntu"] == (ChangeKind.not_recorded_old, None, "24.04")
    assert rows(d0203)["cuda"] == (ChangeKind.upgraded, "12.8.0.038", "12.8.1")
    d0102 = site.views["ngc-pytorch:25.02"].diff
    for key in ("cudnn", "python", "ubuntu"):
        assert rows(d0102)[key][0] is ChangeKind.not_recorded_new, key
    for diff in (d0102, d0203):
        assert diff.counts["added"] == 0 and diff.counts["removed"] == 0
    # cuDNN named beside the rebase (features text) is not something 25.03's complete list would carry
    tnp = site.views["training-nv-pytorch:25.03"].diff
    assert rows(tnp)["cudnn"] == (ChangeKind.not_recorded_new, "9.7.0.66", None)
    assert rows(tnp)["flashinfer"] == (ChangeKind.added, None, "0.2.3")  # 25.02's list is complete


@pytest.mark.parametrize("old,new,expected", [
    ("2.7.1.8", "2.7.1.8+nv25.3", "added"),
    ("2.7.1.8+nv25.3", "2.7.1.8", "removed"),
    ("2.7.0a0+6c54963f75", "2.7.0a0+7c8ec84dab", "changed"),
    ("2.7.1.8", "2.7.1.9+nv25.3", None),
    ("2.7.1.8+nv25.3", "2.7.1.8+nv25.3", None),
    ("12.8", "12.8.0", None),
    ("15.0.50.20240403-git", "15.0.50.20240403-git+x", None),
])
def test_build_tag_change_uses_the_public_version(old, new, expected):
    assert build_tag_change(old, new) == expected


def test_a_build_tag_is_not_an_upgrade_but_a_new_public_version_is(fixture_kb):
    from lingjun.schema.models import ComponentEntry

    base = fixture_kb.release("training-nv-pytorch:25.07")

    def with_torch(version):
        return base.model_copy(update={"components": [ComponentEntry(id="torch", name="Torch", version=version)],
                                       "component_list": ListState.complete})

    d = diff_releases(with_torch("2.7.1.8"), with_torch("2.7.1.8+nv25.3"), {"torch": "PyTorch"})
    assert [(c.kind, c.build_tag_change, c.name) for c in d.changes] == [(ChangeKind.build_tag, "added", "PyTorch")]
    assert d.counts["upgraded"] == 0
    d = diff_releases(with_torch("2.7.1.8"), with_torch("2.7.1.9+nv25.3"))
    assert [c.kind for c in d.changes] == [ChangeKind.upgraded]


def test_compare_page_data_carries_version_kinds_and_list_states(real):
    _, site = real
    data = site.compare_data
    # build-tag and precision pairs are the table's special pairs; other pairs read from the ranks
    kinds = data["kinds"]["torch"]["special"]
    assert kinds["2.7.1.8"]["2.7.1.8+nv25.3"] == "build-tag-added"
    assert kinds["2.7.1.8+nv25.3"]["2.7.1.8"] == "build-tag-removed"
    assert data["kinds"]["cuda"]["special"]["12.8.1"]["12.8"] == "less-precise"
    assert table_kind(data["kinds"]["cuda"], "12.6", "12.8.1") == "upgraded" and "12.6" not in data["kinds"]["cuda"]["special"]
    states = {r["ref"]: r["list"] for r in data["releases"]}
    assert states["training-nv-pytorch:25.06"] == "partial" and states["training-nv-pytorch:25.07"] == "complete"
    assert "training-nv-pytorch:25.07" not in data["introduced"]  # its page says "support for", not "new"
    assert data["outside"]["training-nv-pytorch:25.02"] == ["cudnn"]


CUT_OFF = ("25.10", "25.07", "25.04", "25.02")
WHOLE = ("25.09", "25.08", "25.06", "25.03")


def test_r535_on_a_cut_off_driver_text_is_read_from_the_evidence_that_remains(real):
    _, site = real
    cells = {v: dict(site.views[f"training-nv-pytorch:{v}"].driver_cells)[535] for v in CUT_OFF + WHOLE}
    # 25.07's record shows cuda-compat (it lists R470); NVIDIA's CUDA 12.8 table and 25.06 and 25.08 admit R535
    assert (cells["25.07"].compat, cells["25.07"].minimum) == (Compat.forward, "535.86")
    assert "from NVIDIA's forward-compatibility table for CUDA 12.8 and what 25.06 and 25.08 state" in cells["25.07"].en
    for version in CUT_OFF:
        if version == "25.07":
            continue
        # the cut-off record does not show the image's cuda-compat: NVIDIA's minor version compatibility is what is known
        cell = cells[version]
        assert (cell.compat, cell.reason) == (Compat.minor, "below-release-minimum"), version
        assert cell.release_minimum in ("570", "575") and "does not show that the image carries cuda-compat" in cell.en, version
    for version in WHOLE:
        assert (cells[version].compat, cells[version].minimum) == (Compat.forward, "535.86"), version


def test_r570_is_never_more_permissive_than_a_release_that_requires_r575(real):
    _, site = real
    verdicts = {v: dict(site.views[f"training-nv-pytorch:{v}"].driver_cells)[570] for v in CUT_OFF + WHOLE}
    assert {v: c.compat for v, c in verdicts.items()} == {
        "25.10": Compat.not_stated, "25.07": Compat.not_stated,  # need 575, text cut off: CUDA runs, the release's word is missing
        "25.09": Compat.minor, "25.08": Compat.minor, "25.06": Compat.minor,  # need 575, text read: CUDA starts, never native
        "25.04": Compat.native, "25.03": Compat.native, "25.02": Compat.native,  # need 570
    }
    assert verdicts["25.06"].reason == "below-release-minimum" and verdicts["25.06"].release_minimum == "575"
    assert verdicts["25.07"].reason == "cut-off" and verdicts["25.07"].release_minimum == "575"
    assert verdicts["25.03"].minimum == "570.26"


def test_the_drivers_page_shows_the_reasons_in_both_languages(pages):
    en, zh = pages["en"]["drivers"], pages["zh"]["drivers"]
    row = _release_row(en, "25.07")
    assert '<span class="lj-compat lj-not-stated">not stated<br><small>driver text cut off</small></span>' in row
    assert "lj-native\">native ≥ 570.26" not in row
    row = _release_row(en, "25.06")
    assert '<span class="lj-compat lj-minor">minor compat<br><small>release needs ≥ 575</small></span>' in row
    assert '<span class="lj-compat lj-unsupported">unsupported<br><small>release asks to upgrade it</small></span>' in row
    row = _release_row(en, "25.07")
    assert ('<span class="lj-compat lj-forward">forward compat (DC) ≥ 535.86<br><small>text cut off&#58; NVIDIA\'s table, '
            'nearby releases</small></span>') in row
    row = _release_row(zh, "25.07")
    assert '<span class="lj-compat lj-not-stated">未说明<br><small>驱动说明被截断</small></span>' in row
    legend = en.split("## Legend")[1].split("##")[0]
    zh_legend = zh.split("## 图例")[1].split("##")[0]
    for kind in ("native", "minor", "forward", "unsupported", "not-stated", "unknown"):
        assert f'lj-compat lj-{kind}"' in legend and f'lj-compat lj-{kind}"' in zh_legend, kind
    assert "Not stated&#58; the branch is below the release's minimum" in legend
    assert "未说明：该分支低于版本声明的最低驱动" in zh_legend


# ---------------------------------------------------------------------------
# whole-site scans: every pair the site can show, every cell, checked against the records
# ---------------------------------------------------------------------------


def _ids(side):
    return {e.id for e in side.components}


def _from_list(side, component):
    return any(e.id == component and e.stated_in is StatedIn.component_list for e in side.components)


def test_no_added_or_removed_row_rests_on_an_unknown_side_anywhere(real):
    """Every pair of releases, compared like with like (each image with the same image, each runtime with the
    runtime of the same name): an added or removed row always rests on a complete list of that side."""
    kb, site = real
    names = {c.id: c.name for c in kb.components.values()}
    checked = 0
    for old in kb.releases:
        for new in kb.releases:
            if old.ref == new.ref:
                continue
            for d in compare_releases(old, new, names).pairs:
                a, b = d.old_side, d.new_side
                for c in d.changes:
                    if c.kind is ChangeKind.added:
                        assert a.component_list is ListState.complete, (old.ref, new.ref, c.key)
                        assert c.component not in _ids(a) and _from_list(b, c.component), (old.ref, new.ref, c.key)
                        # a shared list (an image with runtimes) proves no absence against an image without them
                        assert not a.shared_by_runtimes or b.shared_by_runtimes, (old.ref, new.ref, c.key)
                        checked += 1
                    elif c.kind is ChangeKind.removed:
                        assert b.component_list is ListState.complete, (old.ref, new.ref, c.key)
                        assert c.component not in _ids(b) and _from_list(a, c.component), (old.ref, new.ref, c.key)
                        assert not b.shared_by_runtimes or a.shared_by_runtimes, (old.ref, new.ref, c.key)
                        checked += 1
                    elif c.kind is ChangeKind.upgraded:
                        assert c.old and c.new and c.old.split("+")[0] != c.new.split("+")[0], (old.ref, new.ref, c.key)
    assert checked > 0  # the scan saw real additions and removals between complete lists


_ROW = re.compile(r'^\| (?P<name>[^|]+?) \| <span class="lj-change lj-(?P<kind>[a-z-]+)">')


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rendered_changes_pages_have_no_added_or_removed_row_against_an_incomplete_list(real, pages, lang):
    kb, site = real
    by_name = {c.name: c.id for c in kb.components.values()}
    text = pages[lang]["changes"]
    seen = 0
    for family in site.families:
        for record in site.releases_by_family[family.id]:
            view = site.view(record)
            if view.previous is None:
                continue
            section = text.split(f"{{ #{view.anchor} }}")[1].split("\n### ")[0]
            for line in section.splitlines():
                match = _ROW.match(line)
                if not match or match["kind"] not in ("added", "removed"):
                    continue
                other = view.previous if match["kind"] == "added" else record
                component = by_name[re.sub(r"[ （(].*$", "", match["name"])]
                assert other.component_list is ListState.complete, (record.ref, line)
                assert component not in _ids(other), (record.ref, line)
                seen += 1
    assert seen > 0


def test_no_driver_cell_is_more_permissive_than_the_release_or_based_on_a_cut_off_text(real):
    kb, site = real
    from lingjun.checks.core.compat import parse_cuda, toolkit_min_driver

    ref = kb.cuda_drivers.model_dump(mode="json")
    checked = 0
    for ref_id, view in site.views.items():
        driver = view.record.driver
        for branch, cell in view.driver_cells:
            if driver is None:
                assert (cell.compat, cell.reason) == (Compat.not_stated, "not-recorded"), (ref_id, branch)
                continue
            minimum = DriverVersion.parse(driver.minimum).branch
            listed = {f.branch for f in driver.forward_compatibility}
            native_from = toolkit_min_driver(parse_cuda(view.record.cuda), ref).branch
            if branch < minimum:
                # never green below the release's minimum; a cell that runs says what the release needs
                assert cell.compat is not Compat.native and cell.release_minimum == driver.minimum, (ref_id, branch, cell)
                if cell.compat is Compat.minor:
                    assert cell.reason in ("below-release-minimum", "must-upgrade"), (ref_id, branch, cell)
            if cell.compat is Compat.forward:
                # the release's own list, or for a cut-off text the evidence that remains, named in the reason
                assert branch in listed or (driver.text_truncated and "own driver text is cut off" in cell.en), (ref_id, branch)
            if cell.compat is Compat.not_stated and cell.reason == "cut-off":
                # unknown where the release's cut-off word is all that is missing
                assert driver.text_truncated and native_from <= branch < minimum, (ref_id, branch, cell)
            elif cell.compat is Compat.not_stated:
                # or where only forward compatibility could run it and the record does not show the image's cuda-compat
                assert cell.reason == "forward-unconfirmed" and not listed, (ref_id, branch, cell)
            if driver.text_truncated and native_from <= branch < minimum and branch not in listed | set(driver.must_upgrade_branches):
                assert (cell.compat, cell.reason) == (Compat.not_stated, "cut-off"), (ref_id, branch, cell)
            checked += 1
    assert checked > 100


def _release_row(text: str, version: str) -> str:
    """The row of release ``version`` in an HTML table of release rows (its first cell the release link)."""
    return next(row for row in re.findall(r"<tr>\n<td><a href=[^>]*>.*?</tr>", text, re.S)
                if f">{version}</a>" in row.split("</td>")[0])


def _timeline_row(text: str, version: str) -> str:
    """The row of ``version`` in a component page's timeline (an HTML table, its first cell the release link)."""
    return next(row for row in re.findall(r"<tr>\n<td><a href=[^>]*>.*?</tr>", text, re.S)
                if f">{version}</a></td>" in row)


def test_component_timelines_say_not_recorded_for_a_partial_list(pages):
    en = pages["en"]["component:deepspeed"]
    row = _timeline_row(en, "25.06")
    assert "not recorded&#58; the release's component list is partial" in row
    row = _timeline_row(en, "25.07")
    assert "0.16.9+ali" in row
    zh = pages["zh"]["component:deepspeed"]
    assert "未记录：该版本的组件列表不完整" in _timeline_row(zh, "25.06")


def test_release_pages_tell_a_stated_none_from_a_list_not_recorded(pages):
    bug_fixes = pages["en"]["release:training-nv-pytorch:25.02"].split("## Bug fixes")[1].split("##")[0]
    assert "None&#58; the official page says so." in bug_fixes
    # 25.02's usage notes were not captured from its page (not_captured); the NGC 25.01 record simply lists none
    usage = pages["en"]["release:training-nv-pytorch:25.02"].split("## Usage notes")[1].split("##")[0]
    assert "Not recorded from the page&#58; the copy of the official page" in usage
    usage = pages["en"]["release:ngc-pytorch:25.01"].split("## Usage notes")[1].split("##")[0]
    assert "Not recorded&#58; the official page, as recorded here, shows none" in usage
    issues = pages["zh"]["release:training-nv-pytorch:25.03"].split("## 已知问题")[1].split("##")[0]
    assert "无：官方页面注明没有。" in issues
