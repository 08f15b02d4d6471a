"""DeepSpeed config rules: quoted booleans, batch sizes DeepSpeed refuses, Chinese expected words (try9 findings 3, 6)."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from deepspeed_rules_kit import run


def test_fp16_false_as_a_string_with_bf16_is_an_error(tmp_path):
    (f,) = run("config.deepspeed-precision", tmp_path, {"fp16": {"enabled": "false"}, "bf16": {"enabled": True}})
    assert f.severity.value == "error"
    assert 'fp16.enabled="false" (a string, not true/false)' in f.message.en and "get_scalar_param" in f.message.en
    assert f.expected_text.zh == "true 或 false（JSON 布尔值），最多启用一个"


def test_auto_strings_are_not_enabled(tmp_path):
    (f,) = run("config.deepspeed-precision", tmp_path, {"fp16": {"enabled": "auto"}, "bf16": {"enabled": True}})
    assert f.severity.value == "ok"


def test_booleans_written_as_strings_are_flagged(tmp_path):
    (f,) = run("config.deepspeed-numeric-strings", tmp_path, {"fp16": {"enabled": "false"}, "bf16": {"enabled": "True"}})
    assert f.severity.value == "warning"
    assert "writes true/false as strings:" in f.message.en and "a non-empty string counts as true" in f.message.en
    assert "fp16.enabled='false'" in f.observed and "bf16.enabled='True'" in f.observed


def test_numbers_and_booleans_as_strings_give_two_warnings(tmp_path):
    findings = run("config.deepspeed-numeric-strings", tmp_path, {"fp16": {"enabled": "false"}, "gradient_clipping": "1.0"})
    assert [f.severity.value for f in findings] == ["warning", "warning"]
    assert "true/false" in findings[0].message.en and "gradient_clipping='1.0'" in findings[1].message.en


@pytest.mark.parametrize("config,shown,words", [
    ({"train_batch_size": 0, "train_micro_batch_size_per_gpu": 0, "gradient_accumulation_steps": 0},
     "train_batch_size=0, train_micro_batch_size_per_gpu=0, gradient_accumulation_steps=0", "has to be greater than 0"),
    ({"train_batch_size": -8, "train_micro_batch_size_per_gpu": 4}, "train_batch_size=-8", "has to be greater than 0"),
    ({"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4.5}, "train_micro_batch_size_per_gpu=4.5", "fractional"),
])
def test_batch_sizes_deepspeed_refuses_are_errors(tmp_path, config, shown, words):
    (f,) = run("config.deepspeed-batch-size", tmp_path, config)
    assert f.severity.value == "error" and f.observed == shown and words in f.message.en


def test_a_whole_float_batch_size_is_a_number(tmp_path):
    (f,) = run("config.deepspeed-batch-size", tmp_path, {"train_batch_size": 32.0, "train_micro_batch_size_per_gpu": 4,
                                                         "gradient_accumulation_steps": 1},
               facts=kit.gpu_facts("570.124.06", WORLD_SIZE="8"))
    assert f.severity.value == "ok"


def test_auto_expected_is_chinese(tmp_path):
    (f,) = run("config.deepspeed-auto", tmp_path, {"train_batch_size": "auto"})
    assert f.expected_text is not None and f.expected_text.zh == "数值 / true / false"


def test_precision_observed_words_are_chinese(tmp_path):
    (f,) = run("config.deepspeed-precision", tmp_path, {})
    assert f.observed_text.zh == "fp16 和 bf16 均未设置"
