"""evidence.error-lines on lines a signature's pattern could not judge in time (Evidence.not_judged): a warning that
they may be that error, naming the signature, the literal and the count, and never "no known error line"."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual, context, fixture_bundle, run
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.knowledge import signatures
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.report.findings import Severity

HOSTILE = r"NCCL WARN (?:\d\.|\d|\.)* failed"
CRAFTED = "x NCCL WARN " + "1." * 40 + "1 nope"
SIGNATURE = {"id": "hostile-slow", "printed_by": "nccl", "severity": "error", "title": {"en": "slow", "zh": "慢"},
             "explanation": {"en": "x", "zh": "x"}, "patterns": [{"literal": "NCCL WARN", "regex": HOSTILE}],
             "causes": [], "rules": [], "components": [], "known_issues": [], "sources": []}


@pytest.fixture
def short_budgets(monkeypatch):
    """Budgets a test can spend quickly: 20 ms a search, 150 ms an input."""
    monkeypatch.setattr(signatures, "SEARCH_BUDGET_S", 0.02)
    monkeypatch.setattr(signatures, "INPUT_BUDGET_S", 0.15)


def test_lines_not_judged_are_a_warning_naming_the_signature_and_never_ok(short_budgets, tmp_path):
    raw = fixture_bundle()
    raw["signatures"] = [SIGNATURE]
    log = tmp_path / "job.log"
    log.write_text("".join(f"{CRAFTED}\n" for _ in range(30)), encoding="utf-8")
    kd = KnowledgeData.from_dict(raw)
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    findings = [f for f in run("evidence.error-lines", ctx) if f.message.en.find("not judged") >= 0]
    assert_bilingual(findings)
    (finding,) = findings
    assert finding.severity is Severity.warning and "hostile-slow" in finding.message.en
    assert "(30 such lines)" in finding.message.en and "it may be that error" in finding.message.en
    assert not [f for f in run("evidence.error-lines", ctx) if f.severity is Severity.ok]
