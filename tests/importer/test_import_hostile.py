"""Hostile pages (the red-team trial of issue 12): the importer reports what it cannot read, never invents."""

from __future__ import annotations

from pathlib import Path

import pytest

from importer_kit import RELEASES, ROOT, seed
from lingjun.generator.importer import ImportRefused, import_page

HOSTILE = ROOT / "tests" / "fixtures" / "import-hostile"


def _images(draft: dict) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(v["id"], v["component_list"], [(c["name"], c["version"]) for c in v["components"]])
            for v in draft.get("variants", [])]


def test_cells_beyond_a_markdown_header_make_no_image():
    result = import_page(HOSTILE / "md-ragged.md", RELEASES)
    assert _images(result.draft) == [
        ("vllm", "complete", [("Ubuntu", "22.04"), ("Python", "3.10"), ("vllm", "0.9.0")]),
        ("sglang", "complete", [("Ubuntu", "22.04"), ("sglang", "0.5.0")])]
    (beyond,) = [p for p in result.problems if "beyond" in p]
    assert beyond.startswith("line 12: 1 row(s) of the table under line 5 have cells beyond its header's 2 value")
    assert "(line 12: extra, 7.7)" in beyond


def test_cells_beyond_an_html_header_make_no_image_and_a_colspan_fills_every_column():
    result = import_page(HOSTILE / "html-ragged.html", RELEASES)
    assert _images(result.draft) == [
        ("vllm", "complete", [("Python", "3.10"), ("vllm", "0.9.0"), ("Ubuntu", "22.04")]),
        ("sglang", "complete", [("Python", "3.10"), ("Ubuntu", "20.04")])]
    assert result.draft["python"] == "3.10"  # both images state it: one release-wide value
    assert any("(line 1: 7.7, 8.8)" in p for p in result.problems)


def test_a_rowspan_cell_fills_its_column_in_the_rows_below(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        "<html><body><h1>inference-nv-pytorch 26.05</h1><h2>Contents</h2><table>"
        "<tr><th></th><th>vllm镜像</th><th>sglang镜像</th></tr>"
        "<tr><td rowspan='2'>核心组件</td><td>Ubuntu 22.04</td><td>Ubuntu 20.04</td></tr>"
        "<tr><td>vllm 0.9.0</td><td>sglang 0.5.0</td></tr>"  # its first cell is the rowspan cell above
        "</table><h2>Driver requirements</h2><p>NVIDIA Driver release >= 570</p></body></html>", encoding="utf-8")
    result = import_page(page, RELEASES)
    assert [[(c["name"], c["version"]) for c in v["components"]] for v in result.draft["variants"]] == [
        [("Ubuntu", "22.04"), ("vllm", "0.9.0")], [("Ubuntu", "20.04"), ("sglang", "0.5.0")]]
    assert not [p for p in result.problems if p.startswith("line")]


@pytest.mark.parametrize("name, over, under", [("shift-right.md", "3, 4", "2, 3"), ("shift-two.md", "1, 2", "3, 4, 5")])
def test_a_header_shifted_other_than_one_cell_left_is_reported_not_read(name, over, under):
    result = import_page(HOSTILE / name, RELEASES)
    draft = result.draft
    assert "variants" not in draft and "components" not in draft and "component_list" not in draft
    assert "architectures" not in draft
    (problem,) = [p for p in result.problems if "does not line up" in p]
    assert problem.startswith("line 5: the header row (")
    assert f"(labels over cells {over}, values in cells {under})" in problem
    assert not any("one cell off" in n for n in result.notes)
    assert not any("carries no component list" in p for p in result.problems)
    assert "source_conflicts" not in draft


