"""Driver branch x release verdicts, on the fixture records (facts from the 25.03/25.07 pages)."""

from __future__ import annotations

from lingjun.generator.site.driver_matrix import Compat, classify_branch, matrix_branches, toolkit_row
from lingjun.schema.models import DriverRequirement


def cell(kb, ref, branch):
    return classify_branch(kb.release(ref), branch, kb.cuda_drivers)


def test_25_07_on_r570_is_not_stated_because_its_driver_text_is_cut_off(fixture_kb):
    # CUDA 12.8 alone would run on 570.26, but the release asks for R575 and the rest of its text is missing
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 570)
    assert (c.compat, c.minimum, c.reason, c.release_minimum) == (Compat.not_stated, None, "cut-off", "575")


def test_below_the_release_minimum_with_the_whole_text_read_is_unsupported(fixture_kb):
    record = fixture_kb.release("training-nv-pytorch:25.07")
    whole = record.model_copy(update={"driver": record.driver.model_copy(update={"text_truncated": False})})
    for branch in (550, 570):
        c = classify_branch(whole, branch, fixture_kb.cuda_drivers)
        assert (c.compat, c.reason, c.release_minimum) == (Compat.unsupported, "below-release-minimum", "575")
    # an exception the text names still wins over the minimum
    assert classify_branch(whole, 535, fixture_kb.cuda_drivers).compat is Compat.forward


def test_25_07_on_r575_and_r580_is_native(fixture_kb):
    for branch in (575, 580):
        c = cell(fixture_kb, "training-nv-pytorch:25.07", branch)
        assert (c.compat, c.reason) == (Compat.native, "toolkit")


def test_25_07_on_r535_is_forward_compatibility(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 535)
    assert c.compat is Compat.forward
    assert c.minimum == "535.86"


def test_25_07_on_r545_is_unsupported_by_the_records_resolution(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 545)
    assert c.compat is Compat.unsupported
    assert c.reason == "resolution"


def test_must_upgrade_branch_without_resolution(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 560)
    assert c.compat is Compat.unsupported and c.reason == "must-upgrade"


def test_branch_in_minor_range_below_a_cut_off_release_minimum_is_not_stated(fixture_kb):
    # CUDA 12 minor version compatibility would run R550, but the release's own minimum is R575
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 550)
    assert c.compat is Compat.not_stated


def test_minor_compat_only_where_the_release_states_no_higher_minimum(fixture_kb):
    record = fixture_kb.release("training-nv-pytorch:25.07")
    low = record.model_copy(update={"driver": record.driver.model_copy(update={"minimum": "535", "text_truncated": False})})
    c = classify_branch(low, 550, fixture_kb.cuda_drivers)
    assert (c.compat, c.reason) == (Compat.minor, "minor-range")


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
    assert c.compat is Compat.unsupported and c.reason == "below"


def test_ppu_release_has_no_nvidia_verdict(fixture_kb):
    assert cell(fixture_kb, "training-xpu-pytorch:25.05", 570).compat is Compat.unknown


def test_toolkit_row_selection(fixture_kb):
    ref = fixture_kb.cuda_drivers
    assert toolkit_row(ref, "12.8").linux_min_driver == "570.26"
    assert toolkit_row(ref, "12.8.1").linux_min_driver == "570.124.06"
    assert toolkit_row(ref, "12.8.0.038").linux_min_driver == "570.26"
    assert toolkit_row(ref, "12.7") is None


def test_matrix_rows_include_record_branches(fixture_kb):
    branches = matrix_branches(fixture_kb.releases, fixture_kb.driver_branches)
    assert branches == sorted(branches, reverse=True)
    assert {418, 470, 535, 545, 570, 575, 580} <= set(branches)


def test_family_table_drops_only_branches_no_release_is_stated_to_run_on(fixture_kb):
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
    assert 550 in table.not_runnable  # 25.07 does not state it (cut-off text), no other release runs it
    assert table.not_runnable_has_not_stated is True
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
    assert "其中部分分支是未说明而非不支持" in drivers
