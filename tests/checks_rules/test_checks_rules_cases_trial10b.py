"""Lines of public failure reports (trial 10) that no signature matched: a CUDA library that reports an undefined
symbol because another copy of a library of its set is loaded (cuda-library-undefined-symbol-shadowed), SGLang's
start-up check refusing an installed package's version (sglang-package-version-below-minimum) and transformers'
import-time check of its pinned dependencies (transformers-dependency-version-refused), Inductor failing to import
Triton's triton_key (torch-inductor-triton-key-import) and JAX refusing a PJRT plugin of another API version
(jax-pjrt-plugin-api-mismatch), torch's cpp_extension refusing an architecture (torch-cpp-extension-unknown-cuda-arch)
TensorRT refusing an engine built by another TensorRT (tensorrt-engine-version-tag-mismatch) and DeepSpeedCPUAdam without
its extension (deepspeed-cpu-adam-not-built).

Lines are quoted from public reports: MahmoudAshraf97/whisper-diarization#343, opendatalab/MinerU#2664,
pytorch/pytorch#111469, #134929, vllm-project/vllm#6118, naver/dust3r#198, replicate/cog#1430,
nanoporetech/dorado#166, hcnoh/gail-pytorch#5, hpcaitech/ColossalAI#4059, microsoft/onnxruntime#8594,
PaddlePaddle/PaddleSeg#3215, THU-MIG/yolov10#306, NVIDIA/nccl#1180 (CUDA libraries); redai-studio/Relax#8,
verl-project/verl#1832, sgl-project/sglang#6160, huggingface/transformers#27580, oobabooga/textgen#2805 (versions);
coreweave/ml-containers#64, pytorch/pytorch#157242, #127271, woct0rdho/triton-windows#158 (triton_key);
jax-ml/jax#22416, #24901, #21383, PlasmaControl/DESC#1534, intel/intel-extension-for-openxla#27, ma-gilles/recovar#64
(PJRT);
OpenBMB/BMTrain#83, lkeab/BCNet#23, yfeng95/DECA#190, KaihuaTang/Scene-Graph-Benchmark.pytorch#216, NVIDIA/apex#615
(architectures); triton-inference-server/tensorrtllm_backend#190, #531, NVIDIA/ChatRTX#14, GeekAlexis/FastMOT#127
(TensorRT engines); SwiftSage/SwiftSage#4, lsdefine/simple_GRPO#7 (cpu_adam).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import assert_line_is, assert_log_leads, assert_matches_none, cli_report, not_ok_findings

SHADOWED = "cuda-library-undefined-symbol-shadowed"
VERSION = "sglang-package-version-below-minimum"
TRANSFORMERS = "transformers-dependency-version-refused"
TRITON_KEY = "torch-inductor-triton-key-import"
PJRT = "jax-pjrt-plugin-api-mismatch"
ARCH = "torch-cpp-extension-unknown-cuda-arch"
TRT = "tensorrt-engine-version-tag-mismatch"
CPU_ADAM = "deepspeed-cpu-adam-not-built"

CASES = [
    (SHADOWED, "other-copy-on-loader-path",
     "Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig"),
    (SHADOWED, "other-copy-on-loader-path",
     "symbol cudnnGetLibConfig. Error: /usr/local/cuda/lib64/libcudnn_graph.so.9: undefined symbol: cudnnGetLibConfig"),
    (SHADOWED, "other-copy-on-loader-path",
     "ImportError: /usr/local/lib/python3.10/dist-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: "
     "undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12"),
    (SHADOWED, "other-copy-on-loader-path",
     "libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version libnvJitLink.so.12"),
    # the reporter's name is left out: the symbol's version still names the library
    (SHADOWED, "other-copy-on-loader-path",
     "ImportError: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12"),
    (SHADOWED, "other-copy-on-loader-path",
     "Could not load library libcudnn_cnn_infer.so.8. Error: /usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8: "
     "undefined symbol: _ZN5cudnn3ops18GetInternalStreamsEP12cudnnContextiPP11CUstream_st, version "
     "libcudnn_ops_infer.so.8"),
    (SHADOWED, "other-copy-on-loader-path",
     "Could not load library libcudnn_cnn_infer.so.8. Error: /usr/local/Cluster-Apps/cuda/8.0/lib64/libnvrtc.so: "
     "undefined symbol: nvrtcGetCUBIN"),
    (SHADOWED, "other-copy-on-loader-path",
     "OSError: /home/dl/GAIL/GAIL/lib/python3.8/site-packages/torch/lib/../../nvidia/cublas/lib/libcublas.so.11: "
     "undefined symbol: cublasLtGetStatusString, version libcublasLt.so.11"),
    (SHADOWED, "other-copy-on-loader-path",
     "OSError: /home/piai/anaconda3/envs/asdasd/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol "
     "cublasLtHSHMatmulAlgoInit version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time "
     "reference"),
    (SHADOWED, "other-copy-on-loader-path",
     "python: relocation error: /usr/local/cuda-11.1/lib64/libcublas.so: symbol runGemmShortApi, version "
     "libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference"),
    (SHADOWED, "other-copy-on-loader-path",
     "ImportError: /root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so: undefined "
     "symbol: ncclCommRegister"),
    (VERSION, "dependency-older-than-required",
     "Exception: flashinfer_python is installed with version 0.6.3, which is less than the minimum required version "
     "0.6.4. Please uninstall the old version and reinstall the latest version by following the instructions at "
     "https://docs.flashinfer.ai/installation.html."),
    (VERSION, "dependency-older-than-required",
     "Exception: sgl-kernel is installed with version 0.0.9.post2, which is less than the minimum required version "
     "0.1.1. Please reinstall the latest version with `pip install sgl-kernel --force-reinstall`"),
    (VERSION, "dependency-older-than-required",
     "flashinfer_python with minimum required version 0.2.5 is not installed"),
    (TRANSFORMERS, "installed-separately",
     "ImportError: tokenizers>=0.11.1,!=0.11.3,<0.14 is required for a normal functioning of this module, but found "
     "tokenizers==0.15.0. Try: pip install transformers -U or pip install -e '.[dev]' if you're working with git main"),
    (TRANSFORMERS, "installed-separately",
     "tokenizers>=0.13.3 is required for a normal functioning of this module, but found tokenizers==0.13.2."),
    (TRITON_KEY, "triton-not-torch-pin",
     "[rank7]: ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
     "(/usr/local/lib/python3.10/dist-packages/triton/compiler/compiler.py)"),
    (TRITON_KEY, "triton-not-torch-pin",
     "ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
     "(/home/jansel/pytorch/triton/compiler/compiler.py)"),
    (TRITON_KEY, "triton-not-torch-pin",
     "LoweringException: ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
     "(/home/yanbingj/anaconda3/envs/sam/lib/python3.10/site-packages/triton/compiler/compiler.py)"),
    (TRITON_KEY, "triton-not-torch-pin", "ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler'"),
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
     "(0.54) and framework PJRT API version 0.51)."),
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
     "(0.54) and framework PJRT API version 0.51). (you may need to uninstall the failing plugin package, or set "
     "JAX_PLATFORMS=cpu to skip this backend.)"),
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Unexpected PJRT_Client_Create_Args size: "
     "expected 88, got 72. The plugin is likely built with a later version than the framework. This plugin is built "
     "with PJRT API version 0.64. (set JAX_PLATFORMS='' to automatically choose an available backend)."),
    # another vendor's plugin: the record's order (the CUDA plugin is the most reported) still leads
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "RuntimeError: Unable to initialize backend 'xpu': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
     "(0.38) and framework PJRT API version 0.40). (you may need to uninstall the failing plugin package, or set "
     "JAX_PLATFORMS=cpu to skip this backend.)"),
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "jaxlib.xla_extension.XlaRuntimeError: INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version (0.47) and "
     "framework PJRT API version 0.51)."),
    (PJRT, "cuda-plugin-and-jaxlib-differ",
     "RuntimeWarning: JAX plugin jax_cuda12_plugin version 0.9.2 is installed, but it is not compatible with the "
     "installed jaxlib version 0.9.0.1"),
    (ARCH, "arch-newer-than-torch", "ValueError: Unknown CUDA arch (9.0+PTX) or GPU not supported"),
    (ARCH, "arch-newer-than-torch", "ValueError: Unknown CUDA arch (8.0) or GPU not supported"),
    (ARCH, "arch-newer-than-torch", "error:ValueError: Unknown CUDA arch (8.9) or GPU not supported"),
    # a full-width semicolon: the record's order (a newer GPU is the most reported) still leads
    (ARCH, "arch-newer-than-torch", "ValueError: Unknown CUDA arch (8.6；8.9) or GPU not supported"),
    (ARCH, "arch-newer-than-torch", "    ValueError: Unknown CUDA arch (3.0) or GPU not supported"),
    (TRT, "built-in-another-image",
     "[TensorRT-LLM][ERROR] 1: [stdArchiveReader.cpp::stdArchiveReaderInitCommon::47] Error Code 1: Serialization "
     "(Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: "
     "Current Version: 226, Serialized Engine Version: 228)"),
    (TRT, "built-in-another-image",
     "Error Code 1: Serialization (Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag "
     "does not match. Note: Current Version: 228, Serialized Engine Version: 226)"),
    (TRT, "built-in-another-image",
     "Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: "
     "Current Version: 228, Serialized Engine Version: 237"),
    (TRT, "built-in-another-image",
     "[TensorRT] ERROR: coreReadArchive.cpp (41) - Serialization Error in verifyHeader: 0 (Version tag does not "
     "match. Note: Current Version: 96, Serialized Engine Version: 97)"),
    (CPU_ADAM, "toolkit-not-torch-cuda", "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"),
]

NEAR_MISSES = [
    # an extension built for another torch: python-extension-undefined-symbol's line, not a CUDA library's
    "ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined "
    "symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
    # a program that never linked cuDNN (pyyolo#41): nothing names a CUDA library's copy
    "ImportError: /usr/local/lib/python2.7/dist-packages/pyyolo.so: undefined symbol: cudnnSetConvolutionGroupCount",
    # the library is missing, not another copy of it (cudnn-library-not-found)
    "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
    "No such file or directory",
    # a link-time error of the build, not the loader's
    "/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined reference to `cublasLtGetStatusString@libcublasLt.so.11'",
    # pip's resolver warning states a conflict but nothing failed yet
    "transformers 4.30.2 requires tokenizers!=0.11.3,<0.14,>=0.11.1, but you have tokenizers 0.14.1 which is incompatible.",
    "ERROR: Could not find a version that satisfies the requirement sgl-kernel>=0.0.3.post6; extra == \"srt\" (from "
    "sglang[srt]) (from versions: 0.0.1, 0.0.2.post2)",
    # the traceback's source line and Dynamo's wrapper, printed above the ImportError
    "[rank7]:     from triton.compiler.compiler import triton_key",
    "[rank7]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
    "ImportError: cannot import name 'get_cuda_stream' from 'triton.runtime.jit'",  # another Triton name
    # JAX's own CUDA libraries older than jaxlib's build: jax-cuda-backend-failed and xla-cudnn-version-mismatch
    "CUDA backend failed to initialize: Found cuBLAS version 120205, but JAX was built against version 120304, "
    "which is newer.",
    "E0715 18:02:17.586518  591934 cuda_dnn.cc:523] Loaded runtime CuDNN library: 9.0.0 but source was compiled "
    "with: 9.1.1.  CuDNN library needs to have matching major version and equal or higher minor version.",
    # the source line of the raise, quoted in the traceback above the ValueError
    '    raise ValueError("Unknown CUDA arch ({}) or GPU not supported".format(arch))',
    "nvcc fatal   : Unsupported gpu architecture 'compute_90'",  # nvcc's own refusal (another signature)
    # what TensorRT-LLM says after the refusal: it names no cause of its own
    "E0116 03:59:20.053910 792 backend_model.cc:634] ERROR: Failed to create instance: unexpected error when creating "
    "modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine",
    "[TensorRT-LLM][INFO] Loaded engine size: 12858 MiB",
    "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7fe9ffe7dc60>",  # the wrapper, not the error
    "AttributeError: 'FusedAdam' object has no attribute 'multi_tensor_adam'",
]

#: small logs built from the threads' lines
LOGS = {
    # MahmoudAshraf97/whisper-diarization#343 (the trial's case 19)
    "whisper-diarization-343": ([
        CASES[0][2],
    ], SHADOWED, "other-copy-on-loader-path"),
    # pytorch/pytorch#111469 (the trial's case 20)
    "pytorch-111469": ([
        CASES[2][2],
    ], SHADOWED, "other-copy-on-loader-path"),
    # redai-studio/Relax#20: SGLang's traceback, with Relax#8's full line (the trial's case 13)
    "relax-8": ([
        '  File "/sgl-workspace/sglang/python/sglang/srt/entrypoints/engine.py", line 1127, in _set_envs_and_config',
        "    assert_pkg_version(",
        '  File "/sgl-workspace/sglang/python/sglang/srt/utils/common.py", line 1101, in assert_pkg_version',
        "    raise Exception(",
        CASES[11][2],
    ], VERSION, "dependency-older-than-required"),
    # coreweave/ml-containers#64 (the trial's case 17)
    "coreweave-64": ([
        "[rank7]:     from triton.compiler.compiler import triton_key",
        "[rank7]: torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:",
        CASES[16][2],
    ], TRITON_KEY, "triton-not-torch-pin"),
    # jax-ml/jax#22416 (the trial's case 18)
    "jax-22416": ([
        CASES[20][2],
    ], PJRT, "cuda-plugin-and-jaxlib-differ"),
    # OpenBMB/BMTrain#83 (the trial's case 16)
    "bmtrain-83": ([
        '    raise ValueError("Unknown CUDA arch ({}) or GPU not supported".format(arch))',
        CASES[26][2],
    ], ARCH, "arch-newer-than-torch"),
    # triton-inference-server/tensorrtllm_backend#190 (the trial's case 12)
    "tensorrtllm-backend-190": ([
        "[TensorRT-LLM][INFO] Loaded engine size: 12858 MiB",
        CASES[31][2],
    ], TRT, "built-in-another-image"),
    # lsdefine/simple_GRPO#7 (the trial's case 15)
    "simple-grpo-7": ([
        "Exception ignored in: <function DeepSpeedCPUAdam.__del__ at 0x7fe9ffe7dc60>",
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.10/site-packages/deepspeed/ops/adam/cpu_adam.py", line 102, in __del__',
        CASES[35][2],
    ], CPU_ADAM, "toolkit-not-torch-cuda"),
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
    """The lead finding of the log."""
    return not_ok_findings(tmp_path, lines)[0]


def test_the_shadowed_library_remedy_shows_the_loaded_file_and_takes_the_other_copy_away(tmp_path):
    finding = _line_finding(tmp_path, LOGS["pytorch-111469"][0])
    assert finding.severity is Severity.error
    assert "LD_DEBUG=libs" in finding.remedy.en and "unset LD_LIBRARY_PATH" in finding.remedy.en
    assert "/nvidia/nvjitlink/lib:$LD_LIBRARY_PATH" in finding.remedy.en


def test_the_version_remedy_installs_the_named_version_under_a_constraints_file(tmp_path):
    finding = _line_finding(tmp_path, LOGS["relax-8"][0])
    assert finding.severity is Severity.error
    assert "pip freeze > /tmp/constraints.txt" in finding.remedy.en
    assert "-c /tmp/constraints.txt" in finding.remedy.en and "flashinfer-cubin" in finding.remedy.en


def test_the_triton_key_remedy_reads_torchs_pin(tmp_path):
    finding = _line_finding(tmp_path, LOGS["coreweave-64"][0])
    assert finding.severity is Severity.error
    assert "m.requires('torch')" in finding.remedy.en and "pip install 'triton==2.2.0'" in finding.remedy.en


def test_the_pjrt_remedy_installs_jax_and_its_plugin_at_one_version(tmp_path):
    finding = _line_finding(tmp_path, LOGS["jax-22416"][0])
    assert finding.severity is Severity.error
    assert 'pip install -U "jax[cuda12]"' in finding.remedy.en and "jax-cuda12-pjrt==0.4.31" in finding.remedy.en


def test_the_arch_remedy_lists_the_known_archs_and_ends_the_list_with_ptx(tmp_path):
    finding = _line_finding(tmp_path, LOGS["bmtrain-83"][0])
    assert finding.severity is Severity.error
    assert "supported_arches" in finding.remedy.en and 'TORCH_CUDA_ARCH_LIST="8.0;8.6+PTX"' in finding.remedy.en


def test_the_tensorrt_remedy_rebuilds_the_engine_where_it_is_served(tmp_path):
    finding = _line_finding(tmp_path, LOGS["tensorrtllm-backend-190"][0])
    assert finding.severity is Severity.error
    assert "import tensorrt; print(tensorrt.__version__)" in finding.remedy.en


def test_the_cpu_adam_line_sums_up_the_build_error_before_it(tmp_path):
    """With the build's own error above it (build-cuda-version-mismatch), that line leads and this one follows."""
    lines = [
        "RuntimeError: The detected CUDA version (11.2) mismatches the version that was used to compile PyTorch (11.6). "
        "Please make sure to use the same CUDA versions.",
        CASES[35][2],
    ]
    report = cli_report(tmp_path, lines)
    assert [m["signature"] for m in report["evidence"]["matches"]][-1] == CPU_ADAM
    assert report["evidence"]["matches"][0]["signature"] != CPU_ADAM
    finding = _line_finding(tmp_path, LOGS["simple-grpo-7"][0])
    assert "DS_BUILD_CPU_ADAM=1" in finding.remedy.en

