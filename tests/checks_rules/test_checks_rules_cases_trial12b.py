"""Lines of the twelfth trial's public failure reports (trial 12b) that the checker missed or led wrongly: a JIT build
that cannot find curand_kernel.h with a toolkit of another CUDA than torch's (cuda-header-not-found), NVRTC unable to
open its builtins library under libtorch (nvrtc-builtins-not-found), a TensorRT engine plan of another TensorRT or GPU
(tensorrt-engine-version-tag-mismatch, tensorrt-engine-incompatible-device) followed by a segmentation fault, and a
bf16 cuBLAS GEMM on a GPU older than Ampere (cublas-status-not-supported).

Lines are quoted from public reports: deepspeedai/DeepSpeed#3411 and #2684, sgl-project/sglang#4169,
AlexeyAB/darknet#6825, mumax/3#18, wilicc/gpu-burn#103, pytorch/pytorch#19666, StanfordLegion/legion#977,
NVIDIA/NVTX#48, NixOS/nixpkgs#279872, deepspeedai/DeepSpeedExamples#669, HAWAIILAB/cuda-flux#1,
bazel-contrib/rules_cuda#376, rapidsai/kvikio#482 (headers); wenet-e2e/wenet#1335, pytorch/pytorch#58101, #99781,
chainer/chainer#4813, flashlight/flashlight#124 (NVRTC); NVIDIA/retinanet-examples#314, NVIDIA/TensorRT#574, #2176,
#564, SthPhoenix/InsightFace-REST#84 (TensorRT); opendatalab/MinerU#1508, pytorch/pytorch#57773,
city-super/Scaffold-GS#83, THUDM/WebGLM#3, Yasoz/DiffTraj#19, pytorch/pytorch#110153 (cuBLAS).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import (assert_line_is, assert_log_leads, assert_matches_none, cli_report, evidence_for_log,
                                 lead_cause, line_finding)

HEADER = "cuda-header-not-found"
NVRTC = "nvrtc-builtins-not-found"
TRT = "tensorrt-engine-version-tag-mismatch"
TRT_DEVICE = "tensorrt-engine-incompatible-device"
SEGFAULT = "process-segmentation-fault"
CUBLAS = "cublas-status-not-supported"

#: deepspeedai/DeepSpeed#3411: DeepSpeed's JIT build with an 11.2 toolkit for a torch built with CUDA 11.7
DEEPSPEED_LOG = [
    "Installed CUDA version 11.2 does not match the version torch was compiled with 11.7 but since the APIs are "
    "compatible, accepting this combination",
    "Using /home/jovyan/.cache/torch_extensions/py38_cu117 as PyTorch extensions root...",
    "In file included from /opt/conda/lib/python3.8/site-packages/deepspeed/ops/csrc/common/custom_cuda_kernel.cu:6:",
    "/opt/conda/lib/python3.8/site-packages/deepspeed/ops/csrc/includes/custom_cuda_layers.h:12:10: fatal error: "
    "curand_kernel.h: No such file or directory",
    "   12 | #include <curand_kernel.h>",
    "      |          ^~~~~~~~~~~~~~~~~",
    "compilation terminated.",
    "ninja: build stopped: subcommand failed.",
]

#: wenet-e2e/wenet#1335: libtorch's TorchScript fuser aborts when NVRTC cannot open its builtins
LIBTORCH_LOG = [
    "terminate called after throwing an instance of 'std::runtime_error'",
    "  what():  nvrtc: error: failed to open libnvrtc-builtins.so.11.3.",
    "  Make sure that libnvrtc-builtins.so.11.3 is installed correctly.",
    "nvrtc compilation failed:",
    "",
    "#define NAN __int_as_float(0x7fffffff)",
]

#: NVIDIA/retinanet-examples#314: a plan built with TensorRT 8.0.1 loaded by a C++ program of 8.0.0, then a crash
TRT_LOG = [
    "./infer ./model.plan ./foto.png ",
    "Loading engine...",
    "6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.0.0 got "
    "8.0.1, please rebuild.",
    "4: [runtime.cpp::deserializeCudaEngine::74] Error Code 4: Internal Error (Engine deserialization failed.)",
    "Segmentation fault (core dumped)",
]

#: opendatalab/MinerU#1508 (a Tesla M40)
BF16_LINE = ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, "
             "opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, "
             "strideb, (void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, "
             "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`")

CASES = [
    # the headers of the toolkit's math libraries, CCCL, NVTX 3 and crt/, alone: a runtime-only environment leads
    (HEADER, "runtime-only-environment", DEEPSPEED_LOG[3]),
    (HEADER, "runtime-only-environment",
     "/opt/app/python3.10/lib/python3.10/site-packages/flashinfer/data/cutlass/tools/util/include/cutlass/util/reference/"
     "device/tensor_fill.h:52:10: fatal error: curand_kernel.h: No such file or directory"),
    (HEADER, "runtime-only-environment", "include/darknet.h:42:10: fatal error: curand.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "/opt/conda/envs/bitten/lib/python3.8/site-packages/torch/include/ATen/cuda/CUDAContext.h:10:10: fatal error: "
     "cusolverDn.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "/home/deparkes/gocode/src/github.com/barnex/cuda5/cufft/mode.go:3:19: fatal error: cufft.h: No such file or "
     "directory"),
    (HEADER, "runtime-only-environment", "gpu_burn-drv.cpp:63:10: fatal error: cublas_v2.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "../torch/csrc/jit/fuser/cuda/thnvrtc.h:4:10: fatal error: nvrtc.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "/home/hpcc/cmelone/insieme/builds/885127806/legion/runtime/mathtypes/complex.h:34:10: fatal error: "
     "thrust/complex.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "#13 100.4       nvtx/_lib/lib.c:701:10: fatal error: nvtx3/nvToolsExt.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "       > /nix/store/6xbwsr4z38idr6c0kv62rjy8fdjxjz4y-cuda_cudart-11.8.89/include/vector_types.h:65:10: fatal error: "
     "crt/host_defines.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "./inference_cublas_wrappers.h:12:10: fatal error: cuda_bf16.h: No such file or directory"),
    # clang's form
    (HEADER, "runtime-only-environment",
     "/home/mnaderan/cuda-flux/lib/hostRuntime.cpp:3:10: fatal error: 'cuda_runtime.h' file not found"),
    (HEADER, "runtime-only-environment",
     "/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_runtime_wrapper.h:486:10: fatal error: "
     "'curand_mtgp32_kernel.h' file not found"),
    (HEADER, "runtime-only-environment",
     "path/to/kvikio/cpp/include/kvikio/utils.hpp:28:10: fatal error: 'nvtx3/nvtx3.hpp' file not found"),
    # NVRTC's builtins: torch, CuPy (unversioned), ArrayFire's status name
    (NVRTC, "bundled-builtins-other-name", "RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1."),
    (NVRTC, "bundled-builtins-other-name",
     "Exception in main training loop: nvrtc: error: failed to open libnvrtc-builtins.so."),
    (NVRTC, "bundled-builtins-other-name", "NVRTC Error(7): NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"),
    # TensorRT: another release, the older wording, a plan read in text mode (got 0.0.0), another GPU
    (TRT, "built-in-another-image",
     "face_1             | [05/02/2022-15:17:45] [TRT] [E] 6: The engine plan file is not compatible with this version of "
     "TensorRT, expecting library version 8.2.3 got 8.2.1, please rebuild."),
    (TRT, "built-in-another-image", "The engine plan file is not compatible with this version of GIE, please rebuild."),
    (TRT, "plan-file-read-wrongly",
     "ERROR: The engine plan file is not compatible with this version of TensorRT, expecting library version 5.1.5 got "
     "0.0.0, please rebuild."),
    (TRT_DEVICE, "engine-built-elsewhere",
     "[TensorRT] ERROR: INVALID_CONFIG: The engine plan file is generated on an incompatible device, expecting compute "
     "6.1 got compute 7.5, please rebuild."),
    # cuBLAS: bf16 before Ampere, a float32 call, a cuBLASLt call
    (CUBLAS, "gpu-without-bf16", BF16_LINE),
    # a cuBLASLt call the log shows is one (its bf16 abcType 14 on a GPU the log does not show may still be the cause)
    (CUBLAS, "cublaslt-has-no-kernel",
     "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasLtMatmul with transpose_mat1 1 "
     "transpose_mat2 0 m 512 n 4 k 512 mat1_ld 512 mat2_ld 512 result_ld 512 abcType 14 computeTy"),
    (CUBLAS, "cublas-not-torchs",
     "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasSgemmStridedBatched( handle, opa, opb, "
     "m, n, k, &alpha, a, lda, stridea, b, ldb, strideb, &beta, c, ldc, stridec, num_batches)`"),
    (CUBLAS, "cublaslt-has-no-kernel",
     "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic( ltHandle, "
     "computeDesc.descriptor(), Adesc.descriptor(), Bdesc.descriptor(), Cdesc.descriptor(), Cdesc.descriptor(), "
     "preference.descriptor(), 1, &heuristicResult, &returnedResult)`"),
]

NEAR_MISSES = [
    # not the toolkit's: cuDNN, a project's own CUDA helpers, torch's and CUTLASS's headers, the old THC
    "src/caffe/layers/cudnn_conv_layer.cpp:5:10: fatal error: cudnn.h: No such file or directory",
    "src/kernels.cu:3:10: fatal error: cuda_utils.h: No such file or directory",
    "src/ops.cu:2:10: fatal error: cuda/helper.h: No such file or directory",
    "csrc/ext.cpp:1:10: fatal error: ATen/cuda/CUDAContext.h: No such file or directory",
    "csrc/gemm.cu:4:10: fatal error: cutlass/cutlass.h: No such file or directory",
    "src/rod_align_cuda.cpp:1:21: fatal error: THC/THC.h: No such file or directory",
    " #include <curand_kernel.h>",  # the compiler's quote of the include
    # torch's own NVRTC load (the library itself, not its builtins)
    "OSError: libnvrtc.so: cannot open shared object file: No such file or directory",
    # another cuBLAS status
    "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, "
    "&alpha, a, lda, b, ldb, &beta, c, ldc)`",
]


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert_line_is(tmp_path, line, sig_id, cause)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_misses_match_none_of_these_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, {HEADER, NVRTC, TRT, TRT_DEVICE, CUBLAS})


def test_a_toolkit_of_another_cuda_than_torchs_leads_with_installing_torchs_toolkit(tmp_path):
    """DeepSpeed's accepted mismatch (11.2 against torch's 11.7) is what the log shows of the build's toolkit."""
    findings = assert_log_leads(tmp_path, DEEPSPEED_LOG, HEADER, "toolkit-not-torchs")
    lead = findings[0]
    assert "fatal error: curand_kernel.h" in lead.message.en
    for words in ("cuda-toolkit-11-7", "CUDA_HOME=/usr/local/cuda-11.7", "nvidia/label/cuda-11.7.0"):
        assert words in lead.remedy.en and words in lead.remedy.zh, words
    assert [f.severity for f in findings] == [Severity.error]  # ninja's line is not a second error


