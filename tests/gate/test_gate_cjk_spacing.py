"""``data.cjk-spacing`` catches a space after Chinese punctuation, including the one a folded block creates."""

from __future__ import annotations

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
