"""cuda-header-not-found, cudnn-library-not-found, cudnn-nvrtc-not-found, apex-cuda-extensions-missing,
gpu-operator-driver-gpl-only-symbol, transformer-engine-no-attention-backend and nccl-ofi-register-memory-failed:
build and loader failures of CUDA, cuDNN and apex, the NVIDIA kernel module on a newer kernel, Transformer Engine's
attention backend selection, and aws-ofi-nccl's memory registration.

Lines are quoted from public reports: open-mmlab/mmdetection#71, MVIG-SJTU/AlphaPose#522, horovod/horovod#3924
(headers); m-bain/whisperX#902, SYSTRAN/faster-whisper#297, microsoft/onnxruntime-genai#694 (cuDNN);
AUTOMATIC1111/stable-diffusion-webui#10230 (libnvrtc.so); NVIDIA/apex#499, NVIDIA/apex#1208, NVIDIA/apex#1193 (apex);
NVIDIA/gpu-operator#729, zabbly/linux#43 (modpost); NVIDIA/TransformerEngine#1821, flagos-ai/FlagScale#312 (TE);
NVIDIA/nccl#563, aws/aws-ofi-nccl#584 (NET/OFI).
"""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import cli_report, evidence_for_log, findings_for_log, lead_cause

HEADER = "cuda-header-not-found"
CUDNN = "cudnn-library-not-found"
NVRTC = "cudnn-nvrtc-not-found"
APEX = "apex-cuda-extensions-missing"
GPL = "gpu-operator-driver-gpl-only-symbol"
TE = "transformer-engine-no-attention-backend"
OFI = "nccl-ofi-register-memory-failed"

