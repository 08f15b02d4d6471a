"""``data.cjk-spacing`` catches a space after Chinese punctuation, including the one a folded block creates."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.rules.cjk_spacing import stray_space
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.loader import load_paths


@pytest.mark.parametrize(("text", "found"), [
    ("包含 ACCL-N 2.23.4.11、 Transformers 4.48.3+ali", "、 T"),
    ("需要 R570 或更新的驱动。 training-nv-pytorch 25.03 基于此版本构建。", "。 t"),
    ("页面称“Triton Inference Server” 升级到 3.3.0", "” 升"),
    ("镜像（cuda-compat） 可用", "） 可"),
    ("仅 华北2", "仅 华"),
])
def test_stray_space_reports_the_space_and_its_neighbours(text, found):
    assert stray_space(text) == found


@pytest.mark.parametrize("text", [
    "包含 ACCL-N 2.23.4.11、Transformers 4.48.3+ali",
    "基于 NGC PyTorch 25.02 重新构建，PyTorch 系列升至 2.6.0.7",
    "使用 vLLM 0.8.5 部署（Qwen3）",
    "需要 R570 或更新的驱动。",
])
def test_correct_chinese_spacing_is_not_reported(text):
    assert stray_space(text) is None


def test_space_made_by_folding_after_punctuation_is_reported_at_the_folded_field(tree):
    root = tree("cjk-spacing/fail-punctuation")
    result = load_paths([root])
    assert result.problems == []
    found = [p for p in run_gate(Corpus.from_documents(result.documents)) if p.rule == "data.cjk-spacing"]
    assert [(p.path, p.line, p.col) for p in found] == [(str(root / "demo-nv/25.02.yaml"), 19, 11)]
    assert "('、 T')" in found[0].message


# ------------------------------------------------------------------ the hand-written Chinese pages


_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+\1")
_EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?!\s)|(?<!\s)\*(?![\w*])")


def _prose_pieces(markdown: str):
    """``(line number, text)`` of the prose of a Markdown page as a reader sees it: fenced code left out, inline code
    replaced by one Latin letter, emphasis markers removed, each table cell on its own."""
    fenced = False
    for number, line in enumerate(markdown.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        text = _EMPHASIS.sub("", _CODE_SPAN.sub("x", line))
        if line.lstrip().startswith("|"):
            for cell in re.split(r"(?<!\\)\|", text):
                yield number, cell.strip()
        else:
            yield number, text


def test_the_markdown_reader_sees_the_rendered_text():
    pieces = [t for _, t in _prose_pieces("**证据。** 当输入 `a  b`\n| 一。 | — |\n```\n。 x\n```\n")]
    assert pieces == ["证据。 当输入 x", "", "一。", "—", ""]
    assert stray_space(pieces[0]) == "。 当"


def test_the_chinese_pages_have_no_stray_space():
    """docs/zh/**/*.md, read with the gate's own check (:func:`stray_space`) on the text a reader sees."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "zh"
    pages = sorted(docs.rglob("*.md"))
    assert len(pages) >= 5
    found = [f"{page.relative_to(docs)}:{number}: {stray_space(text)!r}"
             for page in pages for number, text in _prose_pieces(page.read_text(encoding="utf-8"))
             if stray_space(text)]
    assert found == []
