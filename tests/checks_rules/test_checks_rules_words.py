"""Each rule's WORDS table (lingjun.checks.rules._words): both languages name the same fields, and every entry formats."""

from __future__ import annotations

import importlib

import pytest

from lingjun.checks.report.findings import Text
from lingjun.checks.rules import RULES, load_rules
from lingjun.checks.rules._words import Words, fields, join

load_rules()
_TABLES = sorted({spec.func.__module__ for spec in RULES.values()
                  if isinstance(getattr(importlib.import_module(spec.func.__module__), "WORDS", None), Words)})


def test_words_rejects_a_translation_that_names_other_fields():
    with pytest.raises(ValueError, match="'ok': the English names \\['have'\\], the Chinese \\['size'\\]"):
        Words({"ok": ("/dev/shm is {have}", "/dev/shm 为 {size}")})


def test_words_fills_each_language_from_a_text_value():
    words = Words({"count": ("{n} GPUs ({source})", "{n} 块 GPU（{source}）")})
    assert words("count", n=2, source=Text("GPUs seen", "可见 GPU")) == Text("2 GPUs (GPUs seen)", "2 块 GPU（可见 GPU）")
    assert join([Text("a", "甲"), Text("b", "乙")]) == Text("a, b", "甲，乙")
    assert fields("{a} of {b:>3} and {c.x}") == {"a", "b", "c"}


def test_at_least_one_rule_words_its_findings_through_a_table():
    assert "lingjun.checks.rules.container_shm_size" in _TABLES


@pytest.mark.parametrize("module", _TABLES)
def test_every_entry_of_a_rules_words_table_formats_in_both_languages(module):
    words = importlib.import_module(module).WORDS
    for key in words:
        en, zh = words[key]
        assert en.strip() or key.endswith("-none"), key
        values = {name: "X" for name in fields(en)}
        text = words(key, **values)
        assert isinstance(text, Text) and text.zh.count("X") >= len(values)
