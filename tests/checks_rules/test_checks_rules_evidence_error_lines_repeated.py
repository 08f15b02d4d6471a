"""evidence.error-lines: an error line a catalog names, repeated, is one finding counted, never also an unknown line
(the red-team trial's F9: two copies of a CUDA error were an ERROR and a WARN saying no signature knows the line)."""

from __future__ import annotations

from signature_cases_kit import findings_for_log

OOM = "RuntimeError: CUDA error: out of memory"


def test_a_repeated_catalog_line_is_one_error_counted_and_no_unknown_line(tmp_path):
    found = findings_for_log(tmp_path, [OOM, OOM, OOM])
    assert [f.severity.value for f in found] == ["error"]
    assert "(3 such lines)" in found[0].message.en and "cudaErrorMemoryAllocation" in found[0].message.en


def test_a_repeated_catalog_line_after_a_traceback_is_its_end_not_an_unknown_line(tmp_path):
    lines = ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>', OOM,
             "Traceback (most recent call last):", '  File "train.py", line 3, in <module>', OOM]
    found = findings_for_log(tmp_path, lines)
    assert [f.severity.value for f in found] == ["error"]


def test_an_unknown_exception_after_a_known_one_is_still_quoted(tmp_path):
    found = findings_for_log(tmp_path, [OOM, "Traceback (most recent call last):", "ValueError: the batch is empty"])
    assert sorted(f.severity.value for f in found) == ["error", "warning"]
    assert any("ValueError: the batch is empty" in f.message.en for f in found if f.severity.value == "warning")
