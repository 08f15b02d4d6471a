"""Helpers for the tests of :data:`lingjun.checks.knowledge.log_statements.STATEMENTS`: feed lines to a scanner and
read what they state."""

from __future__ import annotations

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.signatures import SignatureSet


def feed(*lines: str, signatures=()) -> Evidence:
    """The evidence the lines give as ``job.log`` (one block), scanned with ``signatures`` (none by default)."""
    evidence = Evidence()
    SignatureSet(list(signatures)).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


def stated(evidence: Evidence) -> dict:
    """``{fact name: value}`` of everything the evidence states."""
    return {name: fact.value for name, fact in evidence.stated.items()}
