"""Lines of public failure reports that no signature matched: ptxas refusing Triton's PTX version
(triton-ptxas-unsupported-ptx-version), xFormers' warning that it cannot load its extensions
(xformers-extensions-not-loaded), torch's cuDNN convolution finding no engine (cudnn-no-engine-found) and SGLang's
KV cache pool not fitting at start-up (sglang-kv-cache-not-enough-memory).

Lines are quoted from public reports: triton-lang/triton#1246, #322, #4576, #5929, #5385, #5737,
openxla/xla#16431 (ptxas); open-mmlab/PIA#30, facebookresearch/xformers#982, #800,
AUTOMATIC1111/stable-diffusion-webui#14320 (xFormers); replicate/cog#1430, facebookresearch/dinov2#158,
openvla/openvla#238, facebookresearch/vggt#183, AlexeyAB/darknet#7660 (cuDNN); sgl-project/sglang#4330, #4895,
#7691, #10408, gpustack/gpustack#3831 (SGLang).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import (assert_line_is, assert_log_leads, assert_matches_none, cli_report, lead_cause,
                                 not_ok_findings)

PTXAS = "triton-ptxas-unsupported-ptx-version"
XFORMERS = "xformers-extensions-not-loaded"
CUDNN = "cudnn-no-engine-found"
SGLANG = "sglang-kv-cache-not-enough-memory"

CASES = [
    (PTXAS, "ptxas-older-than-ptx",
     "ptxas /tmp/triton_k_90kFja, line 5; fatal   : Unsupported .version 7.3; current version is '7.2'"),
    (PTXAS, "ptxas-older-than-ptx",
     "ptxas /tmp/triton_k_NjSPTP, line 5; fatal   : Unsupported .version 7.3; current version is '7.1'"),
    (PTXAS, "ptxas-older-than-ptx",
     "E                   ptxas /tmp/tmpqgu1f9dk.ptx, line 5; fatal   : Unsupported .version 8.6; current version is '8.5'"),
    (PTXAS, "ptxas-older-than-ptx",
     "ptxas C:\\Users\\JJ\\AppData\\Local\\Temp\\tmpafhfmeeh.ptx, line 5; fatal   : Unsupported .version 8.6; "
     "current version is '8.5'"),
    (PTXAS, "ptxas-older-than-ptx",
     "ptxas add_kernel.ptx, line 5; fatal   : Unsupported .version 8.4; current version is '7.8'"),
    # the one-line form states the installed torch on the same line: +cpu leads with the CPU build
    (XFORMERS, "torch-cpu-build",
     "xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.2+cu121 with CUDA 1201 "
     "(you have 2.1.2+cpu)"),
    (XFORMERS, "built-for-another-torch",
     "> WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.0+cu118 with "
     "CUDA 1106 (you have 2.1.0+cu121) Python 3.9.16 (you have 3.10.12)"),
    # the header alone states nothing: the record's order (the CPU build is the most reported) decides
    (XFORMERS, "torch-cpu-build",
     "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:"),
    (CUDNN, "other-cudnn-loaded", "RuntimeError: GET was unable to find an engine to execute this computation"),
    (CUDNN, "other-cudnn-loaded", "Caught exception: GET was unable to find an engine to execute this computation"),
    (CUDNN, "other-cudnn-loaded", "RuntimeError: FIND was unable to find an engine to execute this computation"),
    (SGLANG, "weights-fill-static-share",
     "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static."),
    (SGLANG, "weights-fill-static-share",
     "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
     "self.server_args.mem_fraction_static=0.2"),
]

NEAR_MISSES = [
    "ptxas fatal   : Ptx assembly aborted due to errors",  # printed after every fatal ptxas error
    "'+ptx86' is not a recognized feature for this target (ignoring feature)",  # LLVM's warning, not ptxas
    "RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 12.8",
    "    PyTorch 2.2.0+cu121 with CUDA 1201 (you have 2.2.0+cpu)",  # xFormers' second line only states a fact
    "  Memory-efficient attention, SwiGLU, sparse and more won't be available.",
    "Could not load library libcudnn_cnn_train.so.8. Error: /usr/lib/x86_64-linux-gnu/libcudnn_cnn_train.so.8: "
    "undefined symbol: _ZTIN10cask_cudnn14BaseKernelInfoE, version libcudnn_cnn_infer.so.8",
    "Error: cuDNN isn't found FWD algo for convolution.",  # darknet's own message
    "[2025-07-02 07:41:59 DP0 TP0] max_total_tokens=131072 is larger than the profiled value -561981. Use the "
    "profiled value instead.",
    "RuntimeError: alloc_req_slots runs out of memory. Please set a smaller number for `--max-running-requests`. "
    "self.req_to_token_pool.available_size()=1, num_reqs=2,",
]

#: small logs built from the threads' lines
LOGS = {
    # triton-lang/triton#1246
    "triton-1246": ([
        "#python 01-vector-add.py",
        "backend: backend.CUDA, device: 0",
        CASES[0][2],
        "ptxas fatal   : Ptx assembly aborted due to errors",
        "Traceback (most recent call last):",
        '  File "01-vector-add.py", line 81, in <module>',
        "    output_triton = add(x, y)",
        '  File "/tensord/triton/python/triton/code_gen.py", line 564, in _compile',
        "    name, asm, shared_mem = _triton.code_gen.compile_ttir(backend, generator.module, device, num_warps, "
        "num_stages)",
        "RuntimeError: CUDA: Error- invalid image",
    ], PTXAS, "ptxas-older-than-ptx"),
    # open-mmlab/PIA#30
    "pia-30": ([
        "(pia) PS E:\\PIA> python inference.py --config=example/config/majic_girl.yaml",
        CASES[7][2],
        "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)",
    ], XFORMERS, "torch-cpu-build"),
    # facebookresearch/xformers#800
    "xformers-800": ([
        "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:",
        "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu118)",
        "    Python  3.8.18 (you have 3.8.5)",
        "  Please reinstall xformers (see https://github.com/facebookresearch/xformers#installing-xformers)",
        "  Memory-efficient attention, SwiGLU, sparse and more won't be available.",
        "  Set XFORMERS_MORE_DETAILS=1 for more details",
        "Device: cpu",
    ], XFORMERS, "built-for-another-torch"),
    # replicate/cog#1430
    "cog-1430": ([
        "[INFO] loaded SD!",
        "  0%|          | 0/500 [00:00<?, ?it/s]Could not load library libcudnn_cnn_train.so.8. Error: "
        "/usr/lib/x86_64-linux-gnu/libcudnn_cnn_train.so.8: undefined symbol: _ZTIN10cask_cudnn14BaseKernelInfoE, "
        "version libcudnn_cnn_infer.so.8",
        "Traceback (most recent call last):",
        CASES[8][2],
        # the undefined-symbol line above says what failed (cuda-library-undefined-symbol-shadowed): this summary
        # line comes after it, with the same cause
    ], "cuda-library-undefined-symbol-shadowed", "other-copy-on-loader-path"),
    # sgl-project/sglang#7691 (the weights line) and #4895 (the scheduler's traceback), with #4330's error line
    "sglang": ([
        "[2025-03-29 18:18:20 TP0] Load weight end. type=Gemma3ForConditionalGeneration, dtype=torch.bfloat16, "
        "avail mem=1.20 GB, mem usage=21.73 GB.",
        "[2025-03-29 18:18:34 TP0] Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1999, in run_scheduler_process',
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 249, in __init__',
        "    self.tp_worker = TpWorkerClass(",
        CASES[11][2],
    ], SGLANG, "weights-fill-static-share"),
}

OURS = {sig_id for sig_id, _, _ in CASES}


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert_line_is(tmp_path, line, sig_id, cause)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_miss_lines_match_none_of_these_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, OURS)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_each_log_leads_with_its_signature_and_the_expected_cause(tmp_path, name):
    lines, sig_id, cause = LOGS[name]
    findings = assert_log_leads(tmp_path, lines, sig_id, cause)


def _line_finding(tmp_path, lines):
    """The lead finding of the log (an unmatched error line after it, such as Triton's "invalid image", comes later)."""
    return not_ok_findings(tmp_path, lines)[0]


def test_xformers_warning_is_an_error_for_a_cpu_torch_and_a_warning_otherwise(tmp_path):
    cpu = _line_finding(tmp_path, LOGS["pia-30"][0])
    assert cpu.severity is Severity.error
    assert "pip install torch==2.1.2 --index-url https://download.pytorch.org/whl/cu121" in cpu.remedy.en
    other = _line_finding(tmp_path, LOGS["xformers-800"][0])
    assert other.severity is Severity.warning
    assert "pip install -U xformers --index-url https://download.pytorch.org/whl/cu121" in other.remedy.en


def test_the_sglang_remedy_raises_the_fraction_and_splits_the_weights(tmp_path):
    finding = _line_finding(tmp_path, [CASES[11][2]])
    assert finding.severity is Severity.error
    assert "Raise --mem-fraction-static" in finding.remedy.en and "--tp-size N" in finding.remedy.en


def test_the_cudnn_remedy_removes_the_system_cudnn(tmp_path):
    report = cli_report(tmp_path, LOGS["cog-1430"][0])
    assert [m["signature"] for m in report["evidence"]["matches"]] == ["cuda-library-undefined-symbol-shadowed", CUDNN]
    assert lead_cause(report, CUDNN) == "other-cudnn-loaded"
    finding = _line_finding(tmp_path, LOGS["cog-1430"][0])
    assert finding.severity is Severity.error
    assert "apt-get remove -y --allow-change-held-packages libcudnn8" in finding.remedy.en


def test_the_ptxas_remedy_unsets_tritons_ptxas_path(tmp_path):
    finding = _line_finding(tmp_path, LOGS["triton-1246"][0])
    assert "unset TRITON_PTXAS_PATH" in finding.remedy.en
