"""deepspeed-jit-cuda-library-not-found and cuda-nvcc-not-found: a JIT build that cannot link the CUDA libraries, or
cannot find nvcc, is an error with the toolkit's place as its cause.

Lines are quoted from public reports: deepspeedai/DeepSpeed#7174, RL4VLM/RL4VLM#9, MrTornado24/Next3D#25,
ivan-chai/torch-linear-assignment#2, AlexeyAB/darknet#6704, hpcaitech/ColossalAI#2908 (the linker);
deepspeedai/DeepSpeed#5511, joanrod/star-vector#8, bytedance/lightseq#155, flashinfer-ai/flashinfer#1781 and #1919
(nvcc).
"""

from __future__ import annotations

import pytest

from signature_cases_kit import cli_report, evidence_for_log, findings_for_log, lead_cause

LD = "deepspeed-jit-cuda-library-not-found"
NVCC = "cuda-nvcc-not-found"

LD_LINES = [
    "/usr/bin/ld: cannot find -lcurand: No such file or directory",
    "/usr/bin/ld: cannot find -lcurand",
    "/usr/bin/ld: cannot find -lcudart: No such file or directory",
    "../../x86_64-conda-linux-gnu/bin/ld: cannot find -lcudart: No such file or directory",
    "/usr/bin/ld: cannot find -lcublas",
    "/usr/bin/ld: 找不到 -lcudart: 没有那个文件或目录",
]


def lead_of(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


@pytest.mark.parametrize("line", LD_LINES)
def test_each_linker_line_is_the_jit_library_signature(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [LD]


def test_another_library_the_linker_misses_is_not_this_signature(tmp_path):
    # JPaulMora/Pyrit#374: libcuda, the driver's library, is a different fix (its stub, or a libcuda.so link), not the
    # toolkit's: it is linker-cannot-find-libcuda's
    hits = evidence_for_log(tmp_path, ["/usr/bin/ld: cannot find -lcuda"]).hits
    assert [h.signature for h in hits] == ["linker-cannot-find-libcuda"]


def test_the_linker_finding_names_the_missing_development_files_and_the_fixes(tmp_path):
    finding, summary = findings_for_log(tmp_path, [
        "RuntimeError: Error building extension 'cpu_adam'",  # deepspeedai/DeepSpeed#5659
        LD_LINES[0],
    ])
    assert finding.severity.value == "error"
    # the build's summary line (torch-extension-build-failed) comes after the linker line it sums up
    assert "Error building extension 'cpu_adam'" in summary.message.en and "sums up a failure" in summary.message.en
    assert lead_of(finding).startswith("The CUDA libraries are there only as runtime files (libcurand.so.10), without the "
                                       "development link (libcurand.so) the linker needs")
    assert "Other possible causes: CUDA_HOME points at a toolkit without these libraries" in finding.message.en
    remedy = finding.remedy.en
    for word in ("ds_report", "DS_BUILD_CPU_ADAM=1", "libcurand-dev-12-8", "torch.version.cuda"):
        assert word in remedy, word


@pytest.mark.parametrize("line, lead", [
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc'",
     "CUDA_HOME holds a list of paths (':/usr/local/cuda'"),
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda-10.0/bin/nvcc': "
     "':/usr/local/cuda-10.0/bin/nvcc'", "CUDA_HOME holds a list of paths"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'",
     "The environment has the CUDA runtime but no CUDA compiler"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'",
     "The environment has the CUDA runtime but no CUDA compiler"),
    ("ERROR:    (Worker_TP1 pid=3534) ERROR 10-11 22:28:17 [multiproc_executor.py:694] RuntimeError: Could not find nvcc",
     "The environment has the CUDA runtime but no CUDA compiler"),
])
def test_the_nvcc_path_in_the_line_decides_the_cause(tmp_path, line, lead):
    [finding] = findings_for_log(tmp_path, [line])
    assert lead_of(finding).startswith(lead)


def test_a_single_cuda_home_rules_the_path_list_out(tmp_path):
    [finding] = findings_for_log(tmp_path, ["FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"])
    assert ("Ruled out by what the input shows: CUDA_HOME holds a list of paths (':/usr/local/cuda', from export "
            "CUDA_HOME=$CUDA_HOME:/usr/local/cuda), which no program reads as a directory (CUDA_HOME, as the failing path "
            "shows it, is one directory") in finding.message.en
    for word in ("flashinfer-cubin", "VLLM_USE_FLASHINFER_SAMPLER=0", "cuda-nvcc-12-8"):
        assert word in finding.remedy.en, word


def test_the_command_line_reports_both_jit_signatures(tmp_path):
    report = cli_report(tmp_path, ["FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc'",
                                   "/usr/bin/ld: cannot find -lcurand"])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [NVCC, LD]
    assert lead_cause(report, NVCC) == "cuda-home-path-list"
    assert lead_cause(report, LD) == "no-development-libraries"
    assert report["evidence"]["stated"]["cuda.home_is_path_list"] == {"value": True, "where": f"{tmp_path / 'job.log'}:1"}


def test_a_link_line_searching_only_torch_lib_makes_cuda_home_the_cause_shown_by_the_log(tmp_path):
    """deepspeedai/DeepSpeed#5772: the link command's only -L directory is torch/lib; the fix put libcurand.so under
    CUDA_HOME's lib."""
    from lingjun.checks.coverage import log_only_facts
    from lingjun.checks.report.findings import Severity

    lines = ["c++ cpu_adam.o cpu_adam_impl.o -shared -lcurand -L/path/to/conda/env/lib/python3.9/site-packages/torch/lib "
             "-lc10 -ltorch_cpu -ltorch -ltorch_python -o cpu_adam.so", "/usr/bin/ld: cannot find -lcurand"]
    (finding,) = [f for f in findings_for_log(tmp_path, lines, log_only_facts()) if f.severity is Severity.error]
    assert finding.message.en.count("Most likely cause here: CUDA_HOME points at a toolkit without these libraries") == 1
    assert "searches no directory of CUDA's libraries" in finding.message.en and "job.log:1" in finding.message.en
    assert finding.remedy is not None and "export LIBRARY_PATH=$CUDA_HOME/lib64" in finding.remedy.en
