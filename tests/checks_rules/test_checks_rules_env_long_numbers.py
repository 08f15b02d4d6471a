"""Very long or implausible numbers in environment variables are not numbers: no rule crashes on them (try9 finding 1)."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.core import nccl_ib_hca, visible_devices
from lingjun.checks.facts import Facts, GpuFacts

HUGE = "9" * 5000
H20 = ("NVIDIA H20", "nvidia", "9.0")


def _facts(**env):
    facts = kit.gpu_facts("570.124.06", gpus=[H20] * 2, **env)
    facts.shm.present = True
    facts.shm.size_bytes = 64 * 1024 * 1024
    facts.shm.fs_type = "tmpfs"
    return facts


@pytest.mark.parametrize("rule", ["cuda.visible-devices", "cuda.local-ranks", "container.shm-size", "container.open-files"])
@pytest.mark.parametrize("var", ["CUDA_VISIBLE_DEVICES", "LOCAL_WORLD_SIZE", "WORLD_SIZE", "LOCAL_RANK"])
def test_a_5000_digit_variable_is_no_internal_error(rule, var):
    findings = kit.run(rule, kit.context(_facts(**{var: HUGE})))
    assert all("internal error" not in f.message.en for f in findings)
    assert all(HUGE[:50] not in f.message.en or var == "CUDA_VISIBLE_DEVICES" for f in findings)


def test_an_absurd_local_world_size_is_not_a_rank_count():
    findings = kit.run("cuda.local-ranks", kit.context(_facts(LOCAL_WORLD_SIZE="999999999999999999")))
    assert findings == [] or all("999999999999999999 ranks" not in f.message.en for f in findings)
    (shm,) = kit.run("container.shm-size", kit.context(_facts(LOCAL_WORLD_SIZE="999999999999999999")))
    assert "999999999999999999" not in shm.message.en and "2 GPU(s) listed" in shm.message.en


def test_a_huge_index_is_out_of_range_not_an_error():
    parsed = visible_devices.parse(HUGE)
    assert parsed.entries[0].kind == "index"
    assert visible_devices.resolve(parsed, gpu_count=8).out_of_range == HUGE


def test_a_huge_hca_port_is_a_bad_port():
    assert "bad-port" in nccl_ib_hca.parse("mlx5_0:" + HUGE).notes


def test_a_5000_digit_prefetch_bucket_string_is_no_internal_error(tmp_path):
    from deepspeed_rules_kit import run
    (f,) = run("config.deepspeed-prefetch-bucket-size", tmp_path, {"zero_optimization": {"stage3_prefetch_bucket_size": HUGE}})
    assert f.severity.value == "error" and "is the string" in f.message.en
