"""evidence.error-lines on error-level lines no signature knows (issue 32: no log holding an error-level line reads as
OK): a logger's ERROR, glog's E and F, a compiler's or linker's error, found by lingjun.checks.knowledge.error_level.

Real lines, quoted from public reports: open-mmlab/mmdetection#71, wang-xinyu/tensorrtx#2 and intchous/SmartText#3 (gcc, make),
LeelaChessZero/lc0#312 (ninja, cc1plus), tensorflow/tensorflow#60913 (absl's E0000 form), tensorlayer/SRGAN#77
and carpedm20/DCGAN-tensorflow#242 (TensorFlow's E and F forms), vllm-project/vllm#23253 (each line of a vLLM
worker's traceback printed under "ERROR ... [multiproc_executor.py:596]"); the logger, logfmt and c10 lines follow
those printers' documented formats; pip's, Docker's and Kubernetes' lines are from Dao-AILab/flash-attention#509,
Leon-Sander/Local-Multimodal-AI-Chat#31 and vllm-project/aibrix#909.
"""

from __future__ import annotations

import pytest

from lingjun.checks.knowledge.error_level import LITERALS, kind_of
from lingjun.checks.report.findings import Severity
from signature_cases_kit import cli_report, evidence_for_log, findings_for_log

#: (line, the literal that finds it, its kind)
REAL_LINES = [
    ("/usr/include/stdc-predef.h:59:1: fatal error: cuda_runtime.h: No such file or directory", "fatal error: ", "build"),
    ("cc1plus: fatal error: cuda_runtime.h: No such file or directory", "fatal error: ", "build"),
    ("make[2]: *** [CMakeFiles/resnext50.dir/resnext50_32x4d.cpp.o] Error 1", "] Error ", "build"),
    ("error: command 'nvcc' failed with exit status 1", "error: command '", "build"),
    ("FAILED: lc0@exe/network_cudnn.o ", "FAILED: ", "build"),
    ("collect2: error: ld returned 1 exit status", ": error: ", "build"),
    ("/usr/bin/ld: cannot find -lcurand", "cannot find -l", "build"),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_89'", "nvcc fatal", "build"),
    ("E0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source was "
     "compiled with: 9.3.0.", ".cc:", "glog"),
    ("2018-03-27 15:29:16.782845: F tensorflow/core/kernels/conv_ops.cc:659] Check failed: "
     "stream->parent()->GetConvolveAlgorithms(&algorithms) ", ".cc:", "glog"),
    ("E tensorflow/stream_executor/cuda/cuda_dnn.cc:352] Loaded runtime CuDNN library: 5005 (compatibility version "
     "5000) but source was compiled with 5110 (compatibility version 5100).", ".cc:", "glog"),
    ("[rank1]:[E1120 07:46:10.118345285 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation "
     "timeout", ".cpp:", "glog"),
    ("(Worker_TP0 pid=451) ERROR 09-26 10:57:34 [core.py:700] EngineCore failed to start.", "ERROR", "logger"),
    ("ERROR: Could not find a version that satisfies the requirement torch==2.9.9", "ERROR", "logger"),
    ("2024-05-01 10:00:00,123 - root - ERROR - Failed to load checkpoint shard 3", "ERROR", "logger"),
    ("[2024-05-01 10:00:00] [FATAL] worker 3 lost its connection", "FATAL", "logger"),
    ('time="2024-05-01T10:00:00Z" level=error msg="failed to create shim task"', "level=error", "logger"),
    ("  error: subprocess-exited-with-error", "error: ", "build"),
    ("Error response from daemon: unknown or invalid runtime name: nvidia", "Error response from daemon", "container"),
    ("  Warning  FailedScheduling   2m21s (x42 over 60m)  default-scheduler  1 node(s) had untolerated taint "
     "{nvidia.com/gpu: present}", "Warning  ", "kubernetes"),
    ("deepseek-coder-7b-instruct-688778dd76-wzwmg     0/1     CrashLoopBackOff   13 (68s ago)   65m", "CrashLoopBackOff",
     "kubernetes"),
    # the tenth trial's logs that read OK: triton-inference-server/tensorrtllm_backend#190, kubernetes/kubernetes#130145,
    # NVIDIA/nvidia-container-toolkit#509, MahmoudAshraf97/whisper-diarization#343, pytorch/pytorch#111469
    ("[TensorRT-LLM][ERROR] 1: [stdArchiveReader.cpp::stdArchiveReaderInitCommon::47] Error Code 1: Serialization "
     "(Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match.", "ERROR",
     "logger"),
    ("Reason:            UnexpectedAdmissionError", "UnexpectedAdmissionError", "kubernetes"),
    ("/usr/bin/nvidia-smi: line 4: /usr/bin/.nvidia-smi: No such file or directory", "No such file or directory", "shell"),
    ("bash: nvcc: command not found", ": command not found", "shell"),
    ("Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-linux-gnu/libcudnn_graph.so.9: undefined symbol: "
     "cudnnGetLibConfig", ": undefined symbol: ", "loader"),
    ("ImportError: /usr/local/lib/python3.10/site-packages/torch/lib/../../nvidia/cusparse/lib/libcusparse.so.12: "
     "undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12", ": undefined symbol: ", "loader"),
    ("/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required by /opt/x/lib.so)",
     "' not found (required by ", "loader"),
]

