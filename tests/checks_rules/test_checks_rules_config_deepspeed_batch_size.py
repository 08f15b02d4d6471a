"""config.deepspeed-batch-size: train_batch_size = micro-batch x accumulation x WORLD_SIZE."""

from __future__ import annotations

from deepspeed_rules_kit import run
from lingjun.checks.facts import Facts

RULE = "config.deepspeed-batch-size"
THREE = {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}


def _world(n):
    return Facts(env={"WORLD_SIZE": str(n)})


def test_agreeing_with_world_size_is_ok(tmp_path):
    (f,) = run(RULE, tmp_path, THREE, _world(8))
    assert f.severity.value == "ok" and "agree with WORLD_SIZE=8" in f.message.en


def test_disagreeing_with_world_size_is_an_error(tmp_path):
    (f,) = run(RULE, tmp_path, THREE, _world(4))
    assert f.severity.value == "error" and "(4 x 2 x 4 = 32)" in f.message.en and f.expected == "32"
    assert f.observed == "train_batch_size=64, train_micro_batch_size_per_gpu=4, gradient_accumulation_steps=2, WORLD_SIZE=4"


def test_two_given_must_divide_by_the_world_size(tmp_path):
    config = {"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4}
    (f,) = run(RULE, tmp_path, config, _world(2))
    assert f.severity.value == "error" and "not a multiple of 4 x 2" in f.message.en
    (ok,) = run(RULE, tmp_path, {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4}, _world(2))
    assert ok.severity.value == "ok"


def test_without_world_size_an_indivisible_total_is_an_error(tmp_path):
    (f,) = run(RULE, tmp_path, {"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2},
               Facts())
    assert f.severity.value == "error" and "not a multiple of 8" in f.message.en


def test_without_world_size_a_divisible_total_names_the_fitting_world_size(tmp_path):
    (f,) = run(RULE, tmp_path, THREE, Facts())
    assert f.severity.value == "info"
    assert "fit a world size of 8 GPU(s) only" in f.message.en and "WORLD_SIZE is not set" in f.message.en
    snapshot = Facts(origin="snapshot")
    snapshot.coverage.not_available = ["env"]
    (g,) = run(RULE, tmp_path, THREE, snapshot)
    assert g.severity.value == "info" and "the snapshot does not show WORLD_SIZE" in g.message.en


def test_fewer_than_two_integers_or_no_total_says_nothing(tmp_path):
    assert run(RULE, tmp_path, {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": 4}, _world(2)) == []
    assert run(RULE, tmp_path, {"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}, _world(2)) == []


def test_a_world_size_that_is_no_rank_count_is_not_compared(tmp_path):
    # 0 must not reach `total % (per_world * world)` (two of the three given): it raised ZeroDivisionError
    two = {"train_batch_size": 8, "train_micro_batch_size_per_gpu": 2}
    for raw in ("0", "eight"):
        (f,) = run(RULE, tmp_path, two, _world(raw))
        assert f.severity.value == "info", raw
        assert f.message.en.endswith("train_batch_size=8, train_micro_batch_size_per_gpu=2; these fit a world size of 4 GPU(s) "
                                     "only (or a divisor of it). Not compared with the job's world size: "
                                     "WORLD_SIZE is set but is not a number of ranks (a whole number from 1 to 100000).")
        assert "WORLD_SIZE 已设置，但不是有效的进程数（应为 1 到 100000 的整数）" in f.message.zh
    (g,) = run(RULE, tmp_path, THREE, _world(0))
    assert g.severity.value == "info" and "fit a world size of 8 GPU(s) only." in g.message.en
