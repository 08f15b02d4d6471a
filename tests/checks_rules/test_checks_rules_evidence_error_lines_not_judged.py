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


def test_the_json_report_lists_lines_not_judged_and_unknown_lines_in_its_schema(short_budgets, tmp_path):
    import json

    import jsonschema

    from checks_rules_kit import ROOT
    from lingjun.checks.report.render_json import evidence_summary

    raw = fixture_bundle()
    raw["signatures"] = [SIGNATURE]
    log = tmp_path / "job.log"
    log.write_text("".join(f"{CRAFTED}\n" for _ in range(3)) + "Traceback (most recent call last):\n"
                   "RuntimeError: something no record knows\n", encoding="utf-8")
    kd = KnowledgeData.from_dict(raw)
    summary = evidence_summary(gather_evidence(kd, Facts(), [str(log)]))
    (skipped,) = summary["not_judged"]
    assert (skipped["signature"], skipped["literal"], skipped["count"]) == ("hostile-slow", "NCCL WARN", 3)
    assert skipped["where"].endswith("job.log:1") and skipped["why"] in ("line", "input")
    assert summary["unknown"] == [{"where": f"{log}:5", "line": "RuntimeError: something no record knows"}]
    schema = json.loads((ROOT / "checks" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(summary, schema["properties"]["evidence"])


def test_lines_a_collect_env_paste_quotes_share_one_budget_and_are_reported_once(short_budgets, tmp_path):
    """The warnings a collect_env paste quotes are its own lines: a line its scan could not judge is one not-judged
    warning, not also an unknown error line, and judging 30 of them stops when their time is spent."""
    import time

    raw = fixture_bundle()
    raw["signatures"] = [SIGNATURE]
    kd = KnowledgeData.from_dict(raw)
    facts = Facts()
    facts.symptoms.errors = [CRAFTED] * 30
    start = time.perf_counter()
    evidence = gather_evidence(kd, facts, [], input_path="env.txt", paste="\n".join([CRAFTED] * 30))
    assert time.perf_counter() - start < 1.0  # two budgets of 0.15 s, not 60 searches of 0.02 s and more
    assert evidence.unmatched == [] and [n.signature for n in evidence.not_judged] == ["hostile-slow"]


def test_identical_unknown_error_lines_are_one_warning_with_their_count(tmp_path):
    kd = KnowledgeData.from_dict(fixture_bundle())
    facts = Facts()
    facts.symptoms.errors = ["RuntimeError: a failure no record knows"] * 30
    ctx = context(facts, kd)
    ctx.evidence = gather_evidence(kd, facts, [], input_path="snap.json")
    (finding,) = run("evidence.error-lines", ctx)
    assert finding.severity is Severity.error
    assert "no recorded signature matches (30 such lines)" in finding.message.en
    assert "（共 30 行）" in finding.message.zh