#: lines that hold a literal but are not an error of their own
NOT_ERRORS = [
    ("export VLLM_LOGGING_LEVEL=ERROR", "ERROR"),
    ("python -m vllm.entrypoints.openai.api_server --uvicorn-log-level ERROR", "ERROR"),
    ("2020-03-17 08:06:02.583711: I tensorflow/stream_executor/platform/default/dso_loader.cc:44] Successfully opened "
     "dynamic library libcudart.so.11.0", ".cc:"),
    ("[rank1]:[W1120 07:46:10.118345285 ProcessGroupNCCL.cpp:616] a warning", ".cpp:"),
    ("(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]     torch.ops._C.cutlass_scaled_mm(out, "
     "a, b, scale_a, scale_b, bias)", "ERROR"),
    ("(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596] Traceback (most recent call last):",
     "ERROR"),
    ("The message says: error: nothing here", ": error: "),
    ("  Warning  Pulled  2m  kubelet  Successfully pulled image", "Warning  "),
    ("the docs explain: error: means a failure", "error: "),
    ("(VllmWorkerProcess pid=13359) ERROR 08-02 18:15:15 multiproc_worker_utils.py:226]     "
     "torch._C._cuda_setDevice(device)", "ERROR"),
    ("saved to /tmp/No such file or directory.txt", "No such file or directory"),
    ("INFO the scheduler docs mention OutOfnvidia.com/gpu as a reason", "OutOfnvidia.com/"),
    ("the pod was OOMKilled yesterday and is fine now", "OOMKilled"),
]


@pytest.mark.parametrize("line, literal, kind", REAL_LINES)
def test_kind_of_names_each_real_error_level_line(line, literal, kind):
    assert literal in LITERALS
    assert kind_of(line, literal) == kind


@pytest.mark.parametrize("line, literal", NOT_ERRORS)
def test_kind_of_leaves_a_literal_that_is_not_the_lines_level(line, literal):
    assert kind_of(line, literal) is None


#: (line, literal, kind): a failure's form after an earlier mention of its literal more than AROUND characters before
#: it, in a path or an echoed command (issue 36 red team, F3: only the first occurrence was read)
PAD = "x " * 150
AFTER_A_MENTION = [
    ('+ grep -n "undefined reference to " build.log ' + PAD + " main.o: undefined reference to `cublasCreate_v2'",
     "undefined reference to ", "build"),
    ("docs: Error response from daemon means the engine refused " + PAD +
     " docker: Error response from daemon: could not select device driver \"nvidia\"", "Error response from daemon",
     "container"),
    ("echo 'Assertion `' marks glibc's assertions " + PAD + " python: x.c:12: f: Assertion `n > 0' failed.",
     "Assertion `", "assertion"),
    ("ls /opt/libs/cannot open shared object file/ " + PAD +
     " python: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file",
     "cannot open shared object file", "loader"),
]


@pytest.mark.parametrize("line, literal, kind", AFTER_A_MENTION)
def test_kind_of_reads_a_failure_after_an_earlier_mention_of_its_literal(line, literal, kind):
    assert line.index(literal, line.index(literal) + 1) - line.index(literal) > 200  # past what was read around the first
    assert kind_of(line, literal) == kind


def test_kind_of_reads_a_bounded_number_of_mentions():
    from lingjun.checks.knowledge.error_level import AROUND, AROUND_READS

    mention = "undefined reference to " + "x " * AROUND
    real = " main.o: undefined reference to `f'"
    assert kind_of(mention * (AROUND_READS - 1) + real, "undefined reference to ") == "build"
    assert kind_of(mention * AROUND_READS + real, "undefined reference to ") is None  # past the reads: not looked at


def test_a_build_error_after_an_echoed_command_naming_it_is_an_error_level_line(tmp_path):
    evidence = evidence_for_log(tmp_path, [AFTER_A_MENTION[0][0]])
    assert evidence.error_level_count == 1 and evidence.error_level_kinds == ["build"]


