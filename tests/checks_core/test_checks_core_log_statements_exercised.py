"""Every statement of :data:`lingjun.checks.knowledge.log_statements.STATEMENTS` is exercised by a line of a test:
the scanner's own tests (``test_checks_core_signature_scan.py``) or the tests of the statements
(``test_checks_core_log_statements_*.py``), each of which also asserts what the line states."""

from __future__ import annotations

import re
from pathlib import Path

from lingjun.checks.knowledge.log_statements import STATEMENTS

HERE = Path(__file__).resolve().parent
#: adjacent string literals, on one line or over several, joined as Python joins them
_JOIN = re.compile(r"(?:\"\s*\n\s*\"|\" \"|'\s*\n\s*'|' ')")


def _tests_text() -> str:
    files = [HERE / "test_checks_core_signature_scan.py", *sorted(HERE.glob("test_checks_core_log_statements_*.py"))]
    files = [f for f in files if f.name != Path(__file__).name]
    return _JOIN.sub("", "".join(f.read_text(encoding="utf-8") for f in files)).replace('\\"', '"')


def test_every_statement_literal_is_in_a_test_line():
    text = _tests_text()
    missing = [s.literal for s in STATEMENTS if s.literal not in text]
    assert missing == [], "add a line of a public report that holds each of these literals, and a test of what it states"
