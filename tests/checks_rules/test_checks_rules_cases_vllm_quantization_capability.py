"""vllm-quantization-capability: vLLM's refusal of a quantization method names two capabilities, and the finding
says what they mean (FP8 needs 8.9 or 9.0), from the log alone or with the GPU a snapshot shows.

The lines are quoted from vllm-project/vllm#4327 (fp8, 90 vs 86), #4202 (awq, 75 vs 70) and #14040
(compressed-tensors, 80 vs 75).
"""

from __future__ import annotations

from signature_cases_kit import cli_report, findings_for_log, lead_cause, line_finding, signature
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.report.findings import Severity

SIG = "vllm-quantization-capability"
FP8_86 = "ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 90. Current capability: 86"
AWQ_70 = "The quantization method awq is not supported for the current GPU. Minimum capability: 75. Current capability: 70."
SCHEME_75 = ("RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', "
             "'Current capability: 75.')")


def test_fp8_on_an_ampere_gpu_names_the_capabilities_fp8_needs(tmp_path):
    [finding] = findings_for_log(tmp_path, ["INFO 04-24 api_server.py:149] vLLM API server version 0.4.1", FP8_86])
    assert finding.severity is Severity.error
    message = finding.message.en
    lead = message.split("Most likely cause here: ", 1)[1]
    assert lead.startswith("FP8 needs compute capability 8.9 (Ada: L40S, L20, RTX 4090) or 9.0 (Hopper: H100, H800, H20, H200)")
    # the numbers of the line, read as the facts that make the cause apply
    assert "the compute capability the quantization method needs is 9.0, shown by the log" in lead
    assert "the GPUs' compute capability is 8.6, shown by the log" in lead
    assert "Ruled out by what the input shows: The GPU is older than this quantization method's kernels" in message
    remedy = finding.remedy.en
    assert "--quantization fp8" in remedy and "supported_hardware.html" in remedy
    assert "H100, H800, H20, H200" in remedy
    assert finding.message.zh and "8.9" in finding.message.zh and "9.0" in finding.message.zh


def test_awq_on_a_volta_gpu_leads_with_the_methods_own_minimum(tmp_path):
    [finding] = findings_for_log(tmp_path, [AWQ_70])
    lead = finding.message.en.split("Most likely cause here: ", 1)[1]
    assert lead.startswith("The GPU is older than this quantization method's kernels (AWQ needs 7.5")
    assert "the compute capability the quantization method needs is 7.5, shown by the log" in lead
    assert "Ruled out by what the input shows: FP8 needs compute capability 8.9" in finding.message.en
    assert "--quantization gptq" in finding.remedy.en


def test_the_compressed_tensors_form_is_the_same_signature(tmp_path):
    [finding] = findings_for_log(tmp_path, [SCHEME_75])
    assert "Quantization scheme is not supported" in finding.message.en
    assert "needs is 8.0, shown by the log" in finding.message.en


def test_the_gpu_a_snapshot_shows_is_the_capability_judged(tmp_path):
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name="NVIDIA A10", compute_capability="8.6")]
    [finding] = findings_for_log(tmp_path, [FP8_86], facts=facts)
    lead = finding.message.en.split("Most likely cause here: ", 1)[1]
    assert lead.startswith("FP8 needs compute capability 8.9")
    # the probed GPU, without "shown by the log": the snapshot's value is the one judged
    assert "the GPUs' compute capability is 8.6)" in lead


def test_one_cause_is_fp8s_and_the_other_the_other_methods():
    causes = {c["id"]: c["condition"]["facts"] for c in signature(SIG)["causes"]}
    assert causes["fp8-needs-ada-or-hopper"][0] == {"fact": "quantization.min_capability", "op": "ge", "value": "8.9"}
    assert causes["gpu-older-than-method"] == [{"fact": "quantization.min_capability", "op": "lt", "value": "8.9"}]


def test_the_command_line_reports_the_line_its_facts_and_its_cause(tmp_path):
    report = cli_report(tmp_path, [FP8_86])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [SIG]
    assert lead_cause(report, SIG) == "fp8-needs-ada-or-hopper"
    stated = {name: fact["value"] for name, fact in report["evidence"]["stated"].items()}
    assert stated == {"quantization.method": "fp8", "quantization.min_capability": "9.0", "gpu.compute_capability": "8.6"}
    finding = line_finding(report, SIG)
    assert finding["severity"] == "error" and report["findings"][0]["rule"] == "evidence.error-lines"
    assert "8.9" in finding["message"] and "9.0" in finding["message"]
