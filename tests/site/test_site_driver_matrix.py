"""Driver branch x release cells, on the fixture records (facts from the 25.03/25.07 pages).

Every cell is the shared decision (:func:`lingjun.checks.core.release_compat.release_verdict`
for an up-to-date driver of the branch) relabelled for the page; these tests pin
the readings the site chose, through that shared code.
"""

from __future__ import annotations

from lingjun.checks.core.compat import parse_cuda, toolkit_min_driver
from lingjun.checks.core.release_compat import release_verdict
from lingjun.checks.core.versions import DriverVersion
from lingjun.generator.site.driver_matrix import Compat, classify_branch, matrix_branches
from lingjun.schema.models import DriverRequirement


def cell(kb, ref, branch, data_center=True):
    return classify_branch(kb.release(ref), branch, kb.cuda_drivers, data_center)


def with_driver(record, **update):
    return record.model_copy(update={"driver": record.driver.model_copy(update=update)})


def test_a_cell_is_the_shared_verdict_for_an_up_to_date_driver_of_the_branch(fixture_kb):
    record = fixture_kb.release("training-nv-pytorch:25.07")
    ref = fixture_kb.cuda_drivers.model_dump(mode="json")
    for branch in (580, 575, 570, 560, 550, 545, 535, 520, 470):
        for dc in (True, False):
            shared = release_verdict(record.model_dump(mode="json"), DriverVersion.parse(f"R{branch}"[1:]), dc, ref)
            c = classify_branch(record, branch, fixture_kb.cuda_drivers, dc)
            assert (c.verdict, c.en, c.zh, c.release_minimum) == (shared.verdict, shared.en, shared.zh, shared.release_minimum)


def test_25_07_on_r570_is_not_stated_because_its_driver_text_is_cut_off(fixture_kb):
    # CUDA 12.8 runs natively from 570.26, but the release asks for R575 and the rest of its text is missing
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 570)
    assert (c.compat, c.minimum, c.reason, c.release_minimum) == (Compat.not_stated, None, "cut-off", "575")
    assert "whether it admits R570 is not stated" in c.en and "是否允许 R570 未说明" in c.zh


def test_below_the_release_minimum_with_the_whole_text_read_is_never_native_and_says_what_the_release_needs(fixture_kb):
    whole = with_driver(fixture_kb.release("training-nv-pytorch:25.07"), text_truncated=False)
    for branch in (550, 565, 570):
        c = classify_branch(whole, branch, fixture_kb.cuda_drivers)
        # CUDA starts (570: natively by NVIDIA's Table 3; 550, 565: minor version compatibility), the release asks for 575
        assert (c.compat, c.reason, c.release_minimum) == (Compat.minor, "below-release-minimum", "575"), branch
    assert "validated only from 575 on" in classify_branch(whole, 570, fixture_kb.cuda_drivers).en
    # an exception the text names still wins over the minimum
    assert classify_branch(whole, 535, fixture_kb.cuda_drivers).compat is Compat.forward


def test_25_07_on_r575_and_r580_is_native(fixture_kb):
    for branch in (575, 580):
        c = cell(fixture_kb, "training-nv-pytorch:25.07", branch)
        assert (c.compat, c.reason, c.release_minimum) == (Compat.native, "native", None)


def test_25_07_on_r535_is_forward_compatibility_on_data_center_gpus_only(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 535)
    assert c.compat is Compat.forward
    assert c.minimum == "535.86"
    other = cell(fixture_kb, "training-nv-pytorch:25.07", 535, data_center=False)
    assert (other.compat, other.reason) == (Compat.minor, "below-release-minimum")
    assert cell(fixture_kb, "training-nv-pytorch:25.07", 470, data_center=False).compat is Compat.unsupported


