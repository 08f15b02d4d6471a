"""Compiled code a failure runs through, as a log shows it: torch.compile's own frames (``log.in_torch_compile``:
Dynamo, AOTAutograd, Inductor, and the generated code in vLLM's compile cache) and vLLM's kernel libraries named by
the file that fails to load (``log.in_vllm_kernels``: ``vllm/_C.abi3.so``, ``vllm/_C.cpython-310-...so``).

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from log_statements_kit import feed

LINES = {
    # vllm-project/vllm#17456 (vLLM 0.8.5, Qwen2.5-VL): AOTAutograd's frame under vLLM's logger, and Inductor's
    # benchmarking frame
    "functorch": ("ERROR 04-30 15:49:28 [core.py:396]   File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/"
                  "torch/_functorch/aot_autograd.py\", line 1184, in forward"),
    "inductor": ("  File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/torch/_inductor/runtime/"
                 "benchmarking.py\", line 202, in benchmark_gpu"),
    # vllm-project/vllm#17295: Dynamo's frame and the Triton kernel Inductor generated, in vLLM's compile cache
    "dynamo": "  File \"/opt/conda/lib/python3.11/site-packages/torch/_dynamo/eval_frame.py\", line 574, in _fn",
    "compile-cache": ("  File \"/root/.cache/vllm/torch_compile_cache/ae8e75b5c6/rank_0_0/inductor_cache/yt/"
                      "cytecl5v5exjoeoz4hjoydpall6r5744eiqhyvs7endbjvcigoab.py\", line 662, in call"),
    # vllm-project/vllm#13819: Dynamo's warning while it compiles
    "dynamo-warning": ("[rank0]:W0225 03:39:37.849000 1394121 torch/_dynamo/convert_frame.py:1125]     "
                       "self.codegen_with_cpp_wrapper() if self.cpp_wrapper else self.codegen()"),
    # vllm-project/vllm#3147: vLLM's kernels built for another torch
    "vllm-so": ("ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined "
                "symbol: _ZN2at4_ops15to_dtype_layout4callERKNS_6TensorEN3c108optionalINS5_10ScalarTypeEEENS6_INS5_6Layo"
                "utEEENS6_INS5_6DeviceEEENS6_IbEEbbNS6_INS5_12MemoryFormatEEE"),
    # vllm-project/vllm#5501: vLLM's warning that it could not load them
    "vllm-abi3": ("WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C with ImportError('/usr/local/"
                  "lib/python3.8/dist-packages/vllm/_C.abi3.so: undefined symbol: _ZN5torch7LibraryC1ENS0_4KindESsSt8opt"
                  "ionalIN3c1011DispatchKeyEEPKcj')"),
    # vllm-project/vllm#15010: a vLLM built from source, loaded from its tree
    "vllm-source": ("ImportError: /cpfs01/shared/vllm/vllm/_C.abi3.so: undefined symbol: "
                    "_ZNK3c1011StorageImpl27throw_data_ptr_access_errorEv"),
}

EXPECTED = {
    "functorch": "log.in_torch_compile", "inductor": "log.in_torch_compile", "dynamo": "log.in_torch_compile",
    "compile-cache": "log.in_torch_compile", "dynamo-warning": "log.in_torch_compile",
    "vllm-so": "log.in_vllm_kernels", "vllm-abi3": "log.in_vllm_kernels", "vllm-source": "log.in_vllm_kernels",
}

CODE = {"log.in_torch_compile", "log.in_vllm_kernels", "log.in_flash_attn", "log.in_flashinfer", "log.in_sgl_kernel"}


def code(evidence: Evidence) -> dict:
    return {name: fact.value for name, fact in evidence.stated.items() if name in CODE}


@pytest.mark.parametrize("name", sorted(LINES))
def test_a_frame_or_a_library_states_the_compiled_code_it_runs(name):
    assert code(feed(LINES[name])) == {EXPECTED[name]: True}


def test_torch_compile_is_the_fact_a_condition_tests_with_the_line_as_source():
    evidence = feed("Traceback (most recent call last):", LINES["dynamo"], LINES["compile-cache"])
    found = fact_value("log.in_torch_compile", Facts(), evidence)
    assert (found.value, found.line, found.source.en) == (True, "job.log:2", "shown by the log")


@pytest.mark.parametrize("line", [
    # vllm-project/vllm#17456: Triton's own frame, which vLLM's Triton kernels (its fused MoE) show without
    # torch.compile
    "  File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/triton/testing.py\", line 118, in do_bench",
    # vllm-project/vllm#19906: an FX frame, which eager code shows too
    "  File \"/home/ubuntu/.venv/lib/python3.12/site-packages/torch/fx/graph_module.py\", line 830, in call_wrapped",
    # vllm-project/vllm#23253: vLLM's Python module of its ops, whose own statement reads it
    "(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]   File \"/usr/local/lib/python3.12/"
    "dist-packages/vllm/_custom_ops.py\", line 672, in cutlass_scaled_mm",
])
def test_other_frames_state_no_torch_compile(line):
    assert "log.in_torch_compile" not in code(feed(line))
