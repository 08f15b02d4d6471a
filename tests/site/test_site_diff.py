"""What changed between releases, and the compare page data."""

from __future__ import annotations

from lingjun.generator.site.diff import ChangeKind, diff_releases, table_kind, version_kind_table, version_kind_text
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
    kinds = site.compare_data["kinds"]["ray"]
    # 2.47.1 > 2.44.0 > 2.42.1 (as text "2.44.0" > "2.42.1" holds too, "2.47.1" vs "2.44.0" as well: check both ways)
    assert table_kind(kinds, "2.44.0", "2.47.1") == table_kind(kinds, "2.42.1", "2.44.0") == "upgraded"
    assert table_kind(kinds, "2.47.1", "2.42.1") == "downgraded"
    assert kinds["order"] == {"2.42.1": 0, "2.44.0": 1, "2.47.1": 2}
    kinds = site.compare_data["kinds"]["transformer-engine"]
    assert table_kind(kinds, "2.1", "2.3.0+5de3e14") == table_kind(kinds, "1.13.0", "2.1") == "upgraded"


def test_compare_data_lists_every_release(fixture_kb):
    site = build_site_model(fixture_kb)
    refs = [r["ref"] for r in site.compare_data["releases"]]
    assert sorted(refs) == sorted(r.ref for r in fixture_kb.releases)
    listed = {r["ref"]: r["listed"] for r in site.compare_data["releases"]}
    assert listed["training-nv-pytorch:25.06"] is False
    assert site.compare_data["versions"]["training-nv-pytorch:25.07"]["torch"] == "2.7.1.8+nv25.3"


def _with_components(record, components):
    from lingjun.schema.models import ComponentEntry

    return record.model_copy(update={"components": [ComponentEntry(**c) for c in components]})


def _split_pair(fixture_kb):
    """25.09 -> 25.10 in miniature: triton once for all, then per architecture under two names."""
    base = fixture_kb.release("training-nv-pytorch:25.07")
    old = _with_components(base, [
        {"id": "triton", "name": "triton", "version": "3.4.0"},
        {"id": "perf", "name": "perf", "version": "5.4.30"},
        {"id": "ray", "name": "ray", "version": "2.49.2"},
    ])
    new = _with_components(base, [
        {"id": "triton", "name": "pytorch-triton", "version": "3.4.0", "architectures": ["aarch64"]},
        {"id": "triton", "name": "triton", "version": "3.5.0", "architectures": ["amd64"]},
        {"id": "perf", "name": "perf", "version": "5.4.30", "architectures": ["amd64"]},
        {"id": "ray", "name": "ray", "version": "2.50.1"},
    ])
    return old, new


def test_architecture_split_is_not_removed_plus_added(fixture_kb):
    from lingjun.generator.site.diff import ArchSplit

    old, new = _split_pair(fixture_kb)
    d = diff_releases(old, new)
    rows = {c.key: (c.kind, c.old, c.new, c.arch_split, c.old_name, c.name) for c in d.changes}
    assert rows == {
        "perf@amd64": (ChangeKind.unchanged, "5.4.30", "5.4.30", ArchSplit.split, "perf", "perf"),
        "ray": (ChangeKind.upgraded, "2.49.2", "2.50.1", None, "ray", "ray"),
        "triton@aarch64": (ChangeKind.unchanged, "3.4.0", "3.4.0", ArchSplit.split, "triton", "pytorch-triton"),
        "triton@amd64": (ChangeKind.upgraded, "3.4.0", "3.5.0", ArchSplit.split, "triton", "triton"),
    }
    assert d.counts["added"] == 0 and d.counts["removed"] == 0
    # an unchanged split is still worth a row in "what changed"
    assert [c.key for c in d.changes if c.notable] == ["perf@amd64", "ray", "triton@aarch64", "triton@amd64"]


def test_architecture_merge_in_reverse(fixture_kb):
    from lingjun.generator.site.diff import ArchSplit

    old, new = _split_pair(fixture_kb)
    rows = {c.key: (c.kind, c.old, c.new, c.arch_split) for c in diff_releases(new, old).changes}
    assert rows["triton@amd64"] == (ChangeKind.downgraded, "3.5.0", "3.4.0", ArchSplit.merged)
    assert rows["triton@aarch64"] == (ChangeKind.unchanged, "3.4.0", "3.4.0", ArchSplit.merged)


