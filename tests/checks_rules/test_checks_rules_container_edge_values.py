"""/dev/shm, memlock, open files and driver.present on values that are not what they seem (try9 findings 4, 8)."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.units import GIB, size

MIB = 1024 * 1024


def _run(rule, facts):
    findings = kit.run(rule, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def _shm(size_bytes, gpus=2, host_ipc=None, **env):
    facts = Facts(env=dict(env))
    facts.nvml.gpus = [GpuFacts(index=i, name="NVIDIA H20") for i in range(gpus)]
    facts.shm.present, facts.shm.size_bytes, facts.shm.fs_type, facts.shm.host_ipc = True, size_bytes, "tmpfs", host_ipc
    return facts


def test_size_zero_is_no_limit():
    (f,) = _run("container.shm-size", _shm(0))
    assert f.severity.value == "ok" and f.message.en.startswith("/dev/shm has no size limit")
    assert "0 B" not in f.message.en and "default" not in f.message.en


def test_negative_size_is_not_known():
    (f,) = _run("container.shm-size", _shm(-5))
    assert f.severity.value == "skipped" and "(-5) is not a size" in f.message.en


@pytest.mark.parametrize("size_bytes,host_ipc,default", [(64 * MIB, None, True), (32 * MIB, None, False), (64 * MIB, True, False)])
def test_default_wording_only_for_exactly_64_mib_in_the_containers_own_namespace(size_bytes, host_ipc, default):
    (f,) = _run("container.shm-size", _shm(size_bytes, host_ipc=host_ipc))
    assert f.severity.value == "error"
    assert ("(Docker's and Kubernetes' default)" in f.message.en) is default
    assert ("--ipc=host" in f.remedy.en) is not bool(host_ipc)


def test_ranks_without_gpus_are_called_ranks():
    (f,) = _run("container.shm-size", _shm(64 * MIB, gpus=0, LOCAL_WORLD_SIZE="2"))
    assert "in a pod with 2 ranks (LOCAL_WORLD_SIZE=2)" in f.message.en and "2 GPUs" not in f.message.en
    assert "2 个进程（LOCAL_WORLD_SIZE=2）" in f.message.zh


def test_large_sizes_are_in_gib():
    assert size(64 * GIB + 4096) == "64.0 GiB" and size(64 * GIB) == "64 GiB"


def _limits(**values):
    facts = kit.gpu_facts("570.124.06", gpus=[("NVIDIA H20", "nvidia", "9.0")] * 2)
    for key, value in values.items():
        setattr(facts.limits, key, value)
    return facts


def test_open_files_below_minus_one_is_not_unlimited():
    (f,) = _run("container.open-files", _limits(nofile_soft=-5, nofile_hard=-5))
    assert f.severity.value == "skipped" and "(-5) is not a limit value" in f.message.en


def test_open_files_ok_for_one_rank_is_singular():
    facts = _limits(nofile_soft=1048576, nofile_hard=1048576)
    facts.nvml.gpus = facts.nvml.gpus[:1]
    (f,) = _run("container.open-files", facts)
    assert f.message.en == "The open-files limit (1048576) is enough for one rank."


def test_nvidia_visible_devices_void_is_not_a_sign_of_gpus():
    from lingjun.checks.rules.driver_present import gpu_intent
    ctx = kit.context(Facts(env={"NVIDIA_VISIBLE_DEVICES": "void"}))
    assert gpu_intent(ctx) == []
    ctx = kit.context(Facts(env={"NVIDIA_VISIBLE_DEVICES": "all"}))
    assert [t.en for t in gpu_intent(ctx)] == ["NVIDIA_VISIBLE_DEVICES=all"]
