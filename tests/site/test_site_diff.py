"""What changed between releases, and the compare page data."""

from __future__ import annotations

from lingjun.generator.site.diff import ChangeKind, diff_releases
from lingjun.generator.site.model import build_site_model


def changes(diff):
    return {c.component: (c.kind, c.old, c.new) for c in diff.changes}


def test_consecutive_releases(fixture_kb):
    d = diff_releases(fixture_kb.release("training-nv-pytorch:25.02"), fixture_kb.release("training-nv-pytorch:25.03"))
    assert d.comparable
    got = changes(d)
    assert got["torch"] == (ChangeKind.upgraded, "2.5.1.6.post2", "2.6.0.7")
    assert got["vllm"] == (ChangeKind.upgraded, "0.7.2", "0.8.2.dev0+g61c7a1b8.d20250325.cu128")
    assert got["transformer-engine"] == (ChangeKind.upgraded, "1.13.0", "2.1")
    assert got["deepspeed"][0] is ChangeKind.unchanged
    assert d.counts["upgraded"] == 5


def test_reverse_order_is_a_downgrade(fixture_kb):
    d = diff_releases(fixture_kb.release("training-nv-pytorch:25.07"), fixture_kb.release("training-nv-pytorch:25.03"))
    assert changes(d)["ray"] == (ChangeKind.downgraded, "2.47.1", "2.44.0")


def test_added_and_removed_across_families(fixture_kb):
    d = diff_releases(fixture_kb.release("training-xpu-pytorch:25.05"), fixture_kb.release("training-nv-pytorch:25.07"))
    got = changes(d)
    assert got["accl-n"] == (ChangeKind.added, None, "2.27.5.14")
    d2 = diff_releases(fixture_kb.release("training-nv-pytorch:25.07"), fixture_kb.release("training-xpu-pytorch:25.05"))
    assert changes(d2)["accl-n"] == (ChangeKind.removed, "2.27.5.14", None)


def test_missing_component_list_is_not_comparable(fixture_kb):
    d = diff_releases(fixture_kb.release("training-nv-pytorch:25.03"), fixture_kb.release("training-nv-pytorch:25.06"))
    assert not d.comparable and d.changes == []


def test_versions_compare_as_pep440_not_text(fixture_kb):
    site = build_site_model(fixture_kb)
    ranks = site.compare_data["ranks"]["ray"]
    # 2.47.1 > 2.44.0 > 2.42.1
    assert ranks["2.47.1"] > ranks["2.44.0"] > ranks["2.42.1"]
    ranks = site.compare_data["ranks"]["transformer-engine"]
    assert ranks["2.3.0+5de3e14"] > ranks["2.1"] > ranks["1.13.0"]


def test_compare_data_lists_every_release(fixture_kb):
    site = build_site_model(fixture_kb)
    refs = [r["ref"] for r in site.compare_data["releases"]]
    assert sorted(refs) == sorted(r.ref for r in fixture_kb.releases)
    listed = {r["ref"]: r["listed"] for r in site.compare_data["releases"]}
    assert listed["training-nv-pytorch:25.06"] is False
    assert site.compare_data["versions"]["training-nv-pytorch:25.07"]["torch"] == "2.7.1.8+nv25.3"
