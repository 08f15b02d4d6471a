"""Driver branch x release verdicts, on the fixture records (facts from the 25.03/25.07 pages)."""

from __future__ import annotations

from lingjun.generator.site.driver_matrix import Compat, classify_branch, matrix_branches, toolkit_row


def cell(kb, ref, branch):
    return classify_branch(kb.release(ref), branch, kb.cuda_drivers)


def test_25_07_on_r570_is_native_but_below_the_release_minimum(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 570)
    assert c.compat is Compat.native
    assert c.minimum == "570.26"  # CUDA 12.8 GA row of Table 3
    assert c.below_release_minimum is True  # the release asks for R575


def test_25_07_on_r575_and_r580_is_native(fixture_kb):
    for branch in (575, 580):
        c = cell(fixture_kb, "training-nv-pytorch:25.07", branch)
        assert c.compat is Compat.native and not c.below_release_minimum


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


def test_branch_in_minor_range_not_listed_by_the_release(fixture_kb):
    c = cell(fixture_kb, "training-nv-pytorch:25.07", 550)
    assert c.compat is Compat.minor


def test_below_the_minor_range_is_unsupported(fixture_kb):
    c = cell(fixture_kb, "ngc-pytorch:25.02", 515)
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


def test_family_table_drops_only_branches_unsupported_everywhere(fixture_kb):
    from lingjun.generator.site.driver_matrix import family_driver_table
    from lingjun.generator.site.model import build_site_model

    site = build_site_model(fixture_kb)
    table = site.driver_tables["training-nv-pytorch"]
    assert table.branches and table.unsupported_everywhere
    assert set(table.branches) | set(table.unsupported_everywhere) == set(site.branches)
    for branch in table.unsupported_everywhere:
        for record, _ in table.rows:
            assert classify_branch(record, branch, fixture_kb.cuda_drivers).compat is Compat.unsupported
    for index, branch in enumerate(table.branches):
        assert any(cells[index].compat is not Compat.unsupported for _, cells in table.rows), branch
    assert 535 in table.branches  # forward compatibility for 25.07
    assert table.unsupported_labels == [f"R{b}" for b in table.unsupported_everywhere]
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
    dropped = site.driver_tables["training-nv-pytorch"].unsupported_labels
    assert "故未列出：" + "、".join(dropped) in drivers
