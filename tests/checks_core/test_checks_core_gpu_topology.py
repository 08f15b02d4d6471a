"""The gpu-topology probe: ``nvidia-smi topo -m`` matrices read into GPU pairs and links, and how the probe runs.

The matrices under tests/fixtures/nvidia-smi-topo/ are copies of outputs users pasted into public issues (the
first line of each names its source).
"""

from __future__ import annotations

import stat
import time
from pathlib import Path

import pytest

from lingjun.checks.facts import Facts, GpuTopologyFacts, ProbeRecord
from lingjun.checks.probes import gpu_topology
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.gpu_topology import parse_matrix

TOPO = Path(__file__).resolve().parents[1] / "fixtures" / "nvidia-smi-topo"


def _links(name: str) -> tuple[list[int], dict[tuple[int, int], str]]:
    gpus, links, cut = parse_matrix((TOPO / name).read_text(encoding="utf-8"))
    assert cut is False
    return gpus, {(l.gpu_a, l.gpu_b): l.link for l in links}


def test_four_gpus_on_two_switches_across_sockets():
    gpus, links = _links("nccl-667-pxb-pix-sys.txt")
    assert gpus == [0, 1, 2, 3]
    assert links == {(0, 1): "PXB", (0, 2): "SYS", (0, 3): "SYS", (1, 2): "SYS", (1, 3): "SYS", (2, 3): "PIX"}


def test_eight_gpus_all_sys_and_the_nic_columns_and_rows_left_out():
    gpus, links = _links("go-gpuallocator-17-4090-sys.txt")
    assert gpus == list(range(8))
    assert len(links) == 28 and set(links.values()) == {"SYS"}


def test_eight_h100_with_nvlink_and_the_legend_ignored():
    gpus, links = _links("thunderkittens-167-h100-nv18.txt")
    assert gpus == list(range(8)) and len(links) == 28 and set(links.values()) == {"NV18"}


def test_the_second_p2p_matrix_after_the_legend_is_not_read():
    gpus, links = _links("club-3090-1229-phb-with-p2p-matrix.txt")
    assert gpus == [0, 1] and links == {(0, 1): "PHB"}


def test_nvlink_pair_and_a_gpu_on_the_other_socket():
    gpus, links = _links("nccl-1608-h100nvl-nv12-sys.txt")
    assert gpus == [0, 1, 2] and links == {(0, 1): "NV12", (0, 2): "SYS", (1, 2): "SYS"}


def test_an_indented_copy_with_a_wrapped_legend():
    gpus, links = _links("club-3090-1125-node-indented.txt")
    assert gpus == [0, 1] and links == {(0, 1): "NODE"}


@pytest.mark.parametrize("text", ["", "No devices were found\n", "GPU0 X\n", "\tGPU0\tGPU1\nGPU0\t X \tBOGUS\n",
                                  "x" * 300_000, "\x00\x01GPU0\n" * 50])
def test_text_without_a_matrix_gives_nothing_and_never_raises(text):
    gpus, links, _ = parse_matrix(text)
    assert links == [] and gpus in ([], [0])


def test_soc_of_old_drivers_is_read_as_sys_and_a_wide_matrix_is_cut():
    gpus, links, _ = parse_matrix("\tGPU0\tGPU1\nGPU0\t X \tSOC\nGPU1\tSOC\t X \n")
    assert [l.link for l in links] == ["SYS"]
    n = gpu_topology.MAX_GPUS + 2
    header = "\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\n"
    rows = "".join(f"GPU{i}\t" + "\t".join("X" if i == j else "PHB" for j in range(n)) + "\n" for i in range(n))
    gpus, links, cut = parse_matrix(header + rows)
    assert cut is True and len(gpus) == gpu_topology.MAX_GPUS and all(l.gpu_b < gpu_topology.MAX_GPUS for l in links)


def _root_with_smi(tmp_path: Path, body: str) -> str:
    bindir = tmp_path / "usr" / "bin"
    bindir.mkdir(parents=True)
    script = bindir / "nvidia-smi"
    script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(tmp_path)


def _probe(root: str, run_root_programs: bool, timeout: float = 2.0) -> tuple[GpuTopologyFacts, ProbeRecord]:
    record = ProbeRecord(name=gpu_topology.NAME)
    env = ProbeEnv(root=root, environ={"PATH": "/usr/bin"}, timeout=timeout, run_root_programs=run_root_programs)
    return gpu_topology.probe(env, record)["gpu_topology"], record


def test_probe_reads_the_matrix_only_when_programs_inside_the_root_may_run(tmp_path):
    matrix = (TOPO / "nccl-667-pxb-pix-sys.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    root = _root_with_smi(tmp_path, f"[ \"$1 $2\" = 'topo -m' ] || exit 3\ncat <<'EOF'\n{matrix}EOF\n")
    facts, record = _probe(root, run_root_programs=False)
    assert facts.available is None and "--run-root-programs" in (record.error or "") and facts.links == []
    facts, record = _probe(root, run_root_programs=True)
    assert facts.available is True and facts.gpus == [0, 1, 2, 3] and len(facts.links) == 6 and record.ok


def test_probe_without_nvidia_smi_and_with_a_failing_one(tmp_path):
    facts, _ = _probe(str(tmp_path), run_root_programs=True)
    assert facts.available is False and "not found" in facts.error
    facts, _ = _probe(_root_with_smi(tmp_path / "r", "echo 'Failed to initialize NVML: Unknown Error'; exit 255\n"), True)
    assert facts.available is False and facts.error == "Failed to initialize NVML: Unknown Error"


def test_probe_kills_a_hanging_nvidia_smi_at_its_deadline(tmp_path):
    root = _root_with_smi(tmp_path, "sleep 30 &\nsleep 30\n")
    started = time.monotonic()
    facts, record = _probe(root, run_root_programs=True, timeout=0.5)
    assert time.monotonic() - started < 5
    assert facts.available is None and record.timed_out and not record.ok


def test_snapshot_round_trip_keeps_the_topology():
    gpus, links, _ = parse_matrix((TOPO / "nccl-667-pxb-pix-sys.txt").read_text(encoding="utf-8"))
    facts = Facts(gpu_topology=GpuTopologyFacts(available=True, gpus=gpus, links=links))
    again = Facts.from_dict(facts.to_dict())
    assert again.gpu_topology == facts.gpu_topology
    assert Facts.from_dict({}).gpu_topology == GpuTopologyFacts()
