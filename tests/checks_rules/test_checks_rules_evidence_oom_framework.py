"""evidence.error-lines on CUDA out of memory: the serving framework the traceback runs through decides the remedy
(SGLang's --mem-fraction-static, vLLM's --gpu-memory-utilization); with neither shown, the workload leads."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import findings_for_log

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has a total capacity of 79.11 GiB"


def _first_error(tmp_path, *lines: str):
    first = next(f for f in findings_for_log(tmp_path, list(lines)) if f.severity is Severity.error)
    assert_bilingual([first])
    return first


def test_an_sglang_traceback_gets_sglang_s_memory_flags(tmp_path):
    frame = '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 934, in init_cuda_graphs'
    first = _first_error(tmp_path, "Traceback (most recent call last):", frame, OOM)
    assert "Most likely cause here: SGLang serving" in first.message.en
    assert "--mem-fraction-static" in first.remedy.en and "--gpu-memory-utilization" not in first.remedy.en


def test_without_a_framework_shown_the_workload_leads(tmp_path):
    first = _first_error(tmp_path, OOM)
    assert "Most likely cause here: The batch, sequence length or model does not fit this GPU" in first.message.en
