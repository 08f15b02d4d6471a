"""Rows and sentences that never claim more than the records show (issue 7, second review).

* a component a record names in ``presence_unknown`` is never added or removed;
* a page's "new" mark is shown only against the newer release's direct
  predecessor in its family, never across families;
* each not-compared sentence names its real reason;
* version rows say what the two strings show (a build, a precision), never a
  downgrade that is only a shorter spelling;
* the same kinds in compare.js (run under node) as in the per-release diff, and
  a message instead of a TypeError for an address naming no release.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from lingjun.generator.site.build import load_validated
from lingjun.generator.site.diff import ChangeKind, NotRecorded, build_tag_change, diff_releases, version_change
from lingjun.generator.site.model import MATRIX_COLUMNS, build_site_model
from lingjun.generator.site.render import render_pages

REPO = Path(__file__).resolve().parents[2]
COMPARE_JS = REPO / "generator" / "site" / "theme" / "assets" / "lingjun" / "compare.js"
RUNNER = Path(__file__).parent / "js" / "run_compare.js"


def _rows(diff):
    return {c.key: (c.kind, c.old, c.new, c.not_recorded_reason) for c in diff.changes}


# --- 1. presence unknown ------------------------------------------------------------------------


def test_accl_n_whose_presence_25_09_leaves_unknown_is_not_removed(real):
    _, site = real
    diff = site.views["training-nv-pytorch:25.09"].diff
    assert _rows(diff)["accl-n"] == (ChangeKind.not_recorded_new, "2.27.5.14", None, NotRecorded.presence_unknown)
    assert diff.counts["removed"] == 0


def test_presence_unknown_holds_against_any_release_and_in_both_directions(real):
    kb, _ = real
    r2504, r2510 = kb.release("training-nv-pytorch:25.04"), kb.release("training-nv-pytorch:25.10")
    assert _rows(diff_releases(r2504, r2510))["accl-n"][0] is ChangeKind.not_recorded_new
    assert _rows(diff_releases(r2510, r2504))["accl-n"] == (
        ChangeKind.not_recorded_old, None, "2.23.4.12", NotRecorded.presence_unknown)


def test_changes_and_release_pages_do_not_count_accl_n_removed(pages):
    en = pages["en"]["changes"].split("### training-nv-pytorch 25.09")[1].split("###")[0]
    assert "lj-removed" not in en
    assert "Not compared&#58; the sources leave open whether 25.09 still ships these (see its source conflicts)&#58; " \
           "ACCL-N." in en
    zh = pages["zh"]["changes"].split("### training-nv-pytorch 25.09")[1].split("###")[0]
    assert "未比较：现有来源无法确定 25.09 是否仍包含以下组件（见其来源冲突说明）：ACCL-N。" in zh
    release = pages["en"]["release:training-nv-pytorch:25.09"].split("## What changed")[1].split("##")[0]
    assert ", 0 removed, " in release


# --- 2. "new" only against the direct predecessor -----------------------------------------------


def _marked_new(record, component):
    """``record`` as if its page called ``component`` new (25.07's page says only "support for" PEFT)."""
    entries = [e.model_copy(update={"introduced": True}) if e.id == component else e for e in record.components]
    return record.model_copy(update={"components": entries})


def test_new_mark_shows_only_against_the_direct_predecessor(real):
    kb, site = real
    r2504, r2506 = (kb.release(f"training-nv-pytorch:{v}") for v in ("25.04", "25.06"))
    # 25.07's page says "support for" PEFT, not "new": against 25.06's partial list it is not compared
    assert _rows(site.views["training-nv-pytorch:25.07"].diff)["peft"][0] is ChangeKind.not_recorded_old
    r2507 = _marked_new(kb.release("training-nv-pytorch:25.07"), "peft")
    assert _rows(diff_releases(r2506, r2507, direct=True))["peft"][0] is ChangeKind.introduced
    # 25.04's complete list has PEFT: a plain upgrade, whatever 25.07's page calls it
    assert _rows(diff_releases(r2504, r2507, direct=False))["peft"][0] is ChangeKind.upgraded
    # the same pair without the family order given: never "new"
    assert _rows(diff_releases(r2506, r2507))["peft"][0] is ChangeKind.not_recorded_old


def test_cross_family_diff_never_says_new_as_the_page_states(real):
    kb, _ = real
    ngc, ours = kb.release("ngc-pytorch:25.03"), kb.release("training-nv-pytorch:25.07")
    rows = _rows(diff_releases(ngc, ours, direct=True))  # direct is ignored across families
    assert not [k for k, v in rows.items() if v[0] is ChangeKind.introduced]
    assert rows["peft"] == (ChangeKind.not_recorded_old, None, "0.16.0", NotRecorded.list_state)


def test_compare_data_names_each_releases_direct_predecessor(real):
    _, site = real
    releases = {r["ref"]: r for r in site.compare_data["releases"]}
    assert releases["training-nv-pytorch:25.07"]["previous"] == "training-nv-pytorch:25.06"
    assert releases["training-nv-pytorch:25.02"]["previous"] is None
    assert releases["training-nv-pytorch:25.09"]["unknown"] == ["accl-n"]


# --- 3. reasons worded correctly ----------------------------------------------------------------


def test_cudnn_from_25_02s_features_text_is_not_blamed_on_25_03s_complete_list(real, pages):
    _, site = real
    assert _rows(site.views["training-nv-pytorch:25.03"].diff)["cudnn"] == (
        ChangeKind.not_recorded_new, "9.7.0.66", None, NotRecorded.outside_list)
    en = pages["en"]["changes"].split("### training-nv-pytorch 25.03")[1].split("###")[0]
    assert "component list is complete, so it does not show" not in en
    assert ("Not compared&#58; 25.02 names these only in its features or driver text, not in a component list, "
            "so 25.03's component list does not show whether they were in it&#58; cuDNN.") in en
    zh = pages["zh"]["changes"].split("### training-nv-pytorch 25.03")[1].split("###")[0]
    assert "组件列表完整，无法判断" not in zh
    assert "未比较：25.02 仅在特性或驱动说明中提到以下组件，而非在组件列表中，因此无法从 25.03 的组件列表判断其中是否包含它们：cuDNN。" in zh


# --- 4. version kinds ---------------------------------------------------------------------------


@pytest.mark.parametrize("old,new,kind,tag", [
    ("12.8.1", "12.8", ChangeKind.less_precise, None),
    ("12.8.0.038", "12.8.0", ChangeKind.less_precise, None),
    ("12.8.0", "12.8", ChangeKind.less_precise, None),
    ("12.8", "12.8.1", ChangeKind.more_precise, None),
    ("2.43", "2.43.0", ChangeKind.more_precise, None),
    ("2.7.0a0+6c54963f75", "2.7.0a0+7c8ec84dab", ChangeKind.build_tag, "changed"),
    ("2.3.0+5de3e14", "2.3.0+5de3e148", ChangeKind.build_tag, "longer"),
    ("2.3.0+5de3e148", "2.3.0+5de3e14", ChangeKind.build_tag, "shorter"),
    ("2.7.1.8", "2.7.1.8+nv25.3", ChangeKind.build_tag, "added"),
    ("0.8.5+cu128", "0.8.5", ChangeKind.build_tag, "removed"),
    ("12.8.1", "12.8.0", ChangeKind.downgraded, None),
    ("12.8.1", "12.9", ChangeKind.upgraded, None),
    ("2.7.0a0+6c54963f75", "2.7.0", ChangeKind.upgraded, None),
    ("15.0.50", "15.0.50.20240403-git", ChangeKind.changed, None),
    ("3.4.0", "3.4.0", ChangeKind.unchanged, None),
])
def test_version_change_kinds(old, new, kind, tag):
    assert version_change(old, new) is kind
    assert build_tag_change(old, new) == tag


def test_version_rows_on_the_changes_page_say_what_the_strings_show(pages):
    en = pages["en"]["changes"]
    ngc = en.split("{ #ngc-pytorch-25-03 }")[1].split("###")[0]
    assert "| PyTorch | <span class=\"lj-change lj-build-tag\">same version number, different build</span> | " \
           "2.7.0a0+6c54963f75 | 2.7.0a0+7c8ec84dab |" in ngc
    te = en.split("### training-nv-pytorch 25.09")[1].split("###")[0]
    assert "| Transformer Engine | <span class=\"lj-change lj-build-tag\">same version number, build tag written with " \
           "more digits (likely the same build)</span> | 2.3.0+5de3e14 | 2.3.0+5de3e148 |" in te
    assert "same release" not in en


# --- 10. names and order ------------------------------------------------------------------------


def test_rows_are_sorted_by_display_name(real):
    _, site = real
    names = [c.name for c in site.views["training-nv-pytorch:25.09"].diff.changes]
    assert names == sorted(names, key=str.casefold)
    assert names.index("PyTorch") < names.index("Ray") < names.index("timm") < names.index("Transformer Engine")


def test_matrix_header_uses_the_catalog_name(real, pages):
    kb, _ = real
    te = next(c for c in MATRIX_COLUMNS if c.id == "te")
    assert te.title == kb.components["transformer-engine"].name == "Transformer Engine"
    assert "TransformerEngine" not in pages["en"]["matrix"]


# --- 8. one wording per kind --------------------------------------------------------------------


def test_not_recorded_and_stated_none_read_the_same_in_every_section(pages):
    for lang, none, missing in (("en", "None&#58; the official page says so.", "Not recorded&#58; the official page, as recorded here"),
                                ("zh", "无：官方页面注明没有。", "未记录：本站记录的官方页面内容中未显示此项")):
        for ref, section in (("training-nv-pytorch:25.03", "known_issues"), ("training-nv-pytorch:25.02", "bug_fixes")):
            page = pages[lang][f"release:{ref}"]
            assert none in page or missing in page
        text = "\n".join(pages[lang].values())
        for stale in ("No known issue is recorded for this release", "none is recorded here", "本版本没有记录已知问题",
                      "本站也没有记录"):
            assert stale not in text


# --- 9. no English sentences on Chinese pages ---------------------------------------------------

#: words allowed in Chinese prose: product and project names, identifiers quoted from pages or NVIDIA
_NAMES = re.compile(r"NVIDIA(?: [A-Z][A-Za-z]+)*|PyTorch(?: [A-Za-z]+)*|Triton Inference Server|Transformers Trainer API|"
                    r"Container Compute Service|PyTorch Image Models|NGC Server Ready RTX|an illegal memory access was "
                    r"encountered|no kernel image is available for execution on the device")


def _source_titles(kb) -> list[str]:
    """Titles of the official pages the records cite, as the pages print them (an English page keeps its English
    title on a Chinese page: a name quoted, not prose), longest first."""
    sources = list(kb.catalog_sources)
    for family in kb.families.values():
        sources += family.sources + [s for u in family.unrecorded_releases for s in u.named_in]
    for record in kb.releases:
        sources += record.sources
    return sorted({s.title for s in sources if s.title}, key=len, reverse=True)


def test_chinese_release_and_list_pages_have_no_english_sentences(real, pages):
    found = []
    titles = _source_titles(real[0])
    for page_id, text in pages["zh"].items():
        if page_id.startswith("troubleshooting"):
            continue  # error lines, quoted as printed, are its subject (test_site_troubleshooting_pages checks its Chinese)
        # script data (the finder's JSON: GPU model names) is not prose
        body = re.sub(r"<script[^>]*>.*?</script>|<code>.*?</code>|`[^`]*`|\]\([^)]*\)|<[^>]+>|^---.*?---", " ", text, flags=re.S)
        for title in titles:
            body = body.replace(title, " ")
        body = _NAMES.sub(" ", body)
        for match in re.finditer(r"[A-Za-z][A-Za-z'_-]*(?:[ ,;:]+[A-Za-z][A-Za-z'_-]*){2,}", body):
            if not re.fullmatch(r"[a-z]+(?: [a-z]+)* GPU", match.group()):
                found.append((page_id, match.group()))
    assert found == []


def test_chinese_pages_use_one_term_for_forward_compatibility_and_no_field_names(pages):
    zh = "\n".join(pages["zh"].values())
    assert "前向兼容" not in zh and "向前兼容" in zh  # Alibaba's pages say 向前兼容
    for lang in ("en", "zh"):
        text = "\n".join(pages[lang].values())
        assert "forward_compat_images" not in text and "branch_resolutions" not in text
    page = pages["zh"]["release:training-nv-pytorch:25.09"]
    assert "处理结论 R545：**必须升级**" in page
    assert "R545 在 545.23 及以上版本可用" in page and "545.23 or later" not in page


# --- 11 and the same kinds in compare.js ---------------------------------------------------------


def _labels(page: str) -> dict[str, str]:
    div = page.split('<div id="lj-compare"')[1].split(">")[0]
    return {k: html.unescape(v) for k, v in re.findall(r'data-label-([a-z-]+)="([^"]*)"', div)}


@pytest.fixture(scope="module")
def compare(real, pages, tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    _, site = real
    folder = tmp_path_factory.mktemp("compare")
    data, labels = folder / "data.json", folder / "labels.json"
    data.write_text(json.dumps(site.compare_data), encoding="utf-8")
    labels.write_text(json.dumps(_labels(pages["en"]["compare"])), encoding="utf-8")

    def run(search: str, pick: str = "") -> dict:
        done = subprocess.run([node, str(RUNNER), str(COMPARE_JS), str(data), str(labels), search, pick],
                              capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout)

    return run


def test_compare_js_unknown_release_in_the_address_gets_a_message(compare):
    result = compare("?old=no-such:1.0&new=training-nv-pytorch:25.09")
    assert result["error"] is None
    assert result["message"] == "The address names a release this site does not have; pick one from the lists."
    assert result["rows"] == []


def test_compare_js_writes_the_selection_back_to_the_address(compare):
    """Reading ?old=&new= on load and writing every pick back (history.replaceState): a comparison can be shared."""
    loaded = compare("?old=training-nv-pytorch:25.06&new=training-nv-pytorch:25.07")
    assert loaded["urls"] == ["/compare/?old=training-nv-pytorch%3A25.06&new=training-nv-pytorch%3A25.07"]
    picked = compare("?old=training-nv-pytorch:25.06&new=training-nv-pytorch:25.07", "old=training-nv-pytorch:25.02")
    assert picked["urls"][-1] == "/compare/?old=training-nv-pytorch%3A25.02&new=training-nv-pytorch%3A25.07"
    assert any(r[0] == "PEFT" for r in picked["rows"])  # the table shows the new pair
    fresh = compare("")  # no selection in the address: the default pair is written
    assert len(fresh["urls"]) == 1 and fresh["urls"][0].startswith("/compare/?old=") and "&new=" in fresh["urls"][0]
    unknown = compare("?old=no-such:1.0&new=training-nv-pytorch:25.09")  # a bad address is left for the reader to see
    assert unknown["urls"] == []


def test_compare_js_agrees_with_the_diff_on_presence_and_reasons(compare):
    result = compare("?old=training-nv-pytorch:25.08&new=training-nv-pytorch:25.09")
    assert result["error"] is None
    assert not [r for r in result["rows"] if r[0] == "ACCL-N"]
    assert "Not compared: the sources leave open whether 25.09 still ships these (see its source conflicts): ACCL-N." \
        in result["notes"]
    names = [r[0] for r in result["rows"]]
    assert names == sorted(names, key=str.casefold)
    te = next(r for r in result["rows"] if r[0] == "Transformer Engine")
    assert te[1] == "same version number, build tag written with more digits (likely the same build)"


def test_compare_js_shows_new_only_against_the_direct_predecessor(compare):
    # 25.03's page calls FlashInfer new, and 25.02's complete list proves it: a plain addition
    direct = compare("?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.03")
    assert ["FlashInfer", "added", "—", "0.2.3"] in direct["rows"]
    # 25.07's page says "support for" PEFT, never "new": against 25.06's partial list it is not compared
    plain = compare("?old=training-nv-pytorch:25.06&new=training-nv-pytorch:25.07")
    assert not [r for r in plain["rows"] if "page states" in r[1]]
    assert any(n.startswith("Not compared: 25.06's component list is partial") and "PEFT" in n for n in plain["notes"])
    cross = compare("?old=ngc-pytorch:25.03&new=training-nv-pytorch:25.07")
    assert cross["error"] is None
    assert not [r for r in cross["rows"] if "page states" in r[1]]
    assert any(n.startswith("Not compared: 25.03's component list is partial") and "PEFT" in n for n in cross["notes"])
    assert ["CUDA Toolkit", "written with less precision: 25.07's page gives fewer digits, not a downgrade", "12.8.1",
            "12.8"] in cross["rows"]


def test_compare_js_words_the_features_text_reason(compare):
    result = compare("?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.03")
    assert ("Not compared: 25.02 names these only in its features or driver text, not in a component list, so 25.03's "
            "component list does not show whether they were in it: cuDNN.") in result["notes"]


# --- 5. a release whose driver requirement is not recorded ---------------------------------------


def test_release_without_a_driver_section_is_not_stated_in_every_matrix_cell(tmp_path):
    from lingjun.generator.site.driver_matrix import Compat

    root = tmp_path / "releases"
    shutil.copytree(REPO / "releases", root)
    path = root / "training-nv-pytorch" / "25.09.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("\ndriver:\n"), text.index("\ncomponent_list:")
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    site = build_site_model(load_validated(root))
    cells = site.views["training-nv-pytorch:25.09"].driver_cells
    assert cells and {(c.compat, c.reason) for _, c in cells} == {(Compat.not_stated, "not-recorded")}
    page = dict((p.id, t) for p, t in render_pages(site, "en"))["drivers"]
    row = next(row for row in re.findall(r"<tr>\n<td><a href=[^>]*>25\.09</a>.*?</tr>", page, re.S))
    assert "lj-native" not in row and "lj-minor" not in row and "lj-unsupported" not in row
    assert row.count('class="lj-compat ') == row.count('class="lj-compat lj-not-stated"') > 0
    assert "driver requirement not recorded" in row
