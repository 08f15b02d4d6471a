"""config.deepspeed-precision: fp16 and bf16 both enabled."""

from __future__ import annotations

import pytest

from deepspeed_rules_kit import run

RULE = "config.deepspeed-precision"


@pytest.mark.parametrize("key", ["bf16", "bfloat16"])
def test_both_enabled_is_an_error(tmp_path, key):
    (f,) = run(RULE, tmp_path, {"fp16": {"enabled": True}, key: {"enabled": True}})
    assert f.severity.value == "error" and f"enables both fp16 and {key}" in f.message.en
    assert "cannot be simultaneously enabled" in f.message.en


@pytest.mark.parametrize("config,shown", [
    ({"fp16": {"enabled": "auto"}, "bf16": {"enabled": "auto"}}, "fp16.enabled=\"auto\", bf16.enabled=\"auto\""),
    ({"fp16": {"enabled": True}, "bf16": {"enabled": False}}, "fp16.enabled=true, bf16.enabled=false"),
    ({"fp16": {"enabled": "auto"}}, "fp16.enabled=\"auto\""),
    ({}, "neither fp16 nor bf16 set"),
])
def test_one_or_none_is_ok(tmp_path, config, shown):
    (f,) = run(RULE, tmp_path, config)
    assert f.severity.value == "ok" and f"({shown})" in f.message.en
