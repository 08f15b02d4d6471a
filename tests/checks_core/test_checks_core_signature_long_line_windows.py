"""A long line's expression windows (red team F3): a window around each occurrence of the literal that the previous
window does not hold, so an early mention of a literal cannot hide the line's later error; at most MAX_WINDOWS."""

from __future__ import annotations

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.signatures import LINE_LIMIT, MAX_WINDOWS, SignatureSet, _windows

SIGNATURES = [{"id": "ib-completion", "printed_by": "nccl",
               "patterns": [{"literal": "Got completion", "regex": r"Got completion from peer [^\n]{0,200}status=12"}]}]


def _hits(line: str) -> list:
    evidence = Evidence()
    SignatureSet(SIGNATURES).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    return [h.signature for h in evidence.hits]


def test_a_short_line_is_one_window():
    assert _windows("x Got completion y", "Got completion") == ["x Got completion y"]


def test_the_error_after_an_early_mention_of_its_literal_is_found():
    line = ("worker-3 Got completion queue ready " + "pad " * 2500 +
            "NET/IBP: Got completion from peer 10.0.0.2<4567> with status=12 opcode=0 len=0 vendor err 129")
    assert len(line) > LINE_LIMIT
    assert _hits(line) == ["ib-completion"]


def test_occurrences_inside_one_window_share_it_and_the_count_is_bounded():
    line = ("Got completion " * 3 + "pad " * 3000) * 20
    windows = _windows(line, "Got completion")
    assert 1 < len(windows) <= MAX_WINDOWS
    assert all(len(w) <= LINE_LIMIT for w in windows)


def test_a_run_without_blanks_glued_before_the_error_keeps_the_expressions_prefix():
    """The second red team's W1: the window's word cut moved its start up to the literal, past 'NET/IBP:'."""
    sigs = [{"id": "ibp", "printed_by": "nccl",
             "patterns": [{"literal": "Got completion", "regex": r"NET/IBP:Got completion from peer [^\n]{0,200}status=12"}]}]
    line = ("pad " * 1200 + "x" * 5000 + "NET/IBP:Got completion from peer 10.0.0.2<4567> with status=12 opcode=0")
    evidence = Evidence()
    SignatureSet(sigs).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    assert [h.signature for h in evidence.hits] == ["ibp"]


def test_a_later_occurrence_past_a_window_its_word_cut_ended_early_gets_its_own():
    """The third red team's W3: the window's end moved back to a blank, but the occurrence after it counted as covered."""
    sigs = [{"id": "ibp", "printed_by": "nccl",
             "patterns": [{"literal": "Got completion", "regex": r"NET/IBP : Got completion with error"}]}]
    line = "Got completion early " + "pad " * 2013 + "x" * 4000 + "NET/IBP : Got completion with error 12"
    evidence = Evidence()
    SignatureSet(sigs).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    assert [h.signature for h in evidence.hits] == ["ibp"]
