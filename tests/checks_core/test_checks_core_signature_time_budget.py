"""The signature scanner's time limits: one search per line (SEARCH_BUDGET_S) and all patterns on one input
(INPUT_BUDGET_S). A line a pattern could not judge in time is recorded as not judged (Evidence.not_judged), never
counted as not matching (tests/checks_rules/test_checks_rules_evidence_error_lines_not_judged.py: its report)."""

from __future__ import annotations

import time

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge import signatures
from lingjun.checks.knowledge.signatures import SignatureSet, timed_search

#: ambiguous alternation under a star (issue 36 item 1): exponential on a run of "1." that is not followed by " failed"
HOSTILE = r"NCCL WARN (?:\d\.|\d|\.)* failed"
SIGNATURES = [
    {"id": "hostile-slow", "printed_by": "nccl", "patterns": [{"literal": "NCCL WARN", "regex": HOSTILE}]},
    {"id": "shm", "printed_by": "nccl", "patterns": [{"literal": "posix_fallocate failed", "regex": "No space left"},
                                                      {"literal": "failed to extend /dev/shm/nccl-", "regex": None}]},
]
CRAFTED = "x NCCL WARN " + "1." * 40 + "1 nope"


@pytest.fixture
def short_budgets(monkeypatch):
    """Budgets a test can spend quickly: 20 ms a search, 150 ms an input."""
    monkeypatch.setattr(signatures, "SEARCH_BUDGET_S", 0.02)
    monkeypatch.setattr(signatures, "INPUT_BUDGET_S", 0.15)


def _scan(lines: "list[str]") -> Evidence:
    evidence = Evidence()
    scanner = SignatureSet(SIGNATURES).scanner(evidence, "job.log")
    scanner.feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


def test_a_search_past_its_limit_is_given_up_and_says_so():
    import re

    assert timed_search(re.compile(HOSTILE), CRAFTED.split("x ", 1)[1], 0.02) is None
    assert timed_search(re.compile(HOSTILE), "NCCL WARN 1.2 failed", 0.02) is True
    assert timed_search(re.compile(HOSTILE), "NCCL WARN nothing", 0.02) is False


def test_fifty_crafted_lines_stop_at_the_input_s_budget_and_are_all_not_judged(short_budgets):
    start = time.perf_counter()
    evidence = _scan([CRAFTED] * 50)
    took = time.perf_counter() - start
    (skipped,) = evidence.not_judged
    assert (skipped.signature, skipped.literal, skipped.first.number, skipped.count) == ("hostile-slow", "NCCL WARN", 1, 50)
    assert skipped.why == "line"  # the first ran out of its own time; the budget of the input went later
    assert evidence.hits == []
    assert took < 50 * 0.02  # stopped by the input's budget, not by 50 searches of 20 ms


def test_a_literal_only_pattern_still_matches_after_the_budget_is_spent(short_budgets):
    evidence = _scan([CRAFTED] * 20 + ["failed to extend /dev/shm/nccl-abc to 9 bytes"])
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 21)]
    assert [(n.signature, n.count) for n in evidence.not_judged] == [("hostile-slow", 20)]


def test_an_expression_after_the_budget_is_spent_is_not_judged_with_the_input_as_the_reason(short_budgets):
    evidence = _scan([CRAFTED] * 20 + ["NCCL WARN Call to posix_fallocate failed : No space left on device"])
    by_id = {n.signature: n for n in evidence.not_judged}
    assert by_id["shm"].why == "input" and by_id["shm"].first.number == 21
    assert evidence.hits == []


def test_quick_patterns_are_judged_as_before():
    evidence = _scan(["NCCL WARN Call to posix_fallocate failed : No space left on device", "NCCL WARN 1.2 failed"])
    assert [h.signature for h in evidence.hits] == ["shm", "hostile-slow"] and evidence.not_judged == []


def test_many_searches_of_a_few_milliseconds_spend_the_inputs_budget(monkeypatch):
    """Red team F2: searches of 4 ms each were all free (only those of 5 ms or more counted), so 10,000 crafted lines
    took 43 s with nothing reported; now each spends what it takes beyond SEARCH_ALLOWANCE_S."""
    monkeypatch.setattr(signatures, "INPUT_BUDGET_S", 0.05)

    def two_milliseconds(regex, text, budget_s=None):
        end = time.perf_counter() + 0.002
        while time.perf_counter() < end:
            pass
        return False

    monkeypatch.setattr(signatures, "timed_search", two_milliseconds)
    start = time.perf_counter()
    evidence = _scan(["x NCCL WARN 1.2 nope"] * 200)
    took = time.perf_counter() - start
    (skipped,) = evidence.not_judged
    assert skipped.signature == "hostile-slow" and skipped.why == "input"
    assert took < 200 * 0.002 / 2  # stopped after the budget, not after 200 searches


def test_fast_searches_spend_next_to_nothing():
    """2,000 searches of a few microseconds each spend well under a tenth of the input's budget (what they spend at
    all is a collector's pause or a page fault inside one of them: CPU time of this thread, never another process's)."""
    evidence = Evidence()
    scanner = SignatureSet(SIGNATURES).scanner(evidence, "job.log")
    scanner.feed_block(("NCCL WARN Call to posix_fallocate failed : No space left on device\n" * 2000).encode())
    assert [h.signature for h in evidence.hits] == ["shm"] and evidence.not_judged == []
    assert scanner.pattern_seconds < signatures.INPUT_BUDGET_S / 10
