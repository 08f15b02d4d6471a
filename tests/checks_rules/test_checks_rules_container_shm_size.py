"""container.shm-size: /dev/shm against NCCL's 1 GiB and the 64 MiB container default, by the GPUs in the pod."""

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env

RULE = "container.shm-size"
MIB = 1024 * 1024


def _facts(size, gpus=2, **shm):
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=i, name="NVIDIA H20") for i in range(gpus)]
    facts.shm.present = True
    facts.shm.size_bytes = size
    facts.shm.fs_type = "tmpfs"
    for key, value in shm.items():
        setattr(facts.shm, key, value)
    return facts


def _run(facts, **options):
    findings = kit.run(RULE, kit.context(facts, **options))
    kit.assert_bilingual(findings)
    return findings


def test_default_64_mib_with_two_gpus_is_an_error_naming_kubernetes_and_docker():
    (f,) = _run(_facts(64 * MIB, used_bytes=0))
    assert f.severity.value == "error"
    assert "/dev/shm is 64 MiB (Docker's and Kubernetes' default) in a pod with 2 GPUs (2 GPU(s) listed)" in f.message.en
    assert f.observed == "64 MiB (0 B used)" and f.expected == "at least 1 GiB (NCCL: --shm-size=1g)"
    for words in ("emptyDir", "medium: Memory", "--shm-size", "--ipc=host"):
        assert words in f.remedy.en and words in f.remedy.zh
    assert "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html" in f.links


@pytest.mark.parametrize("size,gpus,env,severity", [
    (512 * MIB, 2, {}, "warning"),          # above the default, below NCCL's 1 GiB
    (1024 * MIB, 8, {}, "ok"),              # NCCL's --shm-size=1g
    (64 * MIB, 1, {}, "warning"),           # one GPU: DataLoader workers alone
    (256 * MIB, 1, {}, "info"),
    (64 * MIB, 0, {}, "warning"),           # GPU count not shown
    (64 * MIB, 1, {"LOCAL_WORLD_SIZE": "4"}, "error"),  # the launcher's ranks count as GPUs of the pod
])
def test_thresholds(size, gpus, env, severity):
    facts = _facts(size, gpus)
    facts.env.update(env)
    assert kit.severities(_run(facts)) == [severity]


def test_host_ipc_names_the_hosts_shm():
    (f,) = _run(_facts(64 * MIB, host_ipc=True))
    assert f.severity.value == "error" and f.observed == "64 MiB (host IPC namespace)"
    assert "remount" in f.remedy.en and "emptyDir" not in f.remedy.en
    (ok,) = _run(_facts(64 * 1024 * MIB, host_ipc=True))
    assert ok.severity.value == "ok" and ok.observed == "64 GiB (host IPC namespace)"


def test_absent_and_unknown_size():
    facts = _facts(None)
    facts.shm.present = False
    (f,) = _run(facts)
    assert f.severity.value == "warning" and "There is no /dev/shm" in f.message.en and f.observed == "absent"
    (g,) = kit.run(RULE, kit.context(_facts(None, present=None)))
    assert g.severity.value == "skipped" and g.message.en == "The size of /dev/shm could not be read in this container."


def test_collect_env_paste_is_skipped_with_the_reason():
    facts = parse_collect_env("PyTorch version: 2.6.0+cu124\nGPU models and configuration:\nGPU 0: NVIDIA H20\nGPU 1: NVIDIA H20\n")
    (f,) = kit.run(RULE, kit.context(facts))
    assert f.severity.value == "skipped"
    assert f.message.en == "The collect_env paste does not show /dev/shm (size and use)."
