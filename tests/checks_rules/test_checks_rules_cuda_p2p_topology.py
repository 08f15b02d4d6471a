"""cuda.p2p-topology: multi-GPU jobs on GPUs linked only through the CPU (PHB/NODE/SYS) with NCCL P2P left on.

The topologies are real ``nvidia-smi topo -m`` outputs pasted in public issues (tests/fixtures/nvidia-smi-topo/, each
file names its source), read by the probe's parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, GpuTopologyFacts
from lingjun.checks.probes.gpu_topology import parse_matrix

RULE = "cuda.p2p-topology"
TOPO = Path(__file__).resolve().parents[1] / "fixtures" / "nvidia-smi-topo"
H20 = ("NVIDIA H20", "nvidia", "9.0")
RTX = ("NVIDIA GeForce RTX 4090", "geforce", "8.9")


def _facts(fixture: str, gpu=RTX, **env: str) -> Facts:
    gpus, links, _ = parse_matrix((TOPO / fixture).read_text(encoding="utf-8"))
    facts = kit.gpu_facts(gpus=[gpu] * len(gpus), **env)
    facts.gpu_topology = GpuTopologyFacts(available=True, gpus=gpus, links=links)
    return facts


def _run(facts: Facts, **options):
    findings = kit.run(RULE, kit.context(facts, **options))
    kit.assert_bilingual(findings)
    return findings


def test_eight_pcie_gpus_across_sockets_without_p2p_settings_warn_with_the_remedy_and_its_cost():
    [f] = _run(_facts("go-gpuallocator-17-4090-sys.txt"))
    assert f.severity.value == "warning"
    assert "8 GPUs" in f.message.en and "GPU0-GPU1 SYS" in f.message.en and "hang" in f.message.en
    assert "NCCL_P2P_DISABLE=1" in f.remedy.en and "NCCL_P2P_LEVEL=PXB" in f.remedy.en
    assert "host memory" in f.remedy.en and "bandwidth" in f.remedy.en and "主机内存" in f.remedy.zh
    assert any("pci-access-control-services-acs" in link for link in f.links)
    assert any(link.endswith("#nccl-p2p-disable") for link in f.links)


def test_two_phb_gpus_warn_when_the_job_is_tensor_parallel_by_gpus_per_pod_or_torchrun():
    assert _run(_facts("club-3090-1229-phb-with-p2p-matrix.txt")) == []  # two GPUs, nothing says they work together
    [f] = _run(_facts("club-3090-1229-phb-with-p2p-matrix.txt"), gpus_per_pod=2)
    assert f.severity.value == "warning" and "--gpus-per-pod 2" in f.message.en and "GPU0-GPU1 PHB" in f.message.en
    [f] = _run(_facts("club-3090-1125-node-indented.txt", LOCAL_WORLD_SIZE="2"))
    assert f.severity.value == "warning" and "LOCAL_WORLD_SIZE=2" in f.message.en and "NODE" in f.message.en


@pytest.mark.parametrize("env", [{"NCCL_P2P_DISABLE": "1"}, {"NCCL_P2P_LEVEL": "PXB"}, {"NCCL_P2P_LEVEL": "loc"}])
def test_p2p_disabled_or_bounded_is_ok(env):
    [f] = _run(_facts("go-gpuallocator-17-4090-sys.txt", **env))
    assert f.severity.value == "ok" and list(env)[0] in f.message.en


@pytest.mark.parametrize("env", [{"NCCL_P2P_DISABLE": "0"}, {"NCCL_P2P_LEVEL": "SYS"}])
def test_a_setting_that_still_allows_p2p_through_the_cpu_warns_naming_it(env):
    [f] = _run(_facts("go-gpuallocator-17-4090-sys.txt", **env))
    name, value = next(iter(env.items()))
    assert f.severity.value == "warning" and f"{name}={value} still allows P2P through the CPU" in f.message.en


def test_nvlink_is_ok():
    [f] = _run(_facts("thunderkittens-167-h100-nv18.txt", gpu=("NVIDIA H100 80GB HBM3", "nvidia", "9.0")))
    assert f.severity.value == "ok" and "NVLink" in f.message.en


def test_nvlink_between_some_gpus_is_not_judged_further():
    assert _run(_facts("nccl-1608-h100nvl-nv12-sys.txt", gpu=H20)) == []


def test_gpus_only_behind_pcie_switches_are_info_pointing_at_acs():
    [f] = _run(_facts("nccl-667-pxb-pix-sys.txt", CUDA_VISIBLE_DEVICES="0,1"), gpus_per_pod=2)
    assert f.severity.value == "info" and "GPU0-GPU1 PXB" in f.message.en and "ACS" in f.message.en


def test_visible_devices_choose_the_pairs_judged():
    [f] = _run(_facts("nccl-667-pxb-pix-sys.txt", CUDA_VISIBLE_DEVICES="1,2,3"))
    assert f.severity.value == "warning" and "GPU1-GPU2 SYS" in f.message.en and "GPU0" not in f.message.en


@pytest.mark.parametrize("topology", [GpuTopologyFacts(), GpuTopologyFacts(available=False, error="nvidia-smi not found on PATH")])
def test_skipped_with_the_reason_when_the_matrix_is_not_shown(topology):
    facts = kit.gpu_facts(gpus=[RTX] * 4)
    facts.gpu_topology = topology
    [f] = _run(facts)
    assert f.severity.value == "skipped" and "nvidia-smi topo -m" in f.message.en
    if topology.error:
        assert topology.error in f.message.en


def test_skipped_when_the_snapshot_does_not_carry_the_section_or_the_environment():
    facts = _facts("go-gpuallocator-17-4090-sys.txt")
    facts.origin = "snapshot"
    facts.coverage.not_available = ["gpu-topology"]
    [f] = _run(facts)
    assert f.severity.value == "skipped" and "GPU connection matrix" in f.message.en
    facts = _facts("go-gpuallocator-17-4090-sys.txt")
    facts.origin = "collect_env"
    facts.coverage.partial = ["env"]
    facts.coverage.env_prefixes = ["CUDA_MODULE_LOADING"]
    [f] = _run(facts)
    assert f.severity.value == "skipped" and "NCCL_P2P_DISABLE" in f.message.en


def test_without_a_driver_the_rule_is_skipped_by_the_runner():
    facts = Facts()
    facts.gpu_topology = GpuTopologyFacts(available=True, gpus=[0, 1, 2], links=[])
    assert kit.severities(_run(facts)) in (["skipped"], [])
