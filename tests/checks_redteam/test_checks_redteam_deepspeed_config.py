"""--deepspeed-config read the way DeepSpeed reads it (hjson: comments and trailing commas allowed, duplicate keys
refused) and values DeepSpeed's pydantic model refuses (negative, infinite)."""

from __future__ import annotations

import pytest

from lingjun.checks.inputs.deepspeed_config import DeepSpeedConfigError, load_lenient, loads

from checks_redteam_kit import REDTEAM, run_json, severities

RULE = "config.deepspeed-prefetch-bucket-size"
SNAPSHOT = str(REDTEAM / "R14-transformers-36081.json")  # deepspeed 0.16.3


def _check(monkeypatch, capsys, tmp_path, text: str):
    path = tmp_path / "ds_config.json"
    path.write_text(text, encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from", SNAPSHOT, "--deepspeed-config", str(path))
    findings = [f for f in report["findings"] if f["rule"] == RULE]
    return code, findings


def test_comments_and_trailing_commas_are_read_with_a_warning(monkeypatch, capsys, tmp_path):
    text = '{\n  // ZeRO-3\n  "zero_optimization": {\n    "stage": 3, # hjson comment\n    /* block */ "stage3_prefetch_bucket_size": 15099494.4,\n  },\n}\n'
    code, findings = _check(monkeypatch, capsys, tmp_path, text)
    assert sorted(f["severity"] for f in findings) == ["error", "warning"]
    warning = next(f for f in findings if f["severity"] == "warning")
    assert "hjson" in warning["message"] and "json.load" in warning["message"]
    assert any("15099494.4" in f["message"] for f in findings if f["severity"] == "error")
    assert code == 1


def test_a_comment_inside_a_string_is_kept():
    config, note = load_lenient_text('{"a": "http://x//y", "b": "# not a comment", /* c */ "c": 1,}')
    assert config == {"a": "http://x//y", "b": "# not a comment", "c": 1} and note


def load_lenient_text(text: str, tmp=None):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        handle.write(text)
    return load_lenient(handle.name)


def test_strict_json_has_no_note():
    config, note = load_lenient_text('{"zero_optimization": {"stage": 3}}')
    assert config == {"zero_optimization": {"stage": 3}} and note is None


def test_duplicate_keys_are_refused_as_deepspeed_does():
    with pytest.raises(DeepSpeedConfigError, match="duplicate key 'stage3_prefetch_bucket_size'"):
        loads('{"zero_optimization": {"stage3_prefetch_bucket_size": 1.5, "stage3_prefetch_bucket_size": 100}}', "ds.json")


@pytest.mark.parametrize("value, needle", [("-5", "negative"), ("1e400", "not a finite number"), ("-1e400", "not a finite number")])
def test_values_deepspeed_refuses(monkeypatch, capsys, tmp_path, value, needle):
    code, findings = _check(monkeypatch, capsys, tmp_path, '{"zero_optimization": {"stage3_prefetch_bucket_size": %s}}' % value)
    assert [f["severity"] for f in findings] == ["error"], findings
    assert needle in findings[0]["message"] and "internal error" not in findings[0]["message"]
    assert code == 1


def test_unparseable_even_leniently_is_still_an_error(monkeypatch, capsys, tmp_path):
    code, findings = _check(monkeypatch, capsys, tmp_path, '{"zero_optimization": {"stage3_prefetch_bucket_size": }')
    assert [f["severity"] for f in findings] == ["error"] and "unusable" in findings[0]["message"]


def test_a_4000_digit_integer_is_no_crash(monkeypatch, capsys, tmp_path):
    code, findings = _check(monkeypatch, capsys, tmp_path, '{"zero_optimization": {"stage3_prefetch_bucket_size": %s}}' % ("9" * 4000))
    assert [f["severity"] for f in findings] in (["ok"], ["warning"]) and code in (0, 1)