CASES = [
    (HEADER, "runtime-only-environment",
     "/usr/include/stdc-predef.h:59:1: fatal error: cuda_runtime.h: No such file or directory"),
    (HEADER, "runtime-only-environment",
     "/usr/local/lib/python3.6/dist-packages/torch/include/ATen/cuda/CUDAContext.h:12:10: fatal error: cusparse.h: "
     "No such file or directory"),
    (HEADER, "runtime-only-environment",
     "      /tmp/pip-install-j_are0ec/horovod_20a0d596553a4c759ad0de51f2163125/horovod/common/ops/nccl_operations.h:22:10: "
     "fatal error: nccl.h: No such file or directory"),
    (CUDNN, "cudnn-not-on-loader-path",
     "Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}"),
    (CUDNN, "cudnn-not-on-loader-path",
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory"),
    (CUDNN, "cudnn-not-on-loader-path",
     "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory"),
    (NVRTC, "torch-wheel-replaced-image-torch",
     "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: "
     "No such file or directory"),
    (APEX, "apex-built-python-only", "ModuleNotFoundError: No module named 'fused_layer_norm_cuda'"),
    (APEX, "apex-built-python-only", "ModuleNotFoundError: No module named 'amp_C'"),
    (APEX, "apex-built-python-only", "RuntimeError: apex.optimizers.FusedAdam requires cuda extensions"),
    (GPL, "kernel-newer-than-driver",
     "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol 'rcu_read_unlock_strict'"),
    (GPL, "kernel-newer-than-driver",
     "ERROR: modpost: GPL-incompatible module nvidia-drm.ko uses GPL-only symbol '__vma_start_write'"),
    (TE, "inputs-outside-every-backend",
     "ValueError: No dot product attention backend is available for the provided inputs. Please run with NVTE_DEBUG=1 "
     "NVTE_DEBUG_LEVEL=2 to find out the reasons for disabling all backends."),
    (TE, "inputs-outside-every-backend", "[default0]:ValueError: No dot product attention support for the provided inputs!"),
    (OFI, "libfabric-cuda-sync-memops",
     "register_mr_buffers:544 NCCL WARN NET/OFI Unable to register memory (type = 2) for device 0. RC: -22, "
     "Error: Invalid argument"),
    (OFI, "libfabric-cuda-sync-memops",
     "10.0.87.143: 10.0.87.143: ip-10-0-87-143:149:298 [5] register_mr_buffers:465 NCCL WARN NET/OFI Unable to "
     "register memory (type = 1) for device 0. RC: 12, Error: Cannot allocate memory"),
]

NEAR_MISSES = [
    '    raise ValueError("No dot product attention support for the provided inputs!")',  # TE's source in a traceback
    "    fused_layer_norm_cuda = importlib.import_module(\"fused_layer_norm_cuda\")",  # apex's source line
    "ModuleNotFoundError: No module named 'apex'",  # apex missing altogether, not its extensions
    "ERROR: modpost: GPL-incompatible module gdrdrv.ko uses GPL-only symbol 'cc_mkdec'",  # NVIDIA/gdrcopy#254
    "OSError: libnvrtc.so: cannot open shared object file: No such file or directory",  # torch's own NVRTC load
    " #include <cuda_runtime.h>",  # the compiler's quote of the include
]

#: a setup.py build of a CUDA op in a runtime-only environment (MVIG-SJTU/AlphaPose#522)
HEADER_LOG = [
    "running build_ext",
    "building 'detector.nms.nms_cuda' extension",
    "/usr/local/cuda/bin/nvcc -I/usr/local/lib/python3.6/dist-packages/torch/include -c detector/nms/src/nms_kernel.cu "
    "-o build/temp.linux-x86_64-3.6/detector/nms/src/nms_kernel.o",
    "In file included from detector/nms/src/nms_kernel.cu:3:0:",
    CASES[1][2],
    " #include <cusparse.h>",
    "          ^~~~~~~~~~~~",
    "compilation terminated.",
    "error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1",
]

#: Megatron on Transformer Engine with no usable attention backend (NVIDIA/TransformerEngine#1821, FlagScale#312)
TE_LOG = [
    '[rank0]:   File "/usr/local/lib/python3.10/dist-packages/megatron/core/extensions/transformer_engine.py", '
    "line 746, in forward",
    "[rank0]:     core_attn_out = super().forward(",
    '[rank0]:   File "/usr/local/lib/python3.10/dist-packages/transformer_engine/pytorch/attention/dot_product_attention/'
    'dot_product_attention.py", line 1010, in forward',
    "[rank0]:     raise ValueError(",
    "[rank0]: " + CASES[12][2],
]


def errors_for(tmp_path, lines: list[str]) -> list:
    errors = [f for f in findings_for_log(tmp_path, lines) if f.severity is Severity.error]
    assert_bilingual(errors)
    return errors


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [sig_id]
    assert lead_cause(cli_report(tmp_path, [line]), sig_id) == cause


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_miss_lines_match_none_of_these_signatures(tmp_path, line):
    ours = {HEADER, CUDNN, NVRTC, APEX, GPL, TE, OFI}
    assert not ours & {h.signature for h in evidence_for_log(tmp_path, [line]).hits}


def test_header_build_log_names_the_missing_header_and_the_development_packages(tmp_path):
    [finding] = errors_for(tmp_path, HEADER_LOG)
    assert "fatal error: cusparse.h: No such file or directory" in finding.message.en
    assert "Most likely cause here: The environment has the CUDA (or NCCL) runtime libraries but not their " \
           "development headers" in finding.message.en
    # the log shows no torch: the package names say X-Y, the CUDA version torch was built with
    for word in ("-devel variant", "libcusparse-dev-X-Y", "libnccl-dev"):
        assert word in finding.remedy.en, word


def test_header_include_quote_is_not_a_second_error_line(tmp_path):
    [hit] = evidence_for_log(tmp_path, HEADER_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (HEADER, 1, 5)


def test_transformer_engine_traceback_quotes_the_value_error_and_the_debug_switches(tmp_path):
    [hit] = evidence_for_log(tmp_path, TE_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (TE, 1, 5)
    [finding] = errors_for(tmp_path, TE_LOG)
    assert "No dot product attention backend is available for the provided inputs" in finding.message.en
    assert "NVTE_DEBUG=1 NVTE_DEBUG_LEVEL=2" in finding.remedy.en


def test_cudnn_and_nvrtc_lines_in_one_log_are_two_findings(tmp_path):
    report = cli_report(tmp_path, [CASES[3][2], "Aborted (core dumped)", CASES[6][2]])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [CUDNN, NVRTC]


def test_ofi_line_leads_and_nccl_system_error_summary_follows(tmp_path):
    first, second = errors_for(tmp_path, [
        "ip-10-0-87-143:149:149 [5] NCCL INFO NET/OFI Using aws-ofi-nccl 1.7.4-aws",
        CASES[14][2],
        "ip-10-0-87-143:149:298 [5] NCCL INFO transport/net.cc:223 -> 2",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3",
    ])
    assert "NET/OFI Unable to register memory (type = 2)" in first.message.en
    assert "FI_EFA_SET_CUDA_SYNC_MEMOPS=0" in first.remedy.en
    assert "sums up a failure" in second.message.en