def test_a_toolkit_of_torchs_cuda_rules_the_mismatch_out(tmp_path):
    """cpp_extension's warning of a minor mismatch names both; the same major.minor is no mismatch."""
    report = cli_report(tmp_path, [
        "UserWarning: The detected CUDA version (12.1) has a minor version mismatch with the version that was used to "
        "compile PyTorch (12.1). Most likely this shouldn't be a problem.",
        DEEPSPEED_LOG[3]])
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == HEADER)
    assert match["cause"] == "runtime-only-environment" and "toolkit-not-torchs" in match["ruled_out"]


def test_libtorchs_what_line_is_the_lead_not_the_terminate_line(tmp_path):
    findings = assert_log_leads(tmp_path, LIBTORCH_LOG, NVRTC, "bundled-builtins-other-name")
    assert len(findings) == 1, [f.message.en for f in findings]  # no unknown "terminate called ..." beside it
    assert "what():  nvrtc: error: failed to open libnvrtc-builtins.so.11.3" in findings[0].message.en
    assert "ln -s libnvrtc-builtins-<hash>.so.11.3 libnvrtc-builtins.so.11.3" in findings[0].remedy.en
    assert cli_report(tmp_path, LIBTORCH_LOG)["evidence"]["unknown"] == []


def test_a_terminate_line_over_an_unknown_what_line_is_still_an_unknown_error(tmp_path):
    report = cli_report(tmp_path, ["terminate called after throwing an instance of 'std::runtime_error'",
                                   "  what():  something no record knows"])
    assert [u["line"] for u in report["evidence"]["unknown"]] == [
        "terminate called after throwing an instance of 'std::runtime_error'"]