def test_same_architecture_lists_compare_per_architecture(fixture_kb):
    old, new = _split_pair(fixture_kb)
    d = diff_releases(new, new)
    assert all(c.kind is ChangeKind.unchanged and c.arch_split is None for c in d.changes)
    # a component dropped from one architecture's list is a removal for that architecture only
    fewer = _with_components(new, [c.model_dump() for c in new.components if c.name != "pytorch-triton"])
    rows = {c.key: (c.kind, c.arch_split) for c in diff_releases(new, fewer).changes}
    assert rows["triton@aarch64"] == (ChangeKind.removed, None)
    assert rows["triton@amd64"] == (ChangeKind.unchanged, None)


def test_changes_page_shows_the_split(fixture_kb):
    from lingjun.generator.site.render import render_pages

    old, new = _split_pair(fixture_kb)
    site = build_site_model(fixture_kb)
    view = site.views["training-nv-pytorch:25.07"]
    names = {c.id: c.name for c in fixture_kb.components.values()}
    view.diff = diff_releases(old, new, names)  # the changes page shows 25.07 with the split pair's diff
    pages = {page.id: text for page, text in render_pages(site, "en")}
    text = pages["changes"]
    # one display name per row: triton is not in the fixture catalog, so the newer side's published name
    assert "| pytorch-triton (aarch64) | <span class=\"lj-change lj-split\">now listed per architecture</span> | 3.4.0 | 3.4.0 |" in text
    assert "| perf (amd64) | <span class=\"lj-change lj-split\">now listed per architecture</span> | 5.4.30 | 5.4.30 |" in text
    assert "lj-removed" not in text.split("### training-nv-pytorch 25.07")[1].split("###")[0]
    zh = {page.id: text for page, text in render_pages(site, "zh")}["changes"]
    assert "| pytorch-triton（aarch64）| <span class=\"lj-change lj-split\">改为按架构分别列出</span> | 3.4.0 | 3.4.0 |" in zh
    assert "triton → pytorch-triton" not in text


def test_compare_kinds_are_per_component_across_architectures():
    """On the real records: 25.10's per-architecture triton entries compare with 25.09's single one."""
    from site_kit import REPO
    from lingjun.generator.site.build import load_validated

    site = build_site_model(load_validated(REPO / "releases"))
    data = site.compare_data
    assert data["versions"]["training-nv-pytorch:25.10"]["triton@aarch64"] == "3.4.0"
    assert data["versions"]["training-nv-pytorch:25.09"]["triton"] == "3.4.0"
    assert "triton@aarch64" not in data["kinds"]
    assert table_kind(data["kinds"]["triton"], "3.3.0", "3.4.0") == "upgraded"


#: versions whose pairs the ranks alone get wrong (precision, build tags, spellings, not PEP 440)
_TRICKY = ["12.8", "12.8.0", "12.8.0.38", "12.8.1", "12.9", "1!12.8", "2.3.0+5de3e14", "2.3.0+5de3e148", "2.3.0",
           "2.7.0a0+6c54963f75", "2.7.0a0+7c8ec84dab", "2.7.0", "1.0a1", "1.0-a1", "1.0.0-a1", "0.8.5+cu128", "0.8.5",
           "15.0.50", "15.0.50.20240403-git", "not-a-version", "__proto__"]


def test_the_linear_kind_table_gives_every_pair_as_version_change(real):
    """The compare page's table (ranks + special pairs) reads back version_change for every ordered pair."""
    kb, site = real
    groups = {key: set() for key in site.compare_data["kinds"]}
    for record in kb.releases:
        for entry in record.components:
            groups[entry.id].add(entry.version)
    groups["tricky"] = set(_TRICKY)
    checked = 0
    for key, versions in groups.items():
        table = site.compare_data["kinds"].get(key) or version_kind_table(versions)
        for old in versions:
            for new in versions:
                if old != new:
                    assert table_kind(table, old, new) == version_kind_text(old, new), (key, old, new)
                    checked += 1
    assert checked > 700  # the real records give over 300 pairs, the tricky list 420
    tricky = version_kind_table(_TRICKY)
    assert tricky["special"]["12.8.1"]["12.8"] == "less-precise"
    assert tricky["special"]["2.3.0+5de3e14"]["2.3.0+5de3e148"] == "build-tag-longer"
    assert "not-a-version" not in tricky["order"] and tricky["order"]["1.0a1"] == tricky["order"]["1.0-a1"]


def test_the_kind_table_grows_linearly_with_the_versions():
    """1,000 distinct versions give 1,000 ranks and no special pair, not a million pairs."""
    versions = [f"0.{i // 7}.{i % 7}" for i in range(1000)]
    table = version_kind_table(versions)
    assert len(table["order"]) == 1000 and table["special"] == {}
    assert table_kind(table, "0.3.6", "0.4.0") == "upgraded" and table_kind(table, "0.4.0", "0.3.6") == "downgraded"
