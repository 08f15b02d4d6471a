"""triton-out-of-resources-shared-memory, torch-extension-ninja-required and torch-extension-build-failed: a Triton
kernel that asks for more shared memory than the GPU has, a JIT build without ninja, and the summary line of a failed
extension build, which follows the specific compiler or linker line that names the cause.

Lines are quoted from public reports: Yuliang-Liu/MonkeyOCR#86, InternLM/lmdeploy#2451, sgl-project/sglang#8513,
meta-pytorch/attention-gym#14, vllm-project/vllm#11584 (Triton); InternLM/lmdeploy#242, unlimblue/KNN_CUDA#14,
NX-AI/xlstm#76 (ninja; its newer wording is torch's own, pytorch/pytorch#147698); dredwardhyde/gpt-neo-fine-tuning-example#12, codefuse-ai/MFTCoder#27,
deepspeedai/DeepSpeed#4219, Dao-AILab/flash-attention#279 (the summary); DeepSpeed#3299 (nvcc), DeepSpeed#7174 and
yunchih/ORB-SLAM2-GPU2016-final#13 (the linker).
"""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import cli_report, evidence_for_log, findings_for_log, lead_cause

TRITON = "triton-out-of-resources-shared-memory"
NINJA = "torch-extension-ninja-required"
BUILD = "torch-extension-build-failed"
NVCC = "cuda-nvcc-unsupported-gpu-architecture"
LD = "deepspeed-jit-cuda-library-not-found"

TRITON_LINES = [
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 126978, Hardware limit: 101376. "
    "Reducing block sizes or `num_stages` may help.",
    "triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 108672, Hardware limit: 101376. "
    "Reducing block sizes or `num_stages` may help.",
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: 101376. "
    "Reducing block sizes or `num_stages` may help.",
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131074, Hardware limit: 101376. "
    "Reducing block sizes or `num_stages` may help.",
    "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 65536, Hardware limit: 49152. "
    "Reducing block sizes or `num_stages` may help.",
]

#: the traceback of an SGLang scheduler whose Triton MoE kernel does not fit a 99 KB GPU (sgl-project/sglang#8513)
TRITON_LOG = [
    "[2025-07-29 15:06:50 TP0] Scheduler hit an exception: Traceback (most recent call last):",
    '  File "/sglang_env/lib/python3.12/site-packages/triton/runtime/jit.py", line 617, in run',
    "    kernel.run(grid_0, grid_1, grid_2, stream, kernel.function, kernel.packed_metadata, launch_metadata,",
    '  File "/sglang_env/lib/python3.12/site-packages/triton/compiler/compiler.py", line 483, in _init_handles',
    '    raise OutOfResources(self.metadata.shared, max_shared, "shared memory")',
    TRITON_LINES[2],
    "[2025-07-29 15:06:51] Received sigquit from a child process. It usually means the child failed.",
]

NINJA_LINES = [
    "RuntimeError: Ninja is required to load C++ extensions",
    "> RuntimeError: Ninja is required to load C++ extensions",
    "RuntimeError: Ninja is required to load C++ extensions (pip install ninja to get it)",
]

#: DeepSpeed building fused_adam on first use, in an environment whose PATH has no ninja (InternLM/lmdeploy#242)
NINJA_LOG = [
    "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...",
    "Traceback (most recent call last):",
    '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py", line 480, in jit_load',
    "    op_module = load(name=self.name,",
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1430, in verify_ninja_availability',
    '    raise RuntimeError("Ninja is required to load C++ extensions")',
    NINJA_LINES[0],
]

BUILD_LINES = [
    "RuntimeError: Error building extension 'cpu_adam'",
    "RuntimeError: Error building extension 'fused_adam'",
    "RuntimeError: Error building extension 'transformer_inference'",
    "      RuntimeError: Error compiling objects for extension",
]

#: the tail of DeepSpeed's fused_adam build with nothing but the summary (MFTCoder#27, dredwardhyde#12)
BUILD_ALONE_LOG = [
    "Building extension module fused_adam...",
    "Allowing ninja to set a default number of workers... (overridable by setting the environment variable MAX_JOBS=N)",
    "ninja: build stopped: subcommand failed.",
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 1623, in '
    "_write_ninja_file_and_build_library",
    "    error_prefix=f\"Error building extension '{name}'\")",
    "    raise RuntimeError(message) from e",
    BUILD_LINES[1],
]

NVCC_LINE = "nvcc fatal   : Unsupported gpu architecture 'compute_89'"  # deepspeedai/DeepSpeed#3299
LD_LINE = "/usr/bin/ld: cannot find -lcurand: No such file or directory"  # deepspeedai/DeepSpeed#7174


