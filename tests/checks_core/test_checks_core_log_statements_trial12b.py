"""What the lines of the twelfth trial's failures state (trial 12b): the CUDA of the toolkit a JIT build uses beside
torch's (DeepSpeed's op builder, torch's cpp_extension), the NVRTC release whose builtins library could not be opened,
the data type and API of a cuBLAS call reported as not supported, and the TensorRT releases or GPUs of an engine plan
TensorRT refuses.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.facts import Facts, TorchBuildFacts
from lingjun.checks.knowledge.fact_values import UNKNOWN, fact_value
from log_statements_kit import feed, stated


@pytest.mark.parametrize("line, toolkit, torch", [
    # deepspeedai/DeepSpeed#3411 (the warning DeepSpeed prints when the majors agree)
    ("Installed CUDA version 11.2 does not match the version torch was compiled with 11.7 but since the APIs are "
     "compatible, accepting this combination", "11.2", "11.7"),
    # JIA-Lab-research/MGM#91 (the exception DeepSpeed raises when the majors differ)
    ("deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 12.2 does "
     "not match the version torch was compiled with 11.7, unable to compile cuda/cpp extensions without a matching cuda "
     "version.", "12.2", "11.7"),
    # OpenGVLab/InternImage#188 (torch's cpp_extension)
    ("RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.7). "
     "Please make sure to use the same CUDA versions.", "12.1", "11.7"),
    # icip-cas/AutoAlign#25: the message's second half is on the next line
    ("      The detected CUDA version (11.8) mismatches the version that was used to compile", "11.8", None),
])
def test_a_build_line_states_the_toolkits_cuda_and_torchs(line, toolkit, torch):
    evidence = feed(line)
    facts = stated(evidence)
    assert facts["cuda.toolkit"] == toolkit
    assert facts.get("torch.cuda") == torch
    assert fact_value("cuda.toolkit", Facts(), evidence).value == toolkit
    matches = fact_value("build.toolkit_matches_torch", Facts(), evidence)
    if torch is None:
        assert matches.value is UNKNOWN
    else:
        assert (matches.value, matches.line) == (False, "job.log:1")


def test_the_toolkit_of_a_log_is_compared_with_the_probed_torch():
    """A line naming the toolkit only (cpp_extension's, cut at its end) against torch's CUDA as probed."""
    evidence = feed("      The detected CUDA version (11.8) mismatches the version that was used to compile")
    facts = Facts(torch=TorchBuildFacts(cuda="11.8"))
    assert fact_value("build.toolkit_matches_torch", facts, evidence).value is True
    assert fact_value("torch.cuda", facts, evidence).value == "11.8"


@pytest.mark.parametrize("line, version", [
    # wenet-e2e/wenet#1335 (libtorch: the uncaught exception's what() line)
    ("  what():  nvrtc: error: failed to open libnvrtc-builtins.so.11.3.", "11.3"),
    # WisconsinAIVision/yolact_edge#186 (torch)
    ("RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.1.", "11.1"),
    # NVIDIA/numba-cuda#196 (numba's message since that pull request)
    ("nvrtc: error: failed to open libnvrtc-builtins.so.12.8.", "12.8"),
])
def test_nvrtcs_failed_open_states_the_release_of_the_builtins(line, version):
    assert stated(feed(line))["nvrtc.builtins_version"] == version


def test_an_unversioned_builtins_name_states_no_release():
    # chainer/chainer#4813 (CuPy)
    evidence = feed("Exception in main training loop: nvrtc: error: failed to open libnvrtc-builtins.so.")
    assert "nvrtc.builtins_version" not in evidence.stated


@pytest.mark.parametrize("line, data_type, lt", [
    # opendatalab/MinerU#1508 (a Tesla M40)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, opb, "
     "(int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, "
     "(void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`",
     "bf16", False),
    # buaacyw/GaussianEditor#46 (half precision, a 32-bit compute type after the matrices)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
     "&falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, "
     "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`", "fp16", False),
    # city-super/Scaffold-GS#83 (float32: the legacy call's name says it)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasSgemmStridedBatched( handle, opa, opb, "
     "m, n, k, &alpha, a, lda, stridea, b, ldb, strideb, &beta, c, ldc, stridec, num_batches)`", "fp32", False),
    # THUDM/WebGLM#3 (cuBLASLt: the call names descriptors, no data type)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic( ltHandle, "
     "computeDesc.descriptor(), Adesc.descriptor(), Bdesc.descriptor(), Cdesc.descriptor(), Cdesc.descriptor(), "
     "preference.descriptor(), 1, &heuristicResult, &returnedResult)`", None, True),
    # Yasoz/DiffTraj#19 (torch's later cublasLtMatmul form: abcType 14 is CUDA_R_16BF)
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasLtMatmul with transpose_mat1 1 "
     "transpose_mat2 0 m 512 n 4 k 512 mat1_ld 512 mat2_ld 512 result_ld 512 abcType 14 computeTy", "bf16", True),
])
def test_a_cublas_call_states_its_data_type_and_api(line, data_type, lt):
    evidence = feed(line)
    assert stated(evidence).get("cublas.data_type") == data_type
    assert fact_value("cublas.lt_call", Facts(), evidence).value is lt


def test_tensorrt_states_the_release_that_loads_the_plan_and_the_one_that_built_it():
    # NVIDIA/retinanet-examples#314
    facts = stated(feed("6: The engine plan file is not compatible with this version of TensorRT, expecting library "
                        "version 8.0.0 got 8.0.1, please rebuild."))
    assert (facts["tensorrt.version"], facts["tensorrt.engine_version"]) == ("8.0.0", "8.0.1")


def test_tensorrt_states_this_gpus_compute_capability_and_the_engines():
    # NVIDIA/TensorRT#2176 (an RTX 3080, compute 8.6)
    evidence = feed("The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute "
                    "7.5, please rebuild.4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error "
                    "(Engine deserialization failed.)")
    assert stated(evidence)["tensorrt.engine_compute"] == "7.5"
    assert fact_value("gpu.compute_capability_min", Facts(), evidence).value == "8.6"
