"""evidence.error-lines on the lines a process ends with when nothing else is printed: the shell's report of a fatal
signal (Killed, Bus error, Segmentation fault), the kernel's OOM kill, Kubernetes' OOMKilled, the C++ runtime's uncaught
exception, and an exception line pasted without its traceback. Each is an error line: named with its cause where a
record holds one, else quoted as one no signature knows; never "OK, no known error line"."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

# (real line, the record that names it, words of its first cause)
NAMED = {
    # https://github.com/mkocabas/VIBE/issues/83 (bash's report of SIGKILL; solved with more RAM)
    "shell-killed": ("Killed", "pytorch-elastic-worker-sigkill", "oom killer"),
    # https://github.com/TorchSSL/TorchSSL/issues/4
    "dataloader-killed": ("DataLoader worker (pid 12847) is killed by signal: Killed", "pytorch-elastic-worker-sigkill",
                          "oom killer"),
    # https://github.com/pytorch/pytorch/issues/70245
    "segfault": ("Segmentation fault (core dumped)", "process-segmentation-fault", "native code built for another version"),
    # https://github.com/pytorch/pytorch/issues/107371
    "fatal-python-segfault": ("Fatal Python error: Segmentation fault", "process-segmentation-fault",
                              "native code built for another version"),
}


@pytest.mark.parametrize("case", sorted(NAMED))
def test_a_process_end_line_names_its_record_and_cause(tmp_path, case):
    line, signature, cause = NAMED[case]
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [signature]
    errors = [f for f in findings_for_log(tmp_path, [line], log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert cause in finding.message.en.lower(), finding.message.en


@pytest.mark.parametrize("line", [
    "terminate called after throwing an instance of 'c10::Error'",
    "Floating point exception (core dumped)",
    "RuntimeError: NCCL communicator was aborted on rank 1.",
    "[rank1]: RuntimeError: NCCL communicator was aborted on rank 1.",
])
def test_a_fatal_line_no_record_names_is_an_unknown_error_line_never_ok(tmp_path, line):
    findings = findings_for_log(tmp_path, ["INFO step 100 loss 1.2", line], log_only_facts())
    assert [f.severity for f in findings] == [Severity.error]  # the process ended there: an observed failure
    assert "shows an error line no recorded signature matches" in findings[0].message.en
    assert "job.log:2" in findings[0].message.en


@pytest.mark.parametrize("line", [
    "Killed 3 zombie processes before start",
    "INFO installed the segmentation fault handler",
    "print: the value ValueError: is only quoted here",
])
def test_lines_that_only_mention_these_words_are_not_error_lines(tmp_path, line):
    findings = findings_for_log(tmp_path, [line], log_only_facts())
    assert [f.severity for f in findings] == [Severity.ok]