#: a build of an extension that fails on a header torch removed (THC, gone since torch 1.11; intchous/SmartText#3),
#: the cause line first; no signature knows it (cuda-header-not-found holds the CUDA toolkit's headers)
THC_LINE = "src/rod_align_cuda.cpp:1:21: fatal error: THC/THC.h: No such file or directory"
BUILD_LOG = [
    "building 'rod_align_cuda' extension",
    THC_LINE,
    "compilation terminated.",
    REAL_LINES[3][0],
    "make: *** [all] Error 1",
]


def test_a_log_of_unknown_build_errors_is_an_error_quoting_the_first(tmp_path):
    # a compiler's "fatal error:" states that the build failed: an observed failure, not a level a run may survive
    findings = findings_for_log(tmp_path, BUILD_LOG)
    assert [f.severity for f in findings] == [Severity.error]
    message = findings[0].message.en
    assert "job.log:2 shows an error-level line" in message and "THC/THC.h" in message
    assert "(3 in all)" in message
    assert "能识别的错误级别行（共 3 行）" in findings[0].message.zh


def test_a_log_without_error_level_lines_is_still_ok(tmp_path):
    findings = findings_for_log(tmp_path, ["INFO 09-26 10:57:30 [api_server.py:1] vLLM starting",
                                           "export VLLM_LOGGING_LEVEL=ERROR"])
    assert [f.severity for f in findings] == [Severity.ok]


def test_an_error_level_line_before_a_known_error_is_named_after_it_as_where_it_may_have_begun(tmp_path):
    lines = ["2024-05-01 10:00:00,123 - root - ERROR - Failed to load checkpoint shard 3",
             "RuntimeError: CUDA error: out of memory"]
    findings = findings_for_log(tmp_path, lines)
    assert [f.severity for f in findings][-1] == Severity.info
    assert findings[-1].message.en.startswith("Before the error lines above, ") and "shard 3" in findings[-1].message.en
    assert all(f.severity != Severity.ok for f in findings)


def test_an_error_level_line_after_a_known_error_is_not_reported(tmp_path):
    lines = ["RuntimeError: CUDA error: out of memory",
             "2024-05-01 10:00:00,123 - root - ERROR - Training stopped"]
    findings = findings_for_log(tmp_path, lines)
    assert "Training stopped" not in " ".join(f.message.en for f in findings)


def test_vllm_worker_traceback_lines_are_not_error_level_lines(tmp_path):
    prefix = "(VllmWorker TP1 pid=189) ERROR 08-20 03:19:43 [multiproc_executor.py:596]"
    evidence = evidence_for_log(tmp_path, [f"{prefix} WorkerProc hit an exception.",
                                           f"{prefix} Traceback (most recent call last):",
                                           f'{prefix}   File "/usr/lib/python3.12/dist-packages/vllm/worker.py", line 1',
                                           f"{prefix}     self.model_runner.execute_model()"])
    assert evidence.error_level_count == 1
    assert [line.number for line in evidence.error_level] == [1]


def test_copies_of_one_error_level_line_are_counted_and_quoted_once(tmp_path):
    evidence = evidence_for_log(tmp_path, [REAL_LINES[9][0]] * 5)
    assert evidence.error_level_count == 5 and len(evidence.error_level) == 1


def test_the_json_report_lists_error_level_lines(tmp_path):
    report = cli_report(tmp_path, BUILD_LOG)
    level = report["evidence"]["error_level"]
    assert level["count"] == 3
    assert [entry["where"].rsplit(":", 1)[1] for entry in level["first"]] == ["2", "4", "5"]
    assert [f["severity"] for f in report["findings"] if f["rule"] == "evidence.error-lines"] == ["error"]


@pytest.mark.parametrize("line, severity", [
    ("2024-05-01 10:00:00,123 - root - ERROR - Failed to load checkpoint shard 3", Severity.warning),
    ("[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine", Severity.error),
    ("ERROR: failed to solve: process \"/bin/bash --login -c pip install flash-attn --no-build-isolation\" did not "
     "complete successfully: exit code: 1", Severity.error),
    ("/usr/bin/nvidia-smi: line 4: /usr/bin/.nvidia-smi: No such file or directory", Severity.error),
    ("E0914 12:00:01.123456 1234 cuda_dnn.cc:535] could not create cudnn handle", Severity.warning),
])
def test_a_line_stating_a_failed_step_is_an_error_a_logged_level_a_warning(tmp_path, line, severity):
    """The tenth and eleventh trials: a failed docker build and a failed engine load exited 0 as warnings."""
    findings = findings_for_log(tmp_path, ["step 1", line])
    assert [f.severity for f in findings] == [severity], findings[0].message.en

