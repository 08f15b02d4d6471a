"""evidence.error-lines: an exception whose message goes on in the next lines (Triton's "RuntimeError: Internal
Triton PTX codegen error:" then ptxas' own line, RLinf/RLinf#92) is read by the signature that matches those lines,
not quoted again as an unknown last line; an exception far from the matched line still is."""

from __future__ import annotations

from lingjun.checks.report.findings import Severity
from signature_cases_kit import findings_for_log

PTXAS = "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'"
HEAD = ["Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.11/site-packages/triton/backends/nvidia/compiler.py", line 297, in make_cubin',
        "    raise RuntimeError(f'Internal Triton PTX codegen error: \\n{log}')",
        "RuntimeError: Internal Triton PTX codegen error:"]


def test_an_exception_continued_by_a_known_line_is_one_error(tmp_path):
    findings = findings_for_log(tmp_path, [*HEAD, PTXAS])
    assert [f.severity for f in findings] == [Severity.error]
    assert "no recorded signature matches" not in findings[0].message.en


def test_an_exception_far_above_the_known_line_is_still_quoted(tmp_path):
    findings = findings_for_log(tmp_path, [*HEAD, *["  step"] * 4, PTXAS])
    assert sorted(f.severity.value for f in findings) == ["error", "warning"]
    assert any("Internal Triton PTX codegen error" in f.message.en for f in findings if f.severity == Severity.warning)