def test_25_07_on_r545_follows_the_records_resolution_never_forward(fixture_kb):
    # listed both as forward compatible and as must-upgrade, resolved must-upgrade: no forward compatibility, and a
    # branch the release says to upgrade is not supported, although NVIDIA's CUDA 12.x minor version compatibility
    # (>= 525.60.13) would let it start
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 545)
    assert (c.compat, c.reason, c.release_minimum) == (Compat.unsupported, "must-upgrade", "575")
    assert c.en.startswith("Not supported:") and "the release lists R545 as a branch to upgrade" in c.en
    assert "525.60.13" in c.en and c.zh.startswith("不支持：")


def test_must_upgrade_branch_without_resolution(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 560)
    assert (c.compat, c.reason) == (Compat.unsupported, "must-upgrade")
    # below the minor version compatibility floor the release's upgrade list and NVIDIA's tables agree: unsupported
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 520)
    assert (c.compat, c.reason) == (Compat.unsupported, "below-floor")


def test_a_cut_off_text_leaves_open_only_what_nvidias_tables_do_not_decide(fixture_kb):
    record = fixture_kb.release("training-nv-pytorch:25.07")
    bare = with_driver(record, forward_compatibility=[], must_upgrade_branches=[], branch_resolutions=[])
    ref = fixture_kb.cuda_drivers
    # between the CUDA 12.x floor (525.60.13) and the toolkit's 570.26: known to start with limits
    assert classify_branch(bare, 550, ref).compat is Compat.minor
    # below the floor, on a branch no source admits for forward compatibility: known not to start
    assert (classify_branch(bare, 520, ref).compat, classify_branch(bare, 520, ref).reason) == (Compat.unsupported, "below-floor")
    # from the toolkit's own minimum on, only the release's word is missing: not stated
    assert classify_branch(bare, 570, ref).compat is Compat.not_stated
    # with the whole text read, the same branch starts but below the release's minimum
    assert classify_branch(with_driver(bare, text_truncated=False), 570, ref).compat is Compat.minor


def test_minor_compat_where_the_release_states_no_higher_minimum(fixture_kb):
    low = with_driver(fixture_kb.release("training-nv-pytorch:25.07"), minimum="535", text_truncated=False)
    c = classify_branch(low, 550, fixture_kb.cuda_drivers)
    assert (c.compat, c.reason, c.release_minimum) == (Compat.minor, "minor", None)


def test_a_release_without_a_driver_requirement_gets_no_verdict_on_any_branch(fixture_kb):
    # without the release's own minimum the toolkit table alone would claim native / minor compat
    record = fixture_kb.release("training-nv-pytorch:25.07")
    no_driver = record.model_copy(update={"driver": None})
    cells = {b: classify_branch(no_driver, b, fixture_kb.cuda_drivers) for b in (580, 575, 570, 550, 535, 470)}
    assert {b: (c.compat, c.reason, c.minimum) for b, c in cells.items()} == {
        b: (Compat.not_stated, "not-recorded", None) for b in cells}


def test_below_the_minor_range_is_unsupported(fixture_kb):
    record = fixture_kb.release("ngc-pytorch:25.02")
    stated = record.model_copy(update={"driver": DriverRequirement(vendor="nvidia", minimum="450")})
    c = classify_branch(stated, 515, fixture_kb.cuda_drivers)
    assert (c.compat, c.reason) == (Compat.unsupported, "below-floor")


def test_ppu_release_is_not_for_nvidia_gpus(fixture_kb):
    c = cell(fixture_kb, "training-xpu-pytorch:25.05", 570)
    assert (c.compat, c.reason) == (Compat.unsupported, "ppu")


def test_no_reference_row_is_unknown(fixture_kb):
    # a CUDA major NVIDIA's tables have no row or floor for (a driver newer than a listed toolkit would decide it)
    record = fixture_kb.release("training-nv-pytorch:25.07").model_copy(update={"cuda": "14.1"})
    c = classify_branch(record, 580, fixture_kb.cuda_drivers)
    assert (c.compat, c.verdict) == (Compat.unknown, "not-stated")


