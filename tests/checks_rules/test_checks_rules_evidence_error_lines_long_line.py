"""evidence.error-lines on lines longer than the scanner's window (FEED_LIMIT, 32 KiB): every literal of the line is
read, each in a window of its own (the red-team trial's F3: a JSON log line of 44 KB whose escaped traceback ends in
a CUDA error read as "no known error line", exit 0)."""

from __future__ import annotations

import json

from lingjun.checks.knowledge.signatures import FEED_LIMIT
from signature_cases_kit import findings_for_log

OOM = "RuntimeError: CUDA error: out of memory"


def _severities(found) -> list[str]:
    return sorted(f.severity.value for f in found)


def test_a_known_error_past_the_first_window_of_a_json_log_line_is_named(tmp_path):
    frames = "".join(f'  File "/opt/model/layer{i}.py", line {i}, in forward\\n    return self.block(x)\\n'
                     for i in range(600))
    line = json.dumps({"level": "ERROR", "msg": "Traceback (most recent call last):\n" + frames + OOM + "\n"})
    assert len(line) > FEED_LIMIT
    found = findings_for_log(tmp_path, [line])
    assert _severities(found) == ["error"]
    assert "cudaErrorMemoryAllocation" in found[0].message.en


def test_an_exception_early_in_a_long_line_does_not_hide_the_later_known_error(tmp_path):
    line = "ValueError: first " + "x " * 30000 + OOM
    found = findings_for_log(tmp_path, [line])
    assert _severities(found) == ["error"]


def test_a_literal_across_the_end_of_a_window_is_read(tmp_path):
    # the first literal opens the line; the window around it ends inside the second one
    head = "ValueError: first "
    filler = "y" * (FEED_LIMIT - len(head) - 10) + " "
    line = head + filler + OOM + " " + "z " * 5000
    found = findings_for_log(tmp_path, [line])
    assert _severities(found) == ["error"]


def test_two_long_lines_keep_their_numbers(tmp_path):
    long_quiet = "INFO " + "a " * 40000
    found = findings_for_log(tmp_path, [long_quiet, "Error: " + "b " * 20000 + "c", long_quiet, OOM])
    errors = [f for f in found if f.severity.value == "error"]
    assert len(errors) == 1 and errors[0].observed.endswith(":4")


def test_a_known_error_twice_in_one_long_line_counts_one_line(tmp_path):
    line = OOM + " " + "w " * 30000 + OOM
    found = findings_for_log(tmp_path, [line, "INFO done"])
    assert _severities(found) == ["error"] and "such lines" not in found[0].message.en
