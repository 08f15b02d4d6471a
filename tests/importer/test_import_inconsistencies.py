"""The pages' own inconsistencies: a shifted table header, a component listed twice, an English "pelatihan" title;
and the same page read from saved HTML."""

from __future__ import annotations

import html
import re
from pathlib import Path

from importer_kit import RELEASE_PAGES, RELEASES, seed
from lingjun.generator.importer import import_page

#: the 25.10 layout: per-architecture columns under one tag, the header one cell off (labels over the wrong cells)
_SHIFTED = """# training-nv-pytorch 26.01

## Contents

| aarch64架构 | amd64架构 | |
|---|---|---|
| 核心组件 | Ubuntu 24.04 | Ubuntu 24.04 |
| | Python 3.12.7+gc | Python 3.12.7+gc |
| | pytorch-triton 3.4.0 | perf 5.4.30 |
| | vllm 0.11.0 | triton 3.4.0 |
| | | vllm 0.11.0 |

## Assets

- egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:26.01-serverless

## Driver Requirements

- NVIDIA Driver release >= 575
"""


def test_a_shifted_header_is_realigned_and_architectures_are_merged(tmp_path):
    page = tmp_path / "training-nv-pytorch-26.01.zh.md"
    page.write_text(_SHIFTED, encoding="utf-8")
    result = import_page(page, RELEASES)
    draft = result.draft
    assert draft["architectures"] == ["aarch64", "amd64"]
    assert [(c["name"], c["version"], c.get("architectures", [])) for c in draft["components"]] == [
        ("Ubuntu", "24.04", []), ("Python", "3.12.7+gc", []), ("pytorch-triton", "3.4.0", ["aarch64"]),
        ("perf", "5.4.30", ["amd64"]), ("triton", "3.4.0", ["amd64"]), ("vllm", "0.11.0", [])]
    assert [c["id"] for c in draft["components"]][2:5] == ["triton", "perf", "triton"]
    assert any("one cell off" in n for n in result.notes)
    (conflict,) = draft["source_conflicts"]
    assert conflict["id"] == "table-header-shifted"
    assert conflict["values"][0]["value"] == "aarch64架构 | amd64架构 | (empty)"
    assert draft["driver"]["minimum"] == "575"
    assert draft["image_tags"][0]["architectures"] == ["aarch64", "amd64"]


def _xpu_seed_with(tmp_path: Path, old: str, new: str) -> Path:
    text = seed("training-xpu-pytorch-25.05.en.txt").read_text(encoding="utf-8")
    assert old in text
    page = tmp_path / "page.txt"
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return page


def test_a_component_listed_twice_is_kept_once(tmp_path):
    page = _xpu_seed_with(tmp_path, "  • vllm 0.8.5\n", "  • vllm 0.8.5\n\n  • vllm 0.8.5\n")
    result = import_page(page, RELEASES)
    assert [c["id"] for c in result.draft["components"]].count("vllm") == 1
    assert any("vllm 0.8.5 is listed twice" in n for n in result.notes)
    assert "source_conflicts" not in result.draft  # same version twice: nothing to decide


def test_a_component_listed_twice_with_different_versions_drafts_a_conflict(tmp_path):
    page = _xpu_seed_with(tmp_path, "  • vllm 0.8.5\n", "  • vllm 0.8.5\n\n  • vllm 0.8.4\n")
    result = import_page(page, RELEASES)
    assert [(c["id"], c["version"]) for c in result.draft["components"] if c["id"] == "vllm"] == [("vllm", "0.8.5")]
    # the existing 25.05 record gets the page's own contradiction as a conflict to settle
    (conflict,) = result.conflicts["source_conflicts"]
    assert conflict["id"] == "vllm-listed-twice"
    assert [v["value"] for v in conflict["values"]] == ["0.8.5", "0.8.4"]


def test_an_english_page_titled_pelatihan_is_read_as_training(tmp_path):
    page = _xpu_seed_with(tmp_path, "training-xpu-pytorch 25.05, training-xpu-pytorch 25.05",
                          "pelatihan-xpu-pytorch 25.05, pelatihan-xpu-pytorch 25.05")
    result = import_page(page, RELEASES)
    assert (result.family, result.release, result.language) == ("training-xpu-pytorch", "25.05", "en")
    assert any("pelatihan-xpu-pytorch" in n for n in result.notes)
    conflict = next(c for c in result.conflicts["source_conflicts"] if c["field"] == "family")
    assert [v["value"] for v in conflict["values"]] == ["pelatihan-xpu-pytorch", "training-xpu-pytorch"]
    assert conflict["values"][0]["stated_in"] == "title"


def _as_html(markdown: str) -> str:
    """A saved-HTML rendering of a Markdown page fixture (headings, lists, tables, paragraphs)."""
    out = ["<!DOCTYPE html><html><head><title>page</title>",
           '<link rel="canonical" href="https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04">',
           "<script>var x = '<li>not a component 9.9</li>';</script></head><body>"]
    in_list = in_table = False
    for line in re.sub(r"<!--.*?-->", "", markdown, flags=re.S).splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            if set(stripped) <= set("|-: "):
                continue
            if not in_table:
                out.append("<table>")
                in_table = True
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            out.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
            continue
        if in_table:
            out.append("</table>")
            in_table = False
        if stripped.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{html.escape(stripped[2:])}</li>")
            continue
        if in_list:
            out.append("</ul>")
            in_list = False
        if stripped.startswith("#"):
            level = len(stripped) - len(stripped.lstrip("#"))
            out.append(f"<h{level}>{html.escape(stripped.lstrip('#').strip())}</h{level}>")
        else:
            out.append(f"<p>{html.escape(stripped)}</p>")
    out.append("</ul></table></body></html>")
    return "\n".join(out)


def test_saved_html_gives_the_same_record_as_the_markdown_copy(tmp_path):
    source = next(p for p in RELEASE_PAGES if p.name == "inference-nv-pytorch-25.04.zh.md")
    page = tmp_path / "page.html"
    page.write_text(_as_html(source.read_text(encoding="utf-8")), encoding="utf-8")
    from_html = import_page(page, RELEASES).draft
    from_markdown = import_page(source, RELEASES).draft
    for key in ("variants", "driver", "cuda", "python", "stated_none", "highlights", "sources"):
        assert from_html[key] == from_markdown[key], key