def test_toolkit_row_selection(fixture_kb):
    ref = fixture_kb.cuda_drivers.model_dump(mode="json")
    assert str(toolkit_min_driver(parse_cuda("12.8"), ref)) == "570.26"
    assert str(toolkit_min_driver(parse_cuda("12.8.1"), ref)) == "570.124.06"
    assert str(toolkit_min_driver(parse_cuda("12.8.0.038"), ref)) == "570.26"
    assert toolkit_min_driver(parse_cuda("12.7"), ref) is None


def test_matrix_rows_include_record_branches(fixture_kb):
    branches = matrix_branches(fixture_kb.releases, fixture_kb.driver_branches)
    assert branches == sorted(branches, reverse=True)
    assert {418, 470, 535, 545, 570, 575, 580} <= set(branches)


def test_family_table_drops_only_branches_no_release_starts_on(fixture_kb):
    from lingjun.generator.site.driver_matrix import family_driver_table, permits
    from lingjun.generator.site.model import build_site_model

    site = build_site_model(fixture_kb)
    table = site.driver_tables["training-nv-pytorch"]
    assert table.branches and table.not_runnable
    assert set(table.branches) | set(table.not_runnable) == set(site.branches)
    for branch in table.not_runnable:
        for record, _ in table.rows:
            assert classify_branch(record, branch, fixture_kb.cuda_drivers).compat in (Compat.unsupported, Compat.not_stated)
    for index, branch in enumerate(table.branches):
        assert any(permits(cells[index]) for _, cells in table.rows), branch
    assert 535 in table.branches  # forward compatibility for 25.07
    assert 550 in table.branches  # minor version compatibility below the release minimum: starts, with limits
    assert 520 in table.not_runnable  # below the CUDA 12.x floor for every release
    assert table.not_runnable_labels == [f"R{b}" for b in table.not_runnable]
    assert site.driver_tables["training-xpu-pytorch"].rows == ()
    assert family_driver_table([]).branches == ()


def test_wide_pages_hide_the_navigation(fixture_kb):
    from lingjun.generator.site.model import build_site_model
    from lingjun.generator.site.render import render_pages

    site = build_site_model(fixture_kb)
    pages = {p.id: t for p, t in render_pages(site, "zh")}
    for page_id in ("matrix", "drivers", "compare", "component:vllm"):
        front = pages[page_id].split("---")[1]
        assert "hide:\n  - navigation" in front, page_id
    drivers = pages["drivers"]
    dropped = site.driver_tables["training-nv-pytorch"].not_runnable_labels
    assert "故未列出：" + "、".join(dropped) in drivers
    # ngc-pytorch 25.02 records no driver requirement (every cell not stated); training-nv-pytorch's dropped
    # branches are below the CUDA 12.x floor for every release (unsupported)
    assert site.driver_tables["ngc-pytorch"].not_runnable_has_not_stated is True
    assert site.driver_tables["training-nv-pytorch"].not_runnable_has_not_stated is False
    assert drivers.count("其中部分分支是未说明而非不支持") == 1


def test_the_memo_shares_cells_only_between_releases_with_the_same_cuda_and_driver(fixture_kb):
    from lingjun.generator.site.driver_matrix import branch_cells

    record = fixture_kb.release("training-nv-pytorch:25.07")
    whole = with_driver(record, text_truncated=False)
    twin = whole.model_copy(update={"version": "25.99"})
    memo = {}
    first = branch_cells(whole, [575, 570], fixture_kb.cuda_drivers, memo=memo)
    assert branch_cells(twin, [575, 570], fixture_kb.cuda_drivers, memo=memo) == first
    assert len(memo) == 1
    cut = branch_cells(record, [575, 570], fixture_kb.cuda_drivers, memo=memo)
    assert [c.compat for _, c in first] == [Compat.native, Compat.minor]
    assert [c.compat for _, c in cut] == [Compat.native, Compat.not_stated]
    assert len(memo) == 2
    # a cut-off driver text's reasons name the release ("25.07's own driver text is cut off"): no sharing
    branch_cells(record.model_copy(update={"version": "25.98"}), [575, 570], fixture_kb.cuda_drivers, memo=memo)
    assert len(memo) == 3
