"""Numbers in a log line are facts: vLLM's quantization refusal states the GPU's compute capability and the one the
method needs; torch's driver-too-old line and the container hook's requirement state CUDA versions.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.log_statements import STATEMENTS
from log_statements_kit import feed

#: vllm-project/vllm#4327
FP8_86 = "ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 90. Current capability: 86"
#: vllm-project/vllm#4202
AWQ_70 = "The quantization method awq is not supported for the current GPU. Minimum capability: 75. Current capability: 70."
#: vllm-project/vllm#14154
BNB_52 = ("ValueError: The quantization method bitsandbytes is not supported for the current GPU. Minimum capability: 70. "
          "Current capability: 52.")
#: vllm-project/vllm#14040 (compressed-tensors raises its message as a tuple of strings)
SCHEME_75 = ("RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', "
             "'Current capability: 75.')")
#: lllyasviel/Fooocus#1313
DRIVER_TOO_OLD = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU "
                  "driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx")
#: SyneRBI/PETRIC2#27
CUDA_REQUIRED = ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a "
                 "newer version, or use an earlier cuda container")


#: the facts these statements state (a line may state others too, such as the CUDA error a catalog names)
OURS = {"quantization.method", "quantization.min_capability", "gpu.compute_capability", "driver.cuda", "cuda.required"}


def stated(evidence: Evidence) -> dict:
    return {name: fact.value for name, fact in evidence.stated.items() if name in OURS}


@pytest.mark.parametrize("line, method, needed, current", [
    (FP8_86, "fp8", "9.0", "8.6"),
    (AWQ_70, "awq", "7.5", "7.0"),
    (BNB_52, "bitsandbytes", "7.0", "5.2"),
])
def test_vllms_quantization_refusal_states_both_capabilities_and_the_method(line, method, needed, current):
    assert stated(feed(line)) == {"quantization.method": method, "quantization.min_capability": needed,
                                  "gpu.compute_capability": current}


def test_the_compressed_tensors_tuple_form_states_both_capabilities():
    assert stated(feed(SCHEME_75)) == {"quantization.min_capability": "8.0", "gpu.compute_capability": "7.5"}


def test_three_digit_capabilities_read_as_major_and_minor():
    # the same message with Blackwell numbers (vLLM writes major * 10 + minor)
    line = FP8_86.replace("Minimum capability: 90", "Minimum capability: 100").replace("Current capability: 86",
                                                                                       "Current capability: 120")
    assert stated(feed(line))["quantization.min_capability"] == "10.0"
    assert stated(feed(line))["gpu.compute_capability"] == "12.0"


def test_a_capability_out_of_range_is_not_stated():
    line = FP8_86.replace("Current capability: 86", "Current capability: 999")
    assert "gpu.compute_capability" not in stated(feed(line))
    assert stated(feed(line))["quantization.min_capability"] == "9.0"


def test_the_stated_capabilities_are_the_facts_conditions_test_with_the_log_as_source():
    evidence = feed("INFO 04-24 vLLM API server version 0.4.1", FP8_86)
    needed = fact_value("quantization.min_capability", Facts(), evidence)
    assert (needed.value, needed.line, needed.source.en) == ("9.0", "job.log:2", "shown by the log")
    have = fact_value("gpu.compute_capability_min", Facts(), evidence)
    assert (have.value, have.line) == ("8.6", "job.log:2")


def test_a_probed_gpu_outranks_the_capability_the_log_states():
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name="NVIDIA L20", compute_capability="8.9")]
    assert fact_value("gpu.compute_capability_min", facts, feed(FP8_86)).value == "8.9"
    # the capability the method needs has no probe: the log's stays
    assert fact_value("quantization.min_capability", facts, feed(FP8_86)).value == "9.0"


def test_without_the_line_the_needed_capability_is_unknown():
    assert not fact_value("quantization.min_capability", Facts(), feed("epoch 1 loss 2.3")).known


def test_torchs_driver_too_old_line_states_the_drivers_cuda_version():
    evidence = feed(DRIVER_TOO_OLD)
    assert stated(evidence) == {"driver.cuda": "11.4"}
    found = fact_value("driver.cuda", Facts(), evidence)
    assert (found.value, found.line) == ("11.4", "job.log:1")


def test_the_container_hooks_requirement_states_the_cuda_the_image_needs():
    assert stated(feed(CUDA_REQUIRED)) == {"cuda.required": "12.8"}


def test_these_statements_are_registered():
    literals = {s.literal for s in STATEMENTS}
    assert {"Current capability: ", "too old (found version ", "unsatisfied condition: cuda>="} <= literals
