"""Every real-world case of tests/fixtures/cases/expected.json (public failure reports), replayed from its snapshot through the runner."""

from __future__ import annotations

import json

import pytest

import checks_rules_kit as kit

EXPECTED = json.loads((kit.CASES / "expected.json").read_text(encoding="utf-8"))
CASE_IDS = sorted(k for k in EXPECTED if not k.startswith("_"))
ALL_CASES = ["C01", "C03", "C04", "C06", "C07", "C09", "C10", "C12", "C13", "C14", "C15", "C17", "C18",
             "C20", "C22", "C23", "C24", "C25", "C26", "C28", "C29"]


def _context(case_id: str):
    spec = EXPECTED[case_id]
    facts = kit.load_case(case_id)
    rec = None
    rec_spec = spec.get("record")
    if rec_spec and "fixture" in rec_spec:
        rec = kit.fixture_record(rec_spec["fixture"])
    elif rec_spec and "synthetic" in rec_spec:
        fields = dict(rec_spec["synthetic"])
        rec = kit.synthetic(fields.pop("family"), fields.pop("version"), spec["source"], **fields)
    options = dict(spec.get("options") or {})
    if "deepspeed_config" in options:
        options["root"] = str(kit.CASES)
    return kit.context(facts, rec=rec, **options)


def test_every_case_has_a_snapshot_and_a_verdict():
    assert CASE_IDS == ALL_CASES
    for case_id in CASE_IDS:
        assert (kit.CASES / f"{case_id}.json").is_file()
        assert EXPECTED[case_id]["expect"]


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_verdict(case_id):
    findings = kit.all_findings(_context(case_id))
    internal = [f for f in findings if f.observed and "internal error" in f.message.en]
    assert not internal, internal
    for rule_id, severity in EXPECTED[case_id]["expect"]:
        allowed = severity if isinstance(severity, list) else [severity]
        got = [f.severity.value for f in findings if f.rule == rule_id]
        assert any(s in allowed for s in got), f"{case_id}: {rule_id} gave {got}, expected {allowed}"
    kit.assert_bilingual(f for f in findings if not f.rule.startswith("checker."))


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_case_snapshot_round_trips(case_id):
    facts = kit.load_case(case_id)
    again = type(facts).from_dict(json.loads(json.dumps(facts.to_dict())))
    assert again == facts
