"""config.deepspeed-numeric-strings: numbers in quotes."""

from __future__ import annotations

from deepspeed_rules_kit import run

RULE = "config.deepspeed-numeric-strings"


def test_quoted_numbers_are_listed(tmp_path):
    config = {"gradient_clipping": "1.0", "optimizer": {"type": "AdamW", "params": {"lr": "1e-5", "betas": ["0.9", 0.999]}},
              "train_batch_size": "auto", "zero_optimization": {"offload_optimizer": {"device": "cpu"}}}
    (f,) = run(RULE, tmp_path, config)
    assert f.severity.value == "warning"
    assert "gradient_clipping='1.0', optimizer.params.lr='1e-5', optimizer.params.betas[0]='0.9'" in f.message.en
    assert "auto" not in f.observed and "AdamW" not in f.observed


def test_real_numbers_are_ok(tmp_path):
    (f,) = run(RULE, tmp_path, {"gradient_clipping": 1.0, "steps_per_print": 100, "optimizer": {"type": "Adam"}})
    assert f.severity.value == "ok"
