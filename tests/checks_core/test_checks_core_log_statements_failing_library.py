"""The code a failure runs through is a fact the log states: a traceback frame or an error line of FlashInfer,
FlashAttention, vLLM's own kernels or SGLang's sgl_kernel (``log.in_*``), which a signature's causes test.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from log_statements_kit import feed

LINES = {
    # sgl-project/sglang#1058 (T4): FlashInfer's own CUDA error, naming its header
    "flashinfer-header": ("CUDA Error: no kernel image is available for execution on the device (209) /tmp/build-via-sdist-iemil769/"
                          "flashinfer-0.1.4+cu121torch2.4/include/flashinfer/attention/handler.cuh: line 169 at function "
                          "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&num_blocks_per_sm, kernel, num_threads, smem_size)"),
    # flashinfer-ai/flashinfer#920: the header inside the installed package
    "flashinfer-package": ("CUDA Error: no kernel image is available for execution on the device (209) /usr/local/lib/python3.12/"
                           "dist-packages/flashinfer/data/include/flashinfer/norm.cuh: line 113 at function "
                           "cudaLaunchKernel((void*)kernel, nblks, nthrs, args, smem_size, stream)"),
    # flashinfer-ai/flashinfer#1107 (V100): FlashInfer's attention wrapper
    "flashinfer-message": ("RuntimeError: SingleDecodeWithKVCache kernel launch failed, error: no kernel image is available for "
                           "execution on the device"),
    # flashinfer-ai/flashinfer#1781: a frame of vLLM's FlashInfer sampler
    "flashinfer-frame": ("(Worker_TP0 pid=451) ERROR 09-26 10:57:34 [multiproc_executor.py:671]   File \"/usr/local/lib/python3.10/"
                         "dist-packages/flashinfer/sampling.py\", line 980, in top_k_top_p_sampling_from_logits"),
    # ostris/ai-toolkit#475 (RTX 5090): flash-attn's launch template
    "flash-attn-template": ("CUDA error (/build/source/flash-attn/flash_fwd_launch_template.h:184): no kernel image is available "
                            "for execution on the device"),
    # visualbruno/ComfyUI-Direct3D-S2#8: flash-attn's extension in a Windows stack
    "flash-attn-module": ("00007FF937961C2300007FF9377ACF80 flash_attn_2_cuda.cp312-win_amd64.pyd!PyInit_flash_attn_2_cuda "
                          "[<unknown file> @ <unknown line number>]"),
    # Dao-AILab/flash-attention#1786: a frame inside the flash_attn package
    "flash-attn-frame": ("  File \"/home/t-ykong/anaconda3/envs/py310/lib/python3.10/site-packages/flash_attn/"
                         "flash_attn_interface.py\", line 170, in _flash_attn_varlen_forward"),
    # Dao-AILab/flash-attention#762
    "flash-attn-ampere": "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
    # vllm-project/vllm#23253 (RTX 5090, vLLM 0.10.1): vLLM's own kernel, the frame and its source line
    "vllm-frame": ("(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]   File \"/usr/local/lib/python3.12/"
                   "dist-packages/vllm/_custom_ops.py\", line 672, in cutlass_scaled_mm"),
    "vllm-call": ("(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]     "
                  "torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)"),
    # vllm-project/vllm#34752: vLLM's cache kernel called from its FlashInfer backend (the backend's frame is vLLM's)
    "vllm-cache-op": ("(EngineCore_DP0 pid=57748) File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/attention/backends/"
                      "flashinfer.py\", line 1341, in forward (EngineCore_DP0 pid=57748) "
                      "torch.ops._C_cache_ops.reshape_and_cache_flash("),
    # vllm-project/vllm#23832: vLLM's build of FlashAttention, its frame and its op
    "vllm-fa-frame": ("(EngineCore_0 pid=3418225) File \"vllm/vllm_flash_attn/flash_attn_interface.py\", line 258, in "
                      "flash_attn_varlen_func"),
    "vllm-fa-op": "(EngineCore_0 pid=3418225) out, softmax_lse, _, _ = torch.ops._vllm_fa3_C.fwd(",
    # sgl-project/sglang#30594 (pull request): sgl_kernel's frame
    "sgl-kernel-frame": ("  File \"/usr/local/lib/python3.12/dist-packages/sgl_kernel/elementwise.py\", line 160, in "
                         "fused_add_rmsnorm"),
    # sgl-project/sglang#5285: SGLang's server, capturing CUDA graphs
    "sglang-frame": ("  File \"/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py\", line 934, in "
                     "init_cuda_graphs"),
    # allenai/olmocr#50: the server's launch command above its out-of-memory line
    "sglang-launch": "$ python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024",
}

EXPECTED = {
    "flashinfer-header": "log.in_flashinfer", "flashinfer-package": "log.in_flashinfer",
    "flashinfer-message": "log.in_flashinfer", "flashinfer-frame": "log.in_flashinfer",
    "flash-attn-template": "log.in_flash_attn", "flash-attn-module": "log.in_flash_attn",
    "flash-attn-ampere": "log.in_flash_attn", "flash-attn-frame": "log.in_flash_attn",
    "vllm-frame": "log.in_vllm_kernels", "vllm-call": "log.in_vllm_kernels", "vllm-cache-op": "log.in_vllm_kernels",
    "vllm-fa-frame": "log.in_flash_attn", "vllm-fa-op": "log.in_flash_attn",
    "sgl-kernel-frame": "log.in_sgl_kernel",
    "sglang-frame": "log.in_sglang", "sglang-launch": "log.in_sglang",
}


#: the facts these statements state (a line may state others too, such as the CUDA error a catalog names)
LIBRARIES = {"log.in_flashinfer", "log.in_flash_attn", "log.in_vllm_kernels", "log.in_sgl_kernel", "log.in_sglang"}


def libraries(evidence: Evidence) -> dict:
    return {name: fact.value for name, fact in evidence.stated.items() if name in LIBRARIES}


@pytest.mark.parametrize("name", sorted(LINES))
def test_a_frame_or_error_line_states_the_library_it_runs_through(name):
    assert libraries(feed(LINES[name])) == {EXPECTED[name]: True}


def test_the_library_is_the_fact_a_condition_tests_with_the_line_as_source():
    evidence = feed("Traceback (most recent call last):", LINES["flashinfer-frame"], LINES["flashinfer-message"])
    found = fact_value("log.in_flashinfer", Facts(), evidence)
    assert (found.value, found.line, found.source.en) == (True, "job.log:2", "shown by the log")
    assert not fact_value("log.in_flash_attn", Facts(), evidence).known


def test_a_traceback_through_two_libraries_states_both():
    # sgl-project/sglang#30594: sgl_kernel's rmsnorm calls FlashInfer's norm
    frames = [LINES["sgl-kernel-frame"],
              "  File \"/usr/local/lib/python3.12/dist-packages/flashinfer/norm/__init__.py\", line 274, in fused_add_rmsnorm"]
    assert libraries(feed(*frames)) == {"log.in_sgl_kernel": True, "log.in_flashinfer": True}


@pytest.mark.parametrize("line", [
    # a library named without its code: FlashInfer's JIT log line (flashinfer-ai/flashinfer#920), vLLM's start-up
    # lines (gpustack/gpustack#2097)
    "2025-03-07 11:03:44,669 - INFO - flashinfer.jit: Loading JIT ops: norm",
    "INFO 05-26 07:50:26 [cuda.py:221] Using Flash Attention backend on V1 engine.",
    "WARNING 05-26 07:50:26 [topk_topp_sampler.py:69] FlashInfer is not available. Falling back to the PyTorch-native "
    "implementation of top-p & top-k sampling. For the best performance, please install FlashInfer.",
    # a torch frame (vllm-project/vllm#19906): no library of these
    "  File \"/home/ubuntu/.venv/lib/python3.12/site-packages/torch/fx/graph_module.py\", line 830, in call_wrapped",
])
def test_a_line_that_only_names_a_library_states_nothing(line):
    assert libraries(feed(line)) == {}