@pytest.mark.parametrize("html", [False, True])
def test_a_table_wider_than_any_page_is_refused_by_both_readers(tmp_path, html):
    columns = range(70)
    if html:
        header = "".join(f"<th>v{i}镜像</th>" for i in columns)
        row = "".join("<td>0.9.0</td>" for _ in columns)
        text = (f"<html><body><h1>inference-nv-pytorch 26.05</h1><h2>Contents</h2><table><tr><th></th>{header}</tr>"
                f"<tr><td>vllm</td>{row}</tr></table></body></html>")
    else:
        header = " | ".join(f"v{i}镜像" for i in columns)
        row = " | ".join("0.9.0" for _ in columns)
        text = f"# inference-nv-pytorch 26.05\n\n## Contents\n\n| | {header} |\n|---|\n| vllm | {row} |\n"
    page = tmp_path / ("page.html" if html else "page.md")
    page.write_text(text, encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        import_page(page, RELEASES)
    assert "a table of 70 value columns, more than any release-note page (64 images" in refused.value.reason


def _xpu_seed_with(tmp_path: Path, old: str, new: str) -> Path:
    text = seed("training-xpu-pytorch-25.05.en.txt").read_text(encoding="utf-8")
    assert old in text
    page = tmp_path / "page.txt"
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return page


def test_one_component_under_two_spellings_is_a_duplicate(tmp_path):
    page = _xpu_seed_with(tmp_path, "  • flashinfer 0.2.3\n", "  • flashinfer 0.2.3\n\n  • flash_attn 2.6.0\n")
    result = import_page(page, RELEASES)
    assert [(c["name"], c["version"]) for c in result.draft["components"] if c["id"] == "flash-attn"] == [
        ("flash-attn", "2.5.7+torch2.6.ppu1.5.1")]
    (note,) = [n for n in result.notes if "listed twice" in n]
    assert note.startswith("line 107: flash-attn is listed twice (as flash-attn and as flash_attn) with different "
                           "versions (2.5.7+torch2.6.ppu1.5.1 on line 57, 2.6.0 on line 107)")
    conflict = next(c for c in result.conflicts["source_conflicts"] if c["id"] == "flash-attn-listed-twice")
    assert [v["value"] for v in conflict["values"]] == ["2.5.7+torch2.6.ppu1.5.1", "2.6.0"]


def test_two_spellings_are_one_package_also_without_the_catalog():
    from lingjun.generator.importer._components import package_key

    assert package_key("flash_attn") == package_key("Flash.Attn") == package_key("flash-attn") == "flash-attn"


@pytest.mark.parametrize("line, why", [
    ("triton 3.2.0 3.3.0", "two versions, 3.2.0 and 3.3.0"),
    ("triton: 1 3.2.0", "two versions, 1 and 3.2.0"),
    ("triton 1:30", "a number inside the name"),
])
def test_a_line_that_is_not_one_name_and_one_version_is_left_out_and_reported(tmp_path, line, why):
    page = _xpu_seed_with(tmp_path, "  • triton 3.2.0\n", f"  • {line}\n")
    result = import_page(page, RELEASES)
    names = [c["name"] for c in result.draft["components"]]
    assert "triton" not in names and not any(n.startswith("triton ") for n in names)
    assert f"line 51: {line!r} is not one name and one version ({why}); not understood, left out (the list is " \
           "drafted partial)" in result.problems
    assert result.draft["component_list"] == "partial"  # triton is in the image; its version is not known


def test_html_a_reader_does_not_see_is_not_read(tmp_path):
    draft = import_page(HOSTILE / "html-hidden.html", RELEASES).draft
    assert [(c["name"], c["version"]) for c in draft["components"]] == [
        ("Ubuntu", "24.04"), ("Python", "3.12.7+gc"), ("vellm", "0.13.0")]  # no displaynone 3.0
    page = tmp_path / "page.html"
    hidden = ['<li hidden>hiddenattr 1.0</li>', '<li aria-hidden="true">ariahidden 1.0</li>',
              '<li style="visibility : hidden">invisible 1.0</li>',
              '<div style="DISPLAY: none"><ul><li>nested 1.0</li><div>more 1.0</div></ul></div>',
              '<input hidden><img hidden src="x.png">']  # void elements hide nothing after them
    page.write_text("<html><body><h1>training-nv-pytorch 26.04</h1><h2>Core components</h2><ul>"
                    f"<li>Ubuntu 24.04</li>{''.join(hidden)}<li>Python 3.12</li></ul>"
                    "<h2>Driver requirements</h2><p>NVIDIA Driver release >= 570</p></body></html>", encoding="utf-8")
    draft = import_page(page, RELEASES).draft
    assert [(c["name"], c["version"]) for c in draft["components"]] == [("Ubuntu", "24.04"), ("Python", "3.12")]
    assert draft["driver"]["minimum"] == "570"


def test_the_features_text_against_the_requirements_row_and_the_list_gives_conflicts():
    # Requirements: PPU SDK 1.5.2; features: "Upgraded PPU SDK to 1.5.1 and vLLM to v0.8.5"; list: vllm 0.8.4
    draft = import_page(HOSTILE / "features-vs-list.txt", RELEASES).draft
    (sdk,) = [c for c in draft["components"] if c["id"] == "ppu-sdk"]
    assert (sdk["version"], sdk["stated_in"]) == ("1.5.2", "driver-text")  # not the features text: it says 1.5.1
    assert sdk["note"]["en"] == "Stated as the Requirements value, not in the core-components list."
    assert draft["ppu_sdk"] == "1.5.2"
    assert [(c["id"], c["field"], [(v["value"], v["stated_in"]) for v in c["values"]], c["kept"])
            for c in draft["source_conflicts"]] == [
        ("ppu-sdk-requirements-vs-features", "ppu_sdk", [("1.5.2", "driver-text"), ("1.5.1", "features-text")], "1.5.2"),
        ("vllm-list-vs-features", "components", [("0.8.4", "component-list"), ("0.8.5", "features-text")], "0.8.4")]
    assert draft["source_conflicts"][0]["description"]["en"] == \
        "The Requirements row gives PPU SDK 1.5.2; the features text says 1.5.1."


def test_the_features_text_that_agrees_gives_the_curated_reading():
    result = import_page(seed("training-xpu-pytorch-25.05.en.txt"), RELEASES)
    (sdk,) = [c for c in result.draft["components"] if c["id"] == "ppu-sdk"]
    assert (sdk["version"], sdk["stated_in"]) == ("1.5.1", "features-text")  # as the curated 25.05 record
    assert sdk["note"]["en"] == "Named in the main features and as the Requirements value, not in the core-components list."
    assert "source_conflicts" not in result.draft  # "Python is upgraded to 3.12.7+gc", "vLLM to v0.8.5" agree


def test_features_versions_are_read_only_where_the_text_gives_one():
    from lingjun.generator.importer._inconsistencies import features_version, versions_agree

    texts = [("Upgraded PPU SDK to 1.5.1 and vLLM to v0.8.5 to support W8A8", 19), ("vLLM升级至0.13.0。", 3),
             ("triton 3.1.0 → 3.2.0 and torch from 2.5 to 2.6", 4)]
    assert features_version(texts, "vllm") == ("0.8.5", 19)
    assert features_version(texts, "PPU SDK") == ("1.5.1", 19)
    assert features_version(texts, "triton") is None and features_version(texts, "torch") is None
    assert versions_agree("2.6", "2.6.0.7") and versions_agree("3.12.7+gc", "3.12.7")
    assert not versions_agree("1.5", "1.51") and not versions_agree("0.8.4", "0.8.5")


def test_an_output_folder_that_does_not_exist_is_refused_not_made(tmp_path, capsys):
    from lingjun.generator.cli import main

    target = tmp_path / "typo" / "deeper" / "draft.yaml"
    status = main(["import", str(HOSTILE / "md-ragged.md"), "-o", str(target), "--releases", str(RELEASES)])
    err = capsys.readouterr().err
    assert status == 2 and list(tmp_path.iterdir()) == []
    assert err.strip().endswith(f"output {target}: the folder {target.parent} does not exist; create it first")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_draft_is_written_with_the_umask_like_any_file(tmp_path, capsys, umask, mode):
    import os
    import stat

    from lingjun.generator.cli import main

    target = tmp_path / "draft.yaml"
    before = os.umask(umask)
    try:
        status = main(["import", str(HOSTILE / "md-ragged.md"), "-o", str(target), "--releases", str(RELEASES)])
    finally:
        os.umask(before)
    capsys.readouterr()
    assert status == 0 and stat.S_IMODE(target.stat().st_mode) == mode


def test_a_list_printed_twice_gives_one_note_and_a_conflict_per_changed_version():
    result = import_page(HOSTILE / "list-twice.txt", RELEASES, release="26.09")
    # the page names 25.11: --release 26.09 (a release no record holds) gives its own note first
    assert result.notes[0].startswith("the page names 25.11 (next to its family and in its image tags), not 26.09")
    assert result.notes[1:] == ["line 109: the component list is printed twice (lines 39-105 and 109-175); the first copy "
                            "is kept; 2 entries differ (triton, vllm): the first is kept and a source_conflicts entry "
                            "is drafted for each"]
    assert [(c["id"], [v["value"] for v in c["values"]]) for c in result.draft["source_conflicts"]] == [
        ("triton-listed-twice", ["3.2.0", "3.3.0"]), ("vllm-listed-twice", ["0.8.5", "0.9.0"])]
    assert [c["id"] for c in result.draft["components"]].count("triton") == 1


def test_a_text_copy_of_more_lines_than_any_page_is_refused_before_reading_them(tmp_path):
    import time

    from lingjun.generator.importer._reader import MAX_PAGE_LINES

    base = seed("training-xpu-pytorch-25.05.en.txt").read_text(encoding="utf-8")
    page = tmp_path / "page.txt"
    page.write_text(base + "a\n" * 900_000, encoding="utf-8")  # 1.8 MB, under the size limit
    start = time.perf_counter()
    with pytest.raises(ImportRefused) as refused:
        import_page(page, RELEASES)
    assert time.perf_counter() - start < 2
    assert refused.value.reason == f"has {base.count(chr(10)) + 900_001} lines, more than any release-note page copy " \
                                   f"({MAX_PAGE_LINES})"
    page.write_text(base + "a\n" * (MAX_PAGE_LINES - base.count("\n") - 2), encoding="utf-8")  # just under: read
    start = time.perf_counter()
    assert import_page(page, RELEASES).draft["ppu_sdk"] == "1.5.1"
    assert time.perf_counter() - start < 5  # about 0.3 s alone; the margin is for a loaded machine
