"""Public failure reports outside tests/fixtures/cases, replayed through the command line (tests/fixtures/redteam/expected.json)."""

from __future__ import annotations

import json

import pytest

from checks_redteam_kit import REDTEAM, run_json, severities

EXPECTED = json.loads((REDTEAM / "expected.json").read_text(encoding="utf-8"))
CASE_IDS = sorted(k for k in EXPECTED if not k.startswith("_"))


def _args(spec: dict) -> list[str]:
    if "from" in spec:
        args = ["--from", str(REDTEAM / spec["from"])]
    else:
        args = ["--from-collect-env", str(REDTEAM / spec["from_collect_env"])]
    if "deepspeed_config" in spec:
        args += ["--deepspeed-config", str(REDTEAM / spec["deepspeed_config"])]
    return args


def test_at_least_twelve_cases_each_with_a_source():
    assert len(CASE_IDS) >= 12
    for case_id in CASE_IDS:
        assert EXPECTED[case_id]["source"].startswith("https://github.com/")


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_redteam_case_verdict(case_id, monkeypatch, capsys):
    spec = EXPECTED[case_id]
    code, report, err = run_json(monkeypatch, capsys, *_args(spec))
    assert report is not None, err
    for rule_id, severity in spec["expect"]:
        allowed = severity if isinstance(severity, list) else [severity]
        got = severities(report, rule_id)
        assert any(s in allowed for s in got), f"{case_id}: {rule_id} gave {got}, expected {allowed}"
    for severity in spec.get("forbid", []):
        hits = [f["rule"] for f in report["findings"] if f["severity"] == severity]
        assert not hits, f"{case_id}: unexpected {severity} from {hits}"
    assert not [f for f in report["findings"] if "internal error" in f["message"]]
    assert code == spec["exit"] == report["exit_code"]
