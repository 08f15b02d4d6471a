"""The usage note "leave stage3_prefetch_bucket_size empty or auto", on the 25.07 record of the fixture knowledge base."""

import json

import checks_rules_kit as kit
from lingjun.checks.inputs import deepspeed_config
from lingjun.checks.facts import Facts

RULE = "config.deepspeed-prefetch-bucket-size"


def _run(tmp_path, value, ds="0.16.9+ali", tf="4.51.2+ali", raw=None):
    cfg = tmp_path / "ds.json"
    body = {"zero_optimization": {"stage": 3}}
    if value is not ...:
        body["zero_optimization"]["stage3_prefetch_bucket_size"] = value
    cfg.write_text(raw if raw is not None else json.dumps(body))
    facts = Facts()
    facts.distributions = [kit.dist("deepspeed", ds), kit.dist("transformers", tf)]
    return kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"), deepspeed_config=str(cfg)))


def test_empty_and_auto_ok(tmp_path):
    assert kit.severities(_run(tmp_path, ...)) == ["ok"]
    assert kit.severities(_run(tmp_path, None)) == ["ok"]
    assert kit.severities(_run(tmp_path, "auto")) == ["ok"]


def test_integer_warns_float_errors(tmp_path):
    assert kit.severities(_run(tmp_path, 15099494)) == ["warning"]
    f = _run(tmp_path, 15099494.4)
    assert kit.severities(f) == ["error"] and "15099494" in f[0].remedy.en
    assert kit.severities(_run(tmp_path, "Auto")) == ["error"]


def test_auto_with_old_transformers_and_new_deepspeed_errors(tmp_path):
    assert kit.severities(_run(tmp_path, "auto", ds="0.15.0", tf="4.44.2")) == ["error"]
    assert kit.severities(_run(tmp_path, "auto", ds="0.15.0", tf="4.45.0")) == ["ok"]
    assert kit.severities(_run(tmp_path, "auto", ds="0.14.4", tf="4.44.2")) == ["ok"]


def test_invalid_json_is_left_to_the_file_rule(tmp_path):
    """A file that does not parse is the input's problem (config.deepspeed-file), never one of this key."""
    f = _run(tmp_path, None, raw='{\n  "zero_optimization": {\n    "stage": 3,\n    "stage3_prefetch_bucket_size": \n  }\n}')
    assert kit.severities(f) == []
    # a trailing comma is hjson, which DeepSpeed reads: the key is judged (the file rule warns about the comma)
    f = _run(tmp_path, None, raw='{\n  "zero_optimization": {\n    "stage": 3,\n  }\n}')
    assert kit.severities(f) == ["ok"]
    try:
        deepspeed_config.loads('{"a": NaN}', "x.json")
    except deepspeed_config.DeepSpeedConfigError as exc:
        assert "x.json" in str(exc)
    else:
        raise AssertionError("NaN accepted")
