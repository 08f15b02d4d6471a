"""Hostile pages (the red-team trial of issue 12): the importer reports what it cannot read, never invents."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import RELEASES, ROOT
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
