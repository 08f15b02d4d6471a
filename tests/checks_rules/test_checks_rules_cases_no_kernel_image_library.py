"""cuda-no-kernel-image and flash-attn-ampere-required: the library the failure runs through decides the cause, and
the remedy is that library's architecture support and the option that switches backend, not torch's arch list.

Lines are quoted from public reports: sgl-project/sglang#1058 (FlashInfer on T4), flashinfer-ai/flashinfer#1107
(V100), ostris/ai-toolkit#475 (flash-attn on RTX 5090), vllm-project/vllm#23253 (vLLM's kernels on RTX 5090),
sgl-project/sglang#7249 and pull request #30594 (sgl_kernel's RMSNorm), vllm-project/vllm#4604 (the plain CUDA
error), Dao-AILab/flash-attention#762 and #1540.  A log of several lines is assembled from them, as
``tests/fixtures/logs/`` does.
"""

from __future__ import annotations

import pytest

from signature_cases_kit import cli_report, findings_for_log, lead_cause, line_finding
from lingjun.checks.facts import Facts, GpuFacts, TorchBuildFacts

SIG = "cuda-no-kernel-image"
PLAIN = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
FLASHINFER = ("CUDA Error: no kernel image is available for execution on the device (209) /tmp/build-via-sdist-iemil769/"
              "flashinfer-0.1.4+cu121torch2.4/include/flashinfer/attention/handler.cuh: line 169 at function "
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&num_blocks_per_sm, kernel, num_threads, smem_size)")
FLASHINFER_MESSAGE = ("RuntimeError: SingleDecodeWithKVCache kernel launch failed, error: no kernel image is available for "
                      "execution on the device")
FLASH_ATTN = ("CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:184): no kernel image is available for "
              "execution on the device")
VLLM_FRAMES = [
    "(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]   File \"/usr/local/lib/python3.12/"
    "dist-packages/vllm/_custom_ops.py\", line 672, in cutlass_scaled_mm",
    "(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]     "
    "torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)",
]
SGL_KERNEL = [
    "Traceback (most recent call last):",
    "  File \"/usr/local/lib/python3.12/dist-packages/sgl_kernel/elementwise.py\", line 160, in fused_add_rmsnorm",
    "RuntimeError: RMSNorm failed with error code no kernel image is available for execution on the device",
]


def lead_of(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


def test_a_flashinfer_error_line_points_to_flashinfers_architectures_and_the_backend_switch(tmp_path):
    [finding] = findings_for_log(tmp_path, [FLASHINFER])
    assert lead_of(finding).startswith("FlashInfer's kernels (its wheel, JIT cache or AOT build) do not cover this GPU's "
                                       "architecture (the log's traceback or error line runs through FlashInfer's code, "
                                       "shown by the log")
    remedy = finding.remedy.en
    for option in ("VLLM_ATTENTION_BACKEND=FLASH_ATTN", "VLLM_USE_FLASHINFER_SAMPLER=0", "--attention-backend triton",
                   "FLASHINFER_CUDA_ARCH_LIST", "flashinfer-jit-cache"):
        assert option in remedy, option
    assert "get_arch_list" not in remedy  # torch's arch list is not the remedy here


def test_flashinfers_own_message_decides_too(tmp_path):
    [finding] = findings_for_log(tmp_path, [FLASHINFER_MESSAGE])
    assert lead_of(finding).startswith("FlashInfer's kernels")


def test_a_flash_attn_error_line_points_to_flash_attns_architectures(tmp_path):
    [finding] = findings_for_log(tmp_path, [FLASH_ATTN])
    assert lead_of(finding).startswith("FlashAttention's kernels do not cover this GPU")
    assert "FLASH_ATTN_CUDA_ARCHS" in finding.remedy.en and "VLLM_ATTENTION_BACKEND=XFORMERS" in finding.remedy.en


def test_vllms_own_kernels_in_the_traceback_point_to_vllms_build(tmp_path):
    [finding] = findings_for_log(tmp_path, ["Traceback (most recent call last):", *VLLM_FRAMES, PLAIN])
    assert lead_of(finding).startswith("vLLM's own CUDA kernels (vllm/_C) were built for other GPU architectures")
    assert "TORCH_CUDA_ARCH_LIST" in finding.remedy.en


def test_sgl_kernel_in_the_traceback_points_to_sgl_kernels_build(tmp_path):
    [finding] = findings_for_log(tmp_path, SGL_KERNEL)
    assert lead_of(finding).startswith("SGLang's kernel package (sgl-kernel) was built for other GPU architectures")
    assert "sgl-kernel wheel" in finding.remedy.en


def test_a_line_without_a_library_keeps_torchs_arch_list_first(tmp_path):
    [finding] = findings_for_log(tmp_path, [PLAIN])
    assert lead_of(finding).startswith("torch's architecture list does not cover this GPU")
    assert "Other possible causes: A compiled extension was built for other GPUs; FlashInfer's kernels" in finding.message.en


def test_with_torch_covering_the_gpu_the_library_leads_and_torch_is_ruled_out(tmp_path):
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name="Tesla T4", compute_capability="7.5")]
    facts.torch = TorchBuildFacts(version="2.4.0+cu121", cuda="12.1", arch_list=["sm_50", "sm_60", "sm_70", "sm_75", "sm_80",
                                                                                 "sm_86", "sm_90"])
    [finding] = findings_for_log(tmp_path, [FLASHINFER], facts=facts)
    assert lead_of(finding).startswith("FlashInfer's kernels")
    assert "Ruled out by what the input shows: torch's architecture list does not cover this GPU" in finding.message.en


def test_with_torch_not_covering_the_gpu_torch_stays_first(tmp_path):
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name="NVIDIA B200", compute_capability="10.0")]
    facts.torch = TorchBuildFacts(version="2.6.0+cu126", cuda="12.6", arch_list=["sm_80", "sm_86", "sm_90"])
    [finding] = findings_for_log(tmp_path, [FLASHINFER], facts=facts)
    # both apply; torch's kernels fail first for everything, so the record lists it first
    assert lead_of(finding).startswith("torch's architecture list does not cover this GPU")
    assert "Other possible causes: FlashInfer's kernels" in finding.message.en


@pytest.mark.parametrize("gpu, cc, lead", [
    ("Tesla T4", "7.5", "The GPU is older than Ampere (compute capability below 8.0: V100, T4)"),
    ("NVIDIA GeForce RTX 5090", "12.0", "The GPU is newer than the flash-attn build (Blackwell, 10.0 or 12.0)"),
])
def test_flash_attns_ampere_check_is_judged_by_the_gpus_capability(tmp_path, gpu, cc, lead):
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name=gpu, compute_capability=cc)]
    [finding] = findings_for_log(tmp_path, ["RuntimeError: FlashAttention only supports Ampere GPUs or newer."], facts=facts)
    assert lead_of(finding).startswith(lead)


def test_the_command_line_names_the_library_cause(tmp_path):
    report = cli_report(tmp_path, [FLASHINFER])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [SIG]
    assert lead_cause(report, SIG) == "flashinfer-arch"
    assert report["evidence"]["stated"]["log.in_flashinfer"]["value"] is True
    assert line_finding(report, SIG)["severity"] == "error"
