"""Snapshots: --collect then --from, redaction, atomic writes, tolerant reading."""

from __future__ import annotations

import json
import os

import pytest

from checks_core_helpers import fakeroot, probe_root, run_cli
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.snapshot import facts_from_snapshot_dict, read_snapshot, redact, write_snapshot


def test_round_trip_keeps_every_fact(tmp_path):
    facts = probe_root("proprietary-x86")
    path = tmp_path / "facts.json"
    write_snapshot(facts, str(path))
    back, problems = read_snapshot(str(path))
    assert problems == []
    assert back.origin == "snapshot"
    expected = facts.to_dict()
    expected["origin"] = "snapshot"
    assert back.to_dict() == expected


def test_redaction_drops_ids_unless_asked():
    facts = Facts()
    facts.host.hostname = "node-17"
    facts.nvml.gpus = [GpuFacts(index=0, name="NVIDIA H20", uuid="GPU-0b1c", pci_bus_id="00000000:3B:00.0")]
    facts.env = {"MASTER_ADDR": "10.0.0.1", "NCCL_SOCKET_IFNAME": "eth0", "HF_TOKEN": "x", "NCCL_X": "https://u:p@h/x"}
    red = redact(facts)
    assert red.host.hostname is None and red.nvml.gpus[0].uuid is None and red.nvml.gpus[0].pci_bus_id is None
    assert red.env == {"NCCL_SOCKET_IFNAME": "eth0", "NCCL_X": "https://***@h/x"}
    assert facts.host.hostname == "node-17"  # the original is untouched
    kept = redact(facts, include_ids=True)
    assert kept.host.hostname == "node-17" and kept.nvml.gpus[0].uuid == "GPU-0b1c" and kept.env["MASTER_ADDR"] == "10.0.0.1"


def test_write_is_atomic_and_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "facts.json"
    target.write_text("previous")
    facts = Facts()
    facts.env = {"NCCL_BAD": "x"}

    class Boom(Exception):
        pass

    import lingjun.checks.snapshot as snapshot

    original = snapshot.json.dumps
    try:
        snapshot.json.dumps = lambda *a, **k: (_ for _ in ()).throw(Boom())
        with pytest.raises(Boom):
            write_snapshot(facts, str(target))
    finally:
        snapshot.json.dumps = original
    assert target.read_text() == "previous"
    assert sorted(os.listdir(tmp_path)) == ["facts.json"]


def test_cli_collect_then_from(tmp_path):
    snap = tmp_path / "facts.json"
    first = run_cli("--root", fakeroot("proprietary-x86"), "--collect", str(snap), "--format", "json", env={"PATH": "/usr/bin"})
    assert first.returncode in (0, 1), first.stderr
    data = json.loads(snap.read_text())
    assert data["schema"] == "lingjun-check/snapshot/1"
    assert data["driver"]["kernel_module_version"] == "570.124.06"
    assert data["host"]["hostname"] is None
    second = run_cli("--from", str(snap), "--format", "json")
    assert second.returncode == first.returncode, second.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert b["origin"] == "snapshot"
    assert [(f["rule"], f["severity"], f["observed"]) for f in a["findings"]] == [(f["rule"], f["severity"], f["observed"]) for f in b["findings"]]
    assert a["release"] == b["release"]


def test_tolerant_reader_names_each_bad_field():
    facts, problems = facts_from_snapshot_dict(
        {"schema": "lingjun-check/snapshot/1", "nvml": {"driver_version": 570, "gpus": [{"index": "zero", "name": "A10"}, {"index": 1}]}, "env": {"A": 1, "B": "b"}}
    )
    assert [g.index for g in facts.nvml.gpus] == [0, 1]
    assert facts.nvml.gpus[0].name == "A10"
    assert facts.nvml.driver_version is None
    assert facts.env == {"B": "b"}
    assert problems == [
        "nvml.driver_version: expected a string, got 570; ignored",
        "nvml.gpus[0].index: expected an integer, got 'zero'; ignored",
        "env: values of A are not strings; ignored",
    ]


def test_missing_required_name_drops_the_item():
    facts, problems = facts_from_snapshot_dict({"distributions": [{"version": "1.0"}, {"name": "ok", "version": "2"}]})
    assert [d.name for d in facts.distributions] == ["ok"]
    assert len(problems) == 2 and "schema" in problems[0] and "distributions[0]" in problems[1]
