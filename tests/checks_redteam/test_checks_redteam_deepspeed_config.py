"""--deepspeed-config read the way DeepSpeed reads it (hjson: comments and trailing commas allowed, duplicate keys
refused) and values DeepSpeed's pydantic model refuses (negative, infinite)."""

from __future__ import annotations

import pytest

from lingjun.checks.inputs.deepspeed_config import DeepSpeedConfigError, load_lenient, loads

from checks_redteam_kit import REDTEAM, run_json

RULE = "config.deepspeed-prefetch-bucket-size"
SNAPSHOT = str(REDTEAM / "R14-transformers-36081.json")  # deepspeed 0.16.3


FILE_RULE = "config.deepspeed-file"


def _check(monkeypatch, capsys, tmp_path, text: str, rules=(RULE,)):
    path = tmp_path / "ds_config.json"
    path.write_text(text, encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from", SNAPSHOT, "--deepspeed-config", str(path))
    findings = [f for f in report["findings"] if f["rule"] in rules]
    return code, findings


def test_comments_and_trailing_commas_are_read_with_a_warning(monkeypatch, capsys, tmp_path):
    text = '{\n  // ZeRO-3\n  "zero_optimization": {\n    "stage": 3, # hjson comment\n    /* block */ "stage3_prefetch_bucket_size": 15099494.4,\n  },\n}\n'
    code, findings = _check(monkeypatch, capsys, tmp_path, text, rules=(RULE, FILE_RULE))
    assert sorted((f["rule"], f["severity"]) for f in findings) == [(FILE_RULE, "warning"), (RULE, "error")]
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
    code, findings = _check(monkeypatch, capsys, tmp_path, '{"zero_optimization": {"stage3_prefetch_bucket_size": }',
                            rules=(RULE, FILE_RULE))
    assert [(f["rule"], f["severity"]) for f in findings] == [(FILE_RULE, "error")]
    assert findings[0]["message"].startswith(f"The DeepSpeed config {tmp_path / 'ds_config.json'} cannot be used: ")


@pytest.mark.parametrize("content,reason", [
    (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    (b'{"zero_optimization": ', "invalid JSON"),
    (b"[1, 2]", "the top level must be a JSON object, not list"),
    (b'{"a": NaN}', "invalid JSON: NaN is not valid JSON"),
])
def test_an_unusable_config_is_reported_under_the_input_not_a_key(content, reason, monkeypatch, capsys, tmp_path):
    """Every DeepSpeed rule stays silent on a file it cannot use; config.deepspeed-file names the file and why."""
    path = tmp_path / "ds_config.json"
    path.write_bytes(content)
    code, report, _ = run_json(monkeypatch, capsys, "--from", SNAPSHOT, "--deepspeed-config", str(path))
    deepspeed = [(f["rule"], f["severity"]) for f in report["findings"] if f["rule"].startswith("config.deepspeed")]
    assert deepspeed == [(FILE_RULE, "error")] and code == 1
    message = next(f["message"] for f in report["findings"] if f["rule"] == FILE_RULE)
    assert message.startswith(f"The DeepSpeed config {path} cannot be used: ") and reason in message


def test_a_4000_digit_integer_is_no_crash(monkeypatch, capsys, tmp_path):
    code, findings = _check(monkeypatch, capsys, tmp_path, '{"zero_optimization": {"stage3_prefetch_bucket_size": %s}}' % ("9" * 4000))
    assert [f["severity"] for f in findings] in (["ok"], ["warning"]) and code in (0, 1)


def test_the_config_is_looked_for_under_root_before_any_probe(monkeypatch, capsys, tmp_path):
    """With --root the rules read ROOT/PATH: the early check looks there too and names the root when it is missing."""
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "ds.json").write_text('{"zero_optimization": {"stage": 3}}', encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--root", str(tmp_path), "--deepspeed-config", "/etc/ds.json")
    assert [f["severity"] for f in report["findings"] if f["rule"] == FILE_RULE] == ["ok"]
    code, report, err = run_json(monkeypatch, capsys, "--root", str(tmp_path), "--deepspeed-config", "/missing.json")
    assert code == 3 and report is None and err == f"lingjun-check: --deepspeed-config /missing.json (under --root {tmp_path}): no such file\n"
