"""config.deepspeed-auto: "auto" is filled only by the Hugging Face Trainer / Accelerate."""

from __future__ import annotations

import checks_rules_kit as kit
from deepspeed_rules_kit import run
from lingjun.checks.facts import Facts

RULE = "config.deepspeed-auto"
T12 = {"fp16": {"enabled": "auto", "loss_scale": 0}, "gradient_clipping": "auto"}


def test_no_option_no_finding():
    assert kit.run(RULE, kit.context(Facts())) == []


def test_unreadable_file_is_left_to_the_prefetch_rule(tmp_path):
    assert run(RULE, tmp_path, None, raw="{not json") == []


def test_auto_without_transformers_or_accelerate_is_an_error(tmp_path):
    facts = Facts(distributions=[kit.dist("deepspeed", "0.16.9")])
    (f,) = run(RULE, tmp_path, T12, facts)
    assert f.severity.value == "error"
    assert "has \"auto\" in fp16.enabled, gradient_clipping, but neither transformers nor accelerate is installed" in f.message.en
    assert "TypeError: '>' not supported between instances of 'str' and 'float'" in f.message.en
    assert f.observed == "fp16.enabled, gradient_clipping"
    assert "https://github.com/deepspeedai/DeepSpeed/issues/1270" in f.links


def test_auto_with_transformers_installed_is_a_warning(tmp_path):
    facts = Facts(distributions=[kit.dist("transformers", "4.51.2"), kit.dist("accelerate", "1.6.0")])
    (f,) = run(RULE, tmp_path, T12, facts)
    assert f.severity.value == "warning"
    assert "only the Hugging Face Trainer or Accelerate fill these (transformers, accelerate installed)" in f.message.en


def test_auto_with_the_package_list_not_shown_is_a_warning(tmp_path):
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = ["distributions"]
    (f,) = run(RULE, tmp_path, {"optimizer": {"params": {"lr": "auto"}}, "train_batch_size": "auto"}, facts)
    assert f.severity.value == "warning" and "\"auto\" in optimizer.params.lr, train_batch_size" in f.message.en
    assert "installed" not in f.message.en


def test_many_auto_fields_are_listed_in_brief(tmp_path):
    config = {f"k{i}": "auto" for i in range(10)}
    (f,) = run(RULE, tmp_path, config)
    assert "k9" in f.message.en and "… and 2 more" in f.brief.en


def test_no_auto_is_ok(tmp_path):
    (f,) = run(RULE, tmp_path, {"gradient_clipping": 1.0, "fp16": {"enabled": True}})
    assert f.severity.value == "ok" and "has no \"auto\" value" in f.message.en