def test_an_engine_of_another_tensorrt_leads_and_the_segfault_after_it_follows(tmp_path):
    findings = assert_log_leads(tmp_path, TRT_LOG, TRT, "built-in-another-image")
    lead = findings[0]
    crash = next(f for f in findings if f.observed and f.observed.endswith(":5"))  # the segfault's own line
    assert "expecting library version 8.0.0 got 8.0.1" in lead.message.en
    assert "(TensorRT 8.0.0)" in lead.remedy.en and "(TensorRT 8.0.1)" in lead.remedy.en
    assert "Segmentation fault" in crash.message.en and "sums up a failure" in crash.message.en
    report = cli_report(tmp_path, TRT_LOG)
    # TensorRT's deserialize line between them sums the version line up (tensorrt-engine-deserialize-failed, trial 13)
    assert [m["signature"] for m in report["evidence"]["matches"]] == [TRT, "tensorrt-engine-deserialize-failed", SEGFAULT]
    assert lead_cause(report, "tensorrt-engine-deserialize-failed") == "built-by-another-release"


def test_a_segfault_alone_still_names_its_own_cause(tmp_path):
    report = cli_report(tmp_path, ["Segmentation fault (core dumped)"])
    assert lead_cause(report, SEGFAULT) == "native-code-for-another-version"
    assert "sums up" not in line_finding(report, SEGFAULT)["message"]


