"""The gate on the values a signature's remedy quotes (``{{name|fallback}}``): a name the checker computes, words to
fall back on, the same names in both languages, no malformed attempt; commands' own template braces pass."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from lingjun.schema.models import Remedies


def remedies(en: str, zh: str) -> Remedies:
    return Remedies.model_validate({"docker": {"en": en, "zh": zh}})


def test_a_known_value_with_fallbacks_in_both_languages_passes():
    r = remedies("Upgrade the host driver to {{driver.target|the branch the notes name}}.",
                 "把宿主机驱动升级到 {{driver.target|发布说明要求的分支}}。")
    assert r.docker.en.startswith("Upgrade the host driver to {{driver.target|")


def test_a_go_template_a_command_quotes_is_not_a_placeholder():
    r = remedies("Run docker inspect --format '{{.Config.Env}}' IMAGE.", "运行 docker inspect --format '{{.Config.Env}}' IMAGE。")
    assert "{{.Config.Env}}" in r.docker.zh


@pytest.mark.parametrize("en, zh, message", [
    ("Use {{driver.newest|a branch}}.", "用 {{driver.newest|某分支}}。", "names no value the checker computes"),
    ("Use {{driver.target|}}.", "用 {{driver.target|}}。", "gives no words to say"),
    ("Use {{driver.target}}.", "用 {{driver.target}}。", "opens no placeholder"),
    ("Use {{driver.target|a branch}}.", "用支持的分支。", "both languages quote the same values"),
])
def test_the_gate_refuses_a_remedy_value_it_cannot_fill(en, zh, message):
    with pytest.raises(ValidationError) as info:
        remedies(en, zh)
    assert message in str(info.value)
    assert "docker." in str(info.value) or "docker:" in str(info.value)
