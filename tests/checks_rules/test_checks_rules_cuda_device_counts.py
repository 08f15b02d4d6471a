"""No counts of GPUs where none is seen; one MIG device per CUDA process (try9 findings 4, 7)."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "cuda.visible-devices"


def _run(facts, rule=RULE):
    findings = kit.run(rule, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


@pytest.mark.parametrize("value", ["GPU-1234abcd", "MIG-aaaa,MIG-bbbb", "0,1"])
def test_no_count_without_a_driver_or_gpu(value):
    (f,) = _run(Facts(env={"CUDA_VISIBLE_DEVICES": value}))
    assert f.severity.value == "skipped" and "sees" not in f.message.en.split(":")[0]
    assert "no NVIDIA driver or GPU is seen" in f.message.en and "GPU(s)" not in f.message.en


def test_two_mig_devices_give_one_device_to_cuda():
    facts = kit.gpu_facts("570.124.06", gpus=[("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")], CUDA_VISIBLE_DEVICES="MIG-aaaa,MIG-bbbb")
    (f,) = _run(facts)
    assert f.severity.value == "ok"
    assert f.message.en.startswith("CUDA_VISIBLE_DEVICES=MIG-aaaa,MIG-bbbb: CUDA sees at most 1 GPU(s), renumbered 0. "
                                   "A CUDA process uses one MIG device only (MIG-aaaa); the other 1 stay unused.")


def test_unnamed_gpus_are_counted_not_called_an_nvidia_gpu_and_more():
    from lingjun.checks.facts import GpuFacts
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0), GpuFacts(index=1)]
    facts.torch = kit.torch_build("2.5.1+cpu", None)
    findings = _run(facts, "cuda.torch-cpu-build")
    assert findings and all("an NVIDIA GPU and" not in f.message.en for f in findings)
    assert any("on a node with 2 NVIDIA GPUs" in f.message.en for f in findings)


def test_two_mig_devices_leave_one_device_for_local_ranks():
    facts = kit.gpu_facts("570.124.06", gpus=[("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")], CUDA_VISIBLE_DEVICES="MIG-aaaa,MIG-bbbb",
                          LOCAL_RANK="0", LOCAL_WORLD_SIZE="2")
    (f,) = _run(facts, "cuda.local-ranks")
    assert f.severity.value == "error" and "leaves at most 1 GPU(s) visible" in f.message.en and "local rank 1 gets" in f.message.en


def test_no_gpu_ordinals_in_chinese():
    from lingjun.checks.rules.cuda_visible_devices import _ordinals
    assert (_ordinals(0), _ordinals(0, "zh"), _ordinals(1, "zh"), _ordinals(3)) == ("none", "无", "0", "0-2")