def test_an_engine_of_another_gpu_quotes_both_compute_capabilities(tmp_path):
    # NVIDIA/TensorRT#2176
    line = ("The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 7.5, please "
            "rebuild.4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization "
            "failed.)")
    findings = assert_log_leads(tmp_path, [line], TRT_DEVICE, "engine-built-elsewhere")
    assert "compute capability 8.6" in findings[0].remedy.en and "compute capability 7.5" in findings[0].remedy.en
    assert "--hardwareCompatibilityLevel=ampere+" in findings[0].remedy.en
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [TRT_DEVICE]


def test_a_bf16_gemm_leads_with_float16_and_is_not_the_generic_catalog_entry(tmp_path):
    findings = assert_log_leads(tmp_path, [BF16_LINE], CUBLAS, "gpu-without-bf16")
    assert len(findings) == 1
    for words in ("torch_dtype=torch.float16", "--dtype half", "fp16=True"):
        assert words in findings[0].remedy.en, words


def test_a_bf16_gemm_on_an_ampere_gpu_rules_the_old_gpu_out(tmp_path):
    """A GPU the log shows of compute capability 8.0 or newer is no pre-Ampere GPU (torch's capability warning of an
    H100, pytorch/pytorch#110153)."""
    report = cli_report(tmp_path, [
        "NVIDIA H100 PCIe with CUDA capability sm_90 is not compatible with the current PyTorch installation.",
        BF16_LINE])
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == CUBLAS)
    assert "gpu-without-bf16" in match["ruled_out"] and match["cause"] == "cublas-not-torchs"
