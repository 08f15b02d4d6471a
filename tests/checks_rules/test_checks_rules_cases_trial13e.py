"""Lines of the thirteenth trial's public failure reports (trial 13b, cases 07 to 10) that the checker did not read or
whose remedy did not fit the log, and the other forms public reports print of the same lines:

* ``/usr/bin/ld: cannot find -lcuda`` under torch.compile (pytorch/pytorch#103417, the trial's case 07): the linker
  finds the driver's library only as libcuda.so.1; every form ld prints is read (conda's ld, Triton's newer
  ``-l:libcuda.so.1``), the remedies are ldconfig -p, LIBRARY_PATH with the toolkit's stubs, TRITON_LIBCUDA_PATH and
  a link made in the image, as Triton's own ``libcuda.so cannot found!`` signature says;
* a CUDA kernel's failed assertion (milesial/Pytorch-UNet#258, case 09), which read as OK on its own: its condition
  names the cause (a class label, an index, binary cross-entropy's range), and an ``Assertion `x` failed`` line no
  signature knows is still an error-level line;
* ``nvcc fatal : Unsupported gpu architecture 'compute_75'`` (erikwijmans/Pointnet2_PyTorch#91, case 10): the remedy
  says the CUDA release the architecture needs and the toolkit the log's path shows, and no version of its own;
* XLA's ``Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0`` (jax-ml/jax#6517, case 08): torch
  loading cuDNN first leads only where the log shows torch, and the remedy quotes the two releases.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.checks.core.remedy_template import fallback
from lingjun.checks.knowledge.error_level import kind_of
from signature_cases_kit import (assert_line_is, assert_log_leads, assert_matches_none, cli_report, evidence_for_log,
                                 lead_finding, line_finding, remedy_values_for_log, signature)

LIBCUDA = "linker-cannot-find-libcuda"
TRITON_LIBCUDA = "triton-cannot-find-libcuda"
ASSERTION = "torch-cuda-kernel-assertion"
NVCC = "cuda-nvcc-unsupported-gpu-architecture"
XLA = "xla-cudnn-version-mismatch"

#: pytorch/pytorch#103417 (torch 2.0, Triton 2.0), the trial's case 07: the linker's lines inside torch.compile's
#: traceback
CASE07 = [
    '  File "/home/alex/.local/lib/python3.10/site-packages/torch/_inductor/debug.py", line 239, in inner',
    "/usr/bin/ld: cannot find -lcuda: No such file or directory",
    "collect2: error: ld returned 1 exit status",
    "    return fn(*args, **kwargs)",
    "torch._dynamo.exc.BackendCompilerFailed: debug_wrapper raised CalledProcessError: Command '['/usr/bin/gcc', "
    "'/tmp/tmpu6tgmg13/main.c', '-O3', '-I/usr/local/cuda/include', '-I/usr/include/python3.10', '-I/tmp/tmpu6tgmg13', "
    "'-shared', '-fPIC', '-lcuda', '-o', '/tmp/tmpu6tgmg13/triton_.cpython-310-x86_64-linux-gnu.so']' returned non-zero "
    "exit status 1.",
]
LD_FORMS = [
    # pytorch/pytorch#94582 and state-spaces/mamba#123 (binutils before 2.39 add nothing after the name)
    "/usr/bin/ld: cannot find -lcuda",
    # triton-lang/triton#3053: a conda toolchain's ld
    "../x86_64-conda-linux-gnu/bin/ld: cannot find -lcuda: No such file or directory",
    # vllm-project/vllm#2720: building vLLM from source with conda's compiler_compat ld
    "compiler_compat/ld: cannot find -lcuda",
    # vllm-project/vllm#39161: Triton's newer launcher links the versioned name
    "cannot find -l:libcuda.so.1",
]

#: milesial/Pytorch-UNet#258, the trial's case 09
CASE09 = [
    "RuntimeError: CUDA error: device-side assert triggered",
    "",
    "/pytorch/aten/src/THCUNN/SpatialClassNLLCriterion.cu:106: cunn_SpatialClassNLLCriterion_updateOutput_kernel: "
    "block: [0,0,0], thread: [725,0,0] Assertion `t >= 0 && t < n_classes` failed",
]
CLASS_FORMS = [
    CASE09[2],
    # modelscope/ms-swift#3267 (ATen's nll_loss)
    "../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [0,0,0] "
    "Assertion `t >= 0 && t < n_classes` failed.",
    # Nota-NetsPresso/netspresso-trainer#150 (nll_loss2d)
    "../aten/src/ATen/native/cuda/NLLLoss2d.cu:104: nll_loss2d_forward_kernel: block: [13,0,0], thread: [290,0,0] "
    "Assertion `t >= 0 && t < n_classes` failed.",
    # lorenmt/mtan#62 (Windows: no kernel name)
    "C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\aten\\src\\ATen\\native\\cuda\\NLLLoss2d.cu:103: "
    "block: [0,0,0], thread: [384,0,0] Assertion `t >= 0 && t < n_classes` failed.",
    # thu-coai/CDial-GPT#113 (THCUNN's ClassNLLCriterion on Windows)
    "C:/cb/pytorch_1000000000000/work/aten/src/THCUNN/ClassNLLCriterion.cu:108: block: [0,0,0], thread: [0,0,0] "
    "Assertion `t >= 0 && t < n_classes` failed.",
]
INDEX_FORMS = [
    # huggingface/transformers#28104 (the trial's probe p5)
    "../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [18,0,0], thread: [5,0,0] Assertion "
    "`srcIndex < srcSelectDimSize` failed.",
    # NVIDIA/garak#199
    "../aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [3,0,0], thread: [39,0,0] Assertion "
    "`srcIndex < srcSelectDimSize` failed.",
    # ThetaCursed/clean-ui#4
    "../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [109,0,0], thread: [124,0,0] Assertion "
    "`-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.",
    # kousw/stable-diffusion-webui-daam#4 (Windows)
    "C:\\actions-runner\\_work\\pytorch\\pytorch\\builder\\windows\\pytorch\\aten\\src\\ATen\\native\\cuda\\IndexKernel.cu:91: "
    "block: [26,0,0], thread: [32,0,0] Assertion `index >= -sizes[i] && index < sizes[i] && \"index out of bounds\"` "
    "failed.",
]
#: WENGSYX/CMIVQA_Baseline#16 (BCELoss given NaN)
BCE = ("/opt/conda/conda-bld/pytorch_1695392067780/work/aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: "
       "[0,0,0], thread: [96,0,0] Assertion `input_val >= zero && input_val <= one` failed.")
#: nerfstudio-project/gsplat#796 (torch.multinomial): a condition the causes do not name
MULTINOMIAL = ("../aten/src/ATen/native/cuda/MultinomialKernel.cu:112: binarySearchForMultinomial: block: [158,0,0], "
               "thread: [0,0,0] Assertion `cumdist[size - 1] > static_cast<scalar_t>(0)` failed.")

#: erikwijmans/Pointnet2_PyTorch#91, the trial's case 10
CASE10 = ["nvcc fatal   : Unsupported gpu architecture 'compute_75'",
          "error: command '/usr/local/cuda-8.0/bin/nvcc' failed with exit status 1"]

#: jax-ml/jax#6517, the trial's case 08
CASE08 = [
    "Convolution performance may be suboptimal.",
    "2021-04-20 23:10:23.094910: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc:352] Loaded "
    "runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major "
    "version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.  If building "
    "from sources, make sure the library loaded at runtime is compatible with the version specified during compile "
    "configuration.",
    "RuntimeError: Unimplemented: DNN library is not found.",
]
#: jax-ml/jax#16038 (jaxlib built with cuDNN 8.6), with the script line of jax-ml/jax#19004 that imports torch after jax
WITH_TORCH = [
    "    import torch",
    "external/xla/xla/stream_executor/cuda/cuda_dnn.cc:427] Loaded runtime CuDNN library: 8.5.0 but source was "
    "compiled with: 8.6.0.  CuDNN library needs to have matching major version and equal or higher minor version. If "
    "using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at "
    "runtime is compatible with the version specified during compile configuration.",
]


def cause(sig_id: str, cause_id: str) -> dict:
    return next(c for c in signature(sig_id)["causes"] if c["id"] == cause_id)


# --- case 07: ld cannot find -lcuda ---------------------------------------------------------------------------------


def test_case07_the_linker_finding_only_libcuda_so_1_leads(tmp_path):
    """The log alone (the command line's report): the lead is the missing unversioned name. In process, with no
    driver among the facts, the container without GPUs comes first instead (the same ranking as Triton's message)."""
    assert_log_leads(tmp_path, CASE07, LIBCUDA, "only-versioned-libcuda")
    remedy = line_finding(cli_report(tmp_path, CASE07, "--log-only"), LIBCUDA)["i18n"]["remedy"]
    for words in ("ldconfig -p | grep libcuda", "TRITON_LIBCUDA_PATH=/usr/lib/x86_64-linux-gnu",
                  "LIBRARY_PATH=/usr/local/cuda/lib64/stubs", "ln -s /usr/lib/x86_64-linux-gnu/libcuda.so.1",
                  "in the image, not on the host"):
        assert words in remedy["en"]
    assert "ldconfig -p | grep libcuda" in remedy["zh"] and "而不是在宿主机上" in remedy["zh"]


@pytest.mark.parametrize("line", LD_FORMS)
def test_every_form_of_the_link_failure_is_the_signature(tmp_path, line):
    assert_line_is(tmp_path, line, LIBCUDA, "only-versioned-libcuda")


@pytest.mark.parametrize("line", [
    "/usr/bin/ld: cannot find -lcudart: No such file or directory",  # MrTornado24/Next3D#25: the runtime, not libcuda
    "/usr/bin/ld: cannot find -lcurand",  # RL4VLM/RL4VLM#9
])
def test_another_cuda_library_is_not_libcuda(tmp_path, line):
    assert_matches_none(tmp_path, line, {LIBCUDA})


def test_triton_s_own_message_keeps_its_signature_and_the_two_agree():
    """The newer Triton's ``libcuda.so cannot found!`` stays its own signature; both say ldconfig and
    TRITON_LIBCUDA_PATH, and both rule the container without GPUs in by the same fact."""
    ours, triton = signature(LIBCUDA), signature(TRITON_LIBCUDA)
    for sig in (ours, triton):
        first = sig["causes"][0]["remedies"]["image"]["en"]
        assert "ldconfig -p | grep libcuda" in first and "TRITON_LIBCUDA_PATH" in first
    assert cause(LIBCUDA, "started-without-gpus")["condition"] == cause(TRITON_LIBCUDA, "started-without-gpus")["condition"]


def test_tritons_message_is_not_the_linkers(tmp_path):
    """state-spaces/mamba#14"""
    assert_line_is(tmp_path, "AssertionError: libcuda.so cannot found!", TRITON_LIBCUDA, "linker-cache-misses-driver")


# --- case 09: a CUDA kernel's failed assertion ----------------------------------------------------------------------


def test_case09_a_label_outside_the_classes_leads(tmp_path):
    findings = assert_log_leads(tmp_path, CASE09, ASSERTION, "label-outside-classes")
    remedy = findings[0].remedy
    assert "labels.min(), labels.max()" in remedy.en and "ignore_index" in remedy.en
    assert "CUDA_LAUNCH_BLOCKING=1" in remedy.en and "labels.min(), labels.max()" in remedy.zh


@pytest.mark.parametrize("line", CLASS_FORMS)
def test_every_form_of_the_class_assertion_is_the_signature(tmp_path, line):
    assert_line_is(tmp_path, line, ASSERTION, "label-outside-classes")


@pytest.mark.parametrize("line", INDEX_FORMS)
def test_an_index_past_the_end_leads_with_the_vocabulary(tmp_path, line):
    assert_line_is(tmp_path, line, ASSERTION, "token-id-beyond-vocabulary")
    remedy = lead_finding(tmp_path, [line]).remedy
    assert "resize_token_embeddings(len(tokenizer))" in remedy.en and "resize_token_embeddings" in remedy.zh


def test_bces_range_and_an_unnamed_condition(tmp_path):
    assert_line_is(tmp_path, BCE, ASSERTION, "bce-input-outside-unit-range")
    assert "BCEWithLogitsLoss" in lead_finding(tmp_path, [BCE]).remedy.en
    assert_line_is(tmp_path, MULTINOMIAL, ASSERTION, "kernel-input-check")
    remedy = lead_finding(tmp_path, [MULTINOMIAL]).remedy
    assert "CUDA_LAUNCH_BLOCKING=1" in remedy.en and "on the CPU" in remedy.en
    assert "labels.min()" not in remedy.en


def test_the_probe_lines_alone_are_errors_not_ok(tmp_path):
    """The trial's probes p3 and p5: each line alone read as OK."""
    for line in (CASE09[2], INDEX_FORMS[0]):
        assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [ASSERTION]
        assert lead_finding(tmp_path, [line]).severity.name == "error"


@pytest.mark.parametrize("line", [
    CASE09[2],
    MULTINOMIAL,
])
def test_a_kernels_failed_assertion_is_an_error_level_line(line):
    """A device prints a backtick at both ends of the condition (glibc's host form ends with a quote)."""
    assert kind_of(line, "Assertion `") == "assertion"


# --- case 10: nvcc too old for the architecture ---------------------------------------------------------------------


def test_case10_the_remedy_names_the_architectures_first_release_and_the_logs_toolkit(tmp_path):
    findings = assert_log_leads(tmp_path, CASE10, NVCC, "toolkit-older-than-gpu")
    remedy = findings[0].remedy
    assert "compute_75 needs CUDA 10.0 or later, and the nvcc this build runs is CUDA 8.0" in remedy.en
    assert "compute_75需要CUDA 10.0 或更高版本" in remedy.zh and "CUDA 8.0" in remedy.zh
    assert "12.4" not in remedy.en + remedy.zh and "{{" not in remedy.en + remedy.zh


def test_another_architecture_and_toolkit(tmp_path):
    """OpenGVLab/InternImage#284: compute_86 with the nvcc of CUDA 11.0, both on one line"""
    line = ("nvcc fatal   : Unsupported gpu architecture 'compute_86' error: command '/usr/local/cuda-11.0/bin/nvcc' "
            "failed with exit code 1")
    assert_line_is(tmp_path, line, NVCC, "toolkit-older-than-gpu")
    en, zh = remedy_values_for_log(tmp_path, [line], ["nvcc.arch", "nvcc.arch_min_cuda", "cuda.toolkit"])
    assert en == {"nvcc.arch": "compute_86", "nvcc.arch_min_cuda": "CUDA 11.1 or later", "cuda.toolkit": "CUDA 11.0"}
    assert zh["nvcc.arch_min_cuda"] == "CUDA 11.1 或更高版本"


def test_an_architecture_the_table_lacks_says_the_fallback(tmp_path):
    """compute_87 (Jetson Orin) is not in the architecture table: no release is guessed."""
    en, _ = remedy_values_for_log(tmp_path, ["nvcc fatal   : Unsupported gpu architecture 'compute_87'"],
                      ["nvcc.arch", "nvcc.arch_min_cuda"])
    assert en == {"nvcc.arch": "compute_87"}


def test_the_site_says_no_version_of_its_own():
    remedy = cause(NVCC, "toolkit-older-than-gpu")["remedies"]["image"]
    for text in (fallback(remedy["en"]), fallback(remedy["zh"])):
        assert not any(ch.isdigit() for ch in text.replace("X.Y", ""))


# --- case 08: XLA's cuDNN check -------------------------------------------------------------------------------------


def test_case08_without_torch_the_older_cudnn_leads_and_the_remedy_quotes_both_releases(tmp_path):
    findings = assert_log_leads(tmp_path, CASE08, XLA, "jaxlib-needs-newer-cudnn")
    remedy = findings[0].remedy
    assert "cuDNN 8.0.5 was loaded and jaxlib was built with 8.1.0" in remedy.en
    assert 'pip install -U "nvidia-cudnn-cu12>=8.1.0"' in remedy.en and "jax[cuda12]" in remedy.en
    assert "upgrade the system cuDNN to 8.1.0 or later" in remedy.en
    assert "8.0.5" in remedy.zh and "8.1.0" in remedy.zh
    lead = findings[0].message.en.split("Most likely cause here:")[1].split("Other possible causes:")[0]
    assert "torch" not in lead


def test_with_torch_in_the_process_torch_loading_first_leads(tmp_path):
    assert_log_leads(tmp_path, WITH_TORCH, XLA, "torch-cudnn-loaded-first")


def test_the_torch_cause_needs_the_logs_evidence():
    condition = cause(XLA, "torch-cudnn-loaded-first")["condition"]
    assert condition["facts"] == [{"fact": "log.in_torch", "op": "eq", "value": True}]
    assert [c["id"] for c in signature(XLA)["causes"]][0] == "jaxlib-needs-newer-cudnn"
