"""GPU model names -> compute capability, and cuda.compute-capability on pastes that give only names."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.core.gpu_models import compute_capability_from_name
from lingjun.checks.knowledge.bundle import KnowledgeData

from checks_redteam_kit import REDTEAM, run_json, severities


@pytest.fixture(scope="module")
def gpu_table():
    """The GPU table of the bundle the checker ships (releases/reference/gpus.yaml)."""
    table = KnowledgeData.from_file(Path(__file__).resolve().parents[2] / "checks" / "data" / "bundle.json").gpus
    assert len(table) > 40
    return table


@pytest.mark.parametrize("name, cc", [
    ("NVIDIA GeForce RTX 5090", "12.0"),
    ("NVIDIA GeForce RTX 5090 D", "12.0"),
    ("NVIDIA GeForce RTX 5090 Laptop GPU", "12.0"),
    ("NVIDIA GeForce RTX 4090", "8.9"),
    ("NVIDIA GeForce RTX 3050 Laptop GPU", "8.6"),
    ("NVIDIA GeForce RTX 2080 Ti", "7.5"),
    ("NVIDIA GeForce GTX 1650", "7.5"),
    ("NVIDIA GeForce GTX 1050 Ti", "6.1"),
    ("Tesla T4", "7.5"),
    ("Tesla V100-SXM2-32GB", "7.0"),
    ("NVIDIA A100-SXM4-40GB", "8.0"),
    ("NVIDIA A100 80GB PCIe", "8.0"),
    ("NVIDIA A800-SXM4-80GB", "8.0"),
    ("NVIDIA A10", "8.6"),
    ("NVIDIA A10G", "8.6"),
    ("NVIDIA L20", "8.9"),
    ("NVIDIA L40S", "8.9"),
    ("NVIDIA H20", "9.0"),
    ("NVIDIA H100 80GB HBM3", "9.0"),
    ("NVIDIA H800", "9.0"),
    ("NVIDIA GH200 480GB", "9.0"),
    ("NVIDIA H200", "9.0"),
    ("NVIDIA GB200", "10.0"),
    ("NVIDIA B300", "10.3"),
    ("NVIDIA B200", "10.0"),
    ("NVIDIA RTX A6000", "8.6"),
    ("NVIDIA RTX 6000 Ada Generation", "8.9"),
    ("NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0"),
    ("Quadro RTX 8000", "7.5"),
    ("NVIDIA TITAN RTX", "7.5"),
])
def test_known_models(name, cc, gpu_table):
    assert compute_capability_from_name(name, gpu_table) == cc


@pytest.mark.parametrize("name", ["NVIDIA GeForce ...", "AMD Instinct MI300X", "", "NVIDIA A1000000", "GPU", None, 42,
                                  "NVIDIA GeForce RTX 9090"])
def test_unknown_or_truncated_names_give_none(name, gpu_table):
    assert compute_capability_from_name(name, gpu_table) is None


def test_paste_with_rtx_5090_and_cu124_torch_fails_the_architecture_check(monkeypatch, capsys):
    # pytorch/pytorch#167244: torch 2.7.0.dev20250310+cu124 on two RTX 5090s -> "no kernel image is available"
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(REDTEAM / "R02-pytorch-167244.collect_env.txt"))
    assert severities(report, "cuda.compute-capability") == ["error"]
    finding = next(f for f in report["findings"] if f["rule"] == "cuda.compute-capability")
    assert "sm_120" in finding["message"] and "model name" in finding["message"]
    assert code == 1


def test_facts_keep_what_was_read():
    facts = parse_collect_env((REDTEAM / "R02-pytorch-167244.collect_env.txt").read_text(encoding="utf-8"))
    assert [g.compute_capability for g in facts.gpus] == [None, None]
