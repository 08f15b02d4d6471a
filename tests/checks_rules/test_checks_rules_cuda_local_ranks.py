"""cuda.local-ranks: LOCAL_RANK / LOCAL_WORLD_SIZE / WORLD_SIZE against the GPUs the process sees."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "cuda.local-ranks"
H20 = ("NVIDIA H20", "nvidia", "9.0")


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def _gpus(n, **env):
    return kit.gpu_facts("570.124.06", gpus=[H20] * n, **env)


def test_not_started_by_a_launcher_says_nothing():
    assert _run(_gpus(8)) == []


def test_ranks_that_fit_are_ok():
    (f,) = _run(_gpus(8, LOCAL_RANK="7", LOCAL_WORLD_SIZE="8", WORLD_SIZE="16"))
    assert f.severity.value == "ok"
    assert f.message.en == "LOCAL_RANK=7, LOCAL_WORLD_SIZE=8, WORLD_SIZE=16: every local rank has a GPU (the container has 8 GPU(s))."


def test_local_world_size_beyond_cuda_visible_devices_is_an_error():
    (f,) = _run(_gpus(8, CUDA_VISIBLE_DEVICES="0,1", LOCAL_RANK="0", LOCAL_WORLD_SIZE="4", WORLD_SIZE="4"))
    assert f.severity.value == "error"
    assert ("LOCAL_WORLD_SIZE=4 starts 4 ranks on this node and CUDA_VISIBLE_DEVICES=0,1 leaves 2 GPU(s) visible (devices 0-1): "
            "local ranks 2 and 3 get \"invalid device ordinal\"") in f.message.en
    assert "--nproc_per_node=2" in f.remedy.en
    assert f.observed == "LOCAL_RANK=0, LOCAL_WORLD_SIZE=4, WORLD_SIZE=4, CUDA_VISIBLE_DEVICES=0,1"


def test_local_rank_beyond_the_gpus_is_an_error():
    (f,) = _run(_gpus(2, LOCAL_RANK="5"))
    assert f.severity.value == "error"
    assert f.message.en.startswith("This process has LOCAL_RANK=5, but the container has 2 GPU(s): torch.cuda.set_device(5) fails")
    assert "local ranks 2-" not in f.message.en


def test_world_size_alone_is_only_a_warning():
    (f,) = _run(_gpus(2, LOCAL_RANK="0", WORLD_SIZE="8"))
    assert f.severity.value == "warning"
    assert "WORLD_SIZE=8 and LOCAL_WORLD_SIZE is not set: if all 8 ranks run on this node, local ranks 2-7" in f.message.en


def test_an_empty_cuda_visible_devices_leaves_no_gpu_for_rank_zero():
    (f,) = _run(_gpus(8, CUDA_VISIBLE_DEVICES="", LOCAL_RANK="0", LOCAL_WORLD_SIZE="1"))
    assert f.severity.value == "error" and "LOCAL_RANK=0" in f.message.en and "leaves 0 GPU(s) visible" in f.message.en


def test_unknown_gpu_count_is_skipped_with_the_reason():
    facts = Facts(origin="snapshot", env={"LOCAL_RANK": "1", "WORLD_SIZE": "2"})
    facts.coverage.not_available = ["nvml", "nvidia-smi", "driver", "device-nodes", "libcuda"]
    (f,) = _run(facts)
    assert f.severity.value == "skipped"
    assert "the snapshot does not show how many GPUs the process sees" in f.message.en


def test_a_container_without_any_gpu_is_skipped_with_the_reason():
    (f,) = _run(Facts(env={"LOCAL_RANK": "0", "WORLD_SIZE": "1"}))
    assert f.severity.value == "skipped" and "no NVIDIA driver or GPU is seen in the container" in f.message.en


@pytest.mark.parametrize("env,shown", [({"LOCAL_WORLD_SIZE": "-3"}, "LOCAL_WORLD_SIZE=-3"),
                                       ({"LOCAL_WORLD_SIZE": "0", "WORLD_SIZE": "x"}, "LOCAL_WORLD_SIZE=0, WORLD_SIZE=x")])
def test_values_that_are_not_rank_numbers_are_skipped_with_the_reason(env, shown):
    (f,) = _run(_gpus(2, **env))
    assert f.severity.value == "skipped" and f.observed == shown and "not a rank number" in f.message.en


def test_one_failing_rank_is_singular():
    (f,) = _run(_gpus(1, LOCAL_RANK="0", LOCAL_WORLD_SIZE="2"))
    assert "local rank 1 gets \"invalid device ordinal\"" in f.message.en
    assert "Start at most 1 rank per node" in f.remedy.en and f.expected == "at most 1 local rank"


def test_a_partial_gpu_list_is_named_as_such():
    facts = _gpus(1, LOCAL_WORLD_SIZE="2")
    facts.coverage.partial = ["nvml"]
    facts.coverage.not_available = ["nvidia-smi"]
    (f,) = _run(facts)
    assert f.severity.value == "skipped" and "lists 1 GPU(s) but its GPU section is not complete" in f.message.en


def test_a_local_rank_beyond_the_local_world_size_is_a_stale_environment():
    facts = kit.gpu_facts("570.124.06", gpus=[(f"NVIDIA H20", "nvidia", "9.0")] * 8, LOCAL_RANK="7", LOCAL_WORLD_SIZE="4")
    (finding,) = kit.run("cuda.local-ranks", kit.context(facts))
    assert finding.severity.value == "warning"
    assert "LOCAL_RANK=7 is not below LOCAL_WORLD_SIZE=4" in finding.message.en
    assert "LOCAL_RANK=7 不小于 LOCAL_WORLD_SIZE=4" in finding.message.zh