def lead_of(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


def errors_for(tmp_path, lines: list[str]) -> list:
    errors = [f for f in findings_for_log(tmp_path, lines) if f.severity is Severity.error]
    assert_bilingual(errors)
    return errors


@pytest.mark.parametrize("line", TRITON_LINES)
def test_each_triton_shared_memory_line_is_the_triton_signature(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [TRITON]


def test_triton_traceback_names_the_kernel_configuration_and_the_per_gpu_fixes(tmp_path):
    [finding] = errors_for(tmp_path, TRITON_LOG)
    assert "Required: 147456, Hardware limit: 101376" in finding.message.en
    assert "101376 (99 KB) is the limit of RTX 3090/4090/5090, A10, A40, A6000, L4, L20, L40 and L40S" in finding.message.en
    assert lead_of(finding).startswith("The library's kernel configuration was chosen for GPUs with more shared memory "
                                       "per block (H100/H20 227 KB, A100 163 KB) than this GPU has")
    assert "Other possible causes: The kernel's block sizes or num_stages are set by the caller" in finding.message.en
    for word in ("benchmark_moe.py --tune", "VLLM_TUNED_CONFIG_FOLDER", "166912 bytes"):
        assert word in finding.remedy.en, word


def test_triton_source_line_in_the_traceback_is_not_a_second_error_line(tmp_path):
    [hit] = evidence_for_log(tmp_path, TRITON_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (TRITON, 1, 6)


@pytest.mark.parametrize("line", NINJA_LINES)
def test_each_ninja_line_is_the_ninja_signature(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [NINJA]


def test_ninja_traceback_quotes_the_runtime_error_not_the_raise_statement(tmp_path):
    [hit] = evidence_for_log(tmp_path, NINJA_LOG).hits
    assert (hit.signature, hit.count, hit.first.text) == (NINJA, 1, NINJA_LINES[0])


def test_ninja_finding_leads_with_installing_ninja_and_checking_it(tmp_path):
    [finding] = errors_for(tmp_path, NINJA_LOG)
    assert lead_of(finding).startswith("The ninja build tool is not installed in the image or the environment that "
                                       "runs the job")
    assert "Other possible causes: ninja is installed in a virtual or conda environment" in finding.message.en
    for word in ("pip install ninja", "ninja --version", "ds_report"):
        assert word in finding.remedy.en, word


@pytest.mark.parametrize("line", BUILD_LINES)
def test_each_build_summary_line_is_the_build_signature(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [BUILD]


def test_build_summary_alone_names_the_earlier_compiler_error_and_the_cache_to_clear(tmp_path):
    [finding] = errors_for(tmp_path, BUILD_ALONE_LOG)
    assert "Error building extension 'fused_adam'" in finding.message.en
    assert "sums up a failure" not in finding.message.en  # nothing else in the log to point to
    assert lead_of(finding).startswith("A compile or link step failed earlier in the build output (the first FAILED: "
                                       "line and the error after it)")
    assert "TORCH_CUDA_ARCH_LIST names" not in finding.message.en
    for word in ("FAILED:", "verbose=True", "~/.cache/torch_extensions/*/NAME", "TORCH_EXTENSIONS_DIR"):
        assert word in finding.remedy.en, word


def test_build_summary_source_line_in_the_traceback_is_not_matched(tmp_path):
    [hit] = evidence_for_log(tmp_path, BUILD_ALONE_LOG).hits
    assert (hit.signature, hit.count, hit.first.text) == (BUILD, 1, BUILD_LINES[1])


def test_unsupported_architecture_leads_and_the_build_summary_follows_it(tmp_path):
    first, second = errors_for(tmp_path, [
        "[1/3] /usr/local/cuda/bin/nvcc -gencode=arch=compute_89,code=sm_89 -c multi_tensor_adam.cu -o multi_tensor_adam.cuda.o",
        "FAILED: multi_tensor_adam.cuda.o",
        NVCC_LINE,
        "ninja: build stopped: subcommand failed.",
        BUILD_LINES[1],
    ])
    assert "Unsupported gpu architecture 'compute_89'" in first.message.en
    assert lead_of(first).startswith("The nvcc that the build runs")
    assert "Error building extension 'fused_adam'" in second.message.en
    assert "sums up a failure the log's other error lines show in detail" in second.message.en
    assert "概括了日志中其他错误行" in second.message.zh


def test_missing_link_library_leads_and_the_build_summary_follows_it(tmp_path):
    first, second = errors_for(tmp_path, [BUILD_LINES[0], LD_LINE])
    assert "cannot find -lcurand" in first.message.en
    assert lead_of(first).startswith("The CUDA libraries are there only as runtime files (libcurand.so.10)")
    assert "Error building extension 'cpu_adam'" in second.message.en and "sums up a failure" in second.message.en


def test_nvtx_library_is_the_jit_library_signature_and_cufile_is_not(tmp_path):
    # yunchih/ORB-SLAM2-GPU2016-final#13; DeepSpeed's GDS compatibility probe prints the cufile line in ds_report
    # without failing anything, so it stays unmatched
    assert [h.signature for h in evidence_for_log(tmp_path, ["/usr/bin/ld: cannot find -lnvToolsExt"]).hits] == [LD]
    assert evidence_for_log(tmp_path, ["/usr/bin/ld: cannot find -lcufile: No such file or directory"]).hits == []


def test_command_line_lists_the_specific_line_before_the_build_summary(tmp_path):
    report = cli_report(tmp_path, [NVCC_LINE, BUILD_LINES[2]])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [NVCC, BUILD]
    assert lead_cause(report, BUILD) == "compiler-error-above"
    assert lead_cause(report, NVCC) == "toolkit-older-than-gpu"
