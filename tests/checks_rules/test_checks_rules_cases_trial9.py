"""Lines of the ninth trial's failure logs that no signature matched: apex's CUDA check
(build-cuda-version-mismatch), cuda_profiler_api.h (cuda-header-not-found), and the signatures added for them.

Lines are quoted from public reports: NVIDIA/apex#1548, NVIDIA/apex#1171 (apex); deepspeedai/DeepSpeed#2682
(cuda_profiler_api.h);
Dao-AILab/flash-attention#509, #825, DQiaole/MemFlow#14 (flash-attn's setup.py).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import assert_line_is, assert_log_leads, assert_matches_none, findings_for_log

MISMATCH = "build-cuda-version-mismatch"
HEADER = "cuda-header-not-found"
FA_NVCC = "flash-attn-build-nvcc-not-found"
FA_NVCC_WARN = "flash-attn-setup-nvcc-missing-warning"
FA_CUDA = "flash-attn-build-cuda-too-old"

CASES = [
    (MISMATCH, "toolkit-other-than-torch",
     "  RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used "
     "to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.3."),
    (MISMATCH, "toolkit-other-than-torch",
     "RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used "
     "to compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 10.2."),
    (HEADER, "runtime-only-environment",
     "/root/anaconda3/envs/bitten/lib/python3.8/site-packages/deepspeed/ops/csrc/includes/gemm_test.h:6:10: "
     "fatal error: cuda_profiler_api.h: No such file or directory"),
    (FA_NVCC, "no-nvcc-prebuilt-wheel-not-used",
     "      RuntimeError: flash_attn was requested, but nvcc was not found.  Are you sure your environment has nvcc "
     "available?  If you're installing within a container from https://hub.docker.com/r/pytorch/pytorch, only images "
     "whose names contain 'devel' will provide nvcc."),
    (FA_NVCC_WARN, "no-nvcc-no-matching-wheel",
     "      /tmp/pip-install-lfqw4621/flash-attn_3a5a1bca3d3d4043b1c739513830dd1f/setup.py:72: UserWarning: flash_attn "
     "was requested, but nvcc was not found.  Are you sure your environment has nvcc available?  If you're installing "
     "within a container from https://hub.docker.com/r/pytorch/pytorch, only images whose names contain 'devel' will "
     "provide nvcc."),
    (FA_CUDA, "old-nvcc-found-first",
     "      RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure nvcc has a "
     "supported version by running nvcc -V."),
    (FA_CUDA, "old-nvcc-found-first", "RuntimeError: FlashAttention is only supported on CUDA 11.7 and above."),
]

NEAR_MISSES = [
    # apex's source quoted in the traceback, not the error
    '      raise RuntimeError("Cuda extensions are being compiled with a version of Cuda that does " +',
    " #include <cuda_profiler_api.h>",  # the compiler's quote of the include
    "RuntimeError: --cuda_ext was requested, but nvcc was not found.",  # apex's own check, not flash-attn's
    "FlashAttention is only supported on CUDA devices",  # no version
]

#: the trial's logs, each as the trial built it from its thread
TRIAL_LOGS = {
    # NVIDIA/apex#1548
    "01": ([
        '    File "/home/shilpa/Desktop/ASP/apex/setup.py", line 64, in <module>',
        "      check_cuda_torch_binary_vs_bare_metal(torch.utils.cpp_extension.CUDA_HOME)",
        '    File "/home/shilpa/Desktop/ASP/apex/setup.py", line 50, in check_cuda_torch_binary_vs_bare_metal',
        '      raise RuntimeError("Cuda extensions are being compiled with a version of Cuda that does " +',
        CASES[0][2],
        "  In some cases, a minor-version mismatch will not cause later errors:  "
        "https://github.com/NVIDIA/apex/pull/323#discussion_r287021798.  You can try commenting out this check "
        "(at your own risk).",
        "  error: subprocess-exited-with-error",
        "  × Running setup.py install for apex did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> See above for output.",
    ], MISMATCH, "toolkit-other-than-torch"),
    # deepspeedai/DeepSpeed#2682
    "04": ([
        "In file included from /root/anaconda3/envs/bitten/lib/python3.8/site-packages/deepspeed/ops/csrc/includes/"
        "context.h:11:0,",
        "                 from /root/anaconda3/envs/bitten/lib/python3.8/site-packages/deepspeed/ops/csrc/includes/"
        "custom_cuda_layers.h:16,",
        "                 from /root/anaconda3/envs/bitten/lib/python3.8/site-packages/deepspeed/ops/csrc/common/"
        "custom_cuda_kernel.cu:1:",
        CASES[2][2],
        " #include <cuda_profiler_api.h>",
        "          ^~~~~~~~~",
        "compilation terminated.",
        "ninja: build stopped: subcommand failed.",
        "Traceback (most recent call last):",
        '  File "/root/anaconda3/envs/bitten/lib/python3.8/site-packages/torch/utils/cpp_extension.py", line 1900, '
        "in _run_ninja_build",
        "    subprocess.run(",
        "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
        "RuntimeError: Error building extension 'cpu_adam'",
    ], HEADER, "runtime-only-environment"),
    # Dao-AILab/flash-attention#509
    "03": ([
        "pip install -U flash-attn",
        "Collecting flash-attn",
        "  Downloading flash_attn-2.1.2.post3.tar.gz (2.3 MB)",
        "  Preparing metadata (setup.py) ... error",
        "  error: subprocess-exited-with-error",
        "",
        "  × python setup.py egg_info did not run successfully.",
        "  │ exit code: 1",
        "  ╰─> [20 lines of output]",
        "      fatal: not a git repository (or any of the parent directories): .git",
        CASES[4][2],
        "        warnings.warn(",
        "      Traceback (most recent call last):",
        '        File "<string>", line 2, in <module>',
        '        File "<pip-setuptools-caller>", line 34, in <module>',
    ], FA_NVCC_WARN, "no-nvcc-no-matching-wheel"),
    # Dao-AILab/flash-attention#825
    "15": ([
        "$ nvcc -V",
        "nvcc: NVIDIA (R) Cuda compiler driver",
        "Copyright (c) 2005-2019 NVIDIA Corporation",
        "Built on Sun_Jul_28_19:07:16_PDT_2019",
        "Cuda compilation tools, release 10.1, V10.1.243",
        "$ pip install flash-attn --no-build-isolation",
        "      Traceback (most recent call last):",
        '        File "<string>", line 2, in <module>',
        '        File "<pip-setuptools-caller>", line 34, in <module>',
        '        File "/tmp/pip-install-xyz/flash-attn_abc/setup.py", line 164, in <module>',
        "          raise RuntimeError(",
        CASES[5][2],
        "      torch.__version__  = 2.3.1+cu121",
        "      [end of output]",
    ], FA_CUDA, "old-nvcc-found-first"),
}

OURS = {sig_id for sig_id, _, _ in CASES}


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert_line_is(tmp_path, line, sig_id, cause)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_miss_lines_match_none_of_these_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, OURS)


def test_flash_attn_nvcc_warning_is_a_warning_and_the_runtime_error_an_error(tmp_path):
    [warning] = [f for f in findings_for_log(tmp_path, [CASES[4][2]]) if f.severity is not Severity.ok]
    assert warning.severity is Severity.warning
    [error] = [f for f in findings_for_log(tmp_path, [CASES[3][2]]) if f.severity is not Severity.ok]
    assert error.severity is Severity.error
    assert "pip install -U flash-attn --no-build-isolation" in error.remedy.en


@pytest.mark.parametrize("name", sorted(TRIAL_LOGS))
def test_trial_log_names_its_signature_with_the_expected_lead_cause(tmp_path, name):
    lines, sig_id, cause = TRIAL_LOGS[name]
    findings = assert_log_leads(tmp_path, lines, sig_id, cause)
