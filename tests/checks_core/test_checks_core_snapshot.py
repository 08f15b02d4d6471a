"""Snapshots: --collect then --from, redaction, atomic writes, tolerant reading."""

from __future__ import annotations

import json
import os

import pytest

from checks_core_helpers import fakeroot, probe_root, run_cli
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict, read_snapshot, redact, write_snapshot


def test_round_trip_keeps_every_fact(tmp_path):
    facts = probe_root("proprietary-x86")
    path = tmp_path / "facts.json"
    write_snapshot(facts, str(path), include_ids=True)
    back, problems = read_snapshot(str(path))
    assert problems == []
    assert back.origin == "snapshot"
    expected = facts.to_dict()
    expected["origin"] = "snapshot"
    assert back.to_dict() == expected
    # without --include-ids only the interface addresses differ (this fake root has no other ids)
    write_snapshot(facts, str(path))
    back, problems = read_snapshot(str(path))
    for iface in expected["network"]:
        iface["ipv4"], iface["ipv6"] = [], []
    assert problems == [] and back.to_dict() == expected


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

    import lingjun.checks.inputs.snapshot as snapshot

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


def test_snapshot_drops_interface_addresses_unless_ids_are_included(tmp_path):
    facts = probe_root("proprietary-x86", probes=["network"])
    red = redact(facts)
    assert [(i.name, i.ipv4, i.ipv6, i.has_ipv4, i.has_ipv6) for i in red.network] == [
        ("eth0", [], [], True, True),
        ("hpn0", [], [], True, False),
        ("lo", [], [], True, True),
    ]
    assert facts.network[0].ipv4 == ["10.0.0.5/24"]  # the original is untouched
    kept = redact(facts, include_ids=True)
    assert [(i.name, i.ipv4) for i in kept.network][:2] == [("eth0", ["10.0.0.5/24"]), ("hpn0", ["192.168.16.7/20"])]
    path = tmp_path / "facts.json"
    write_snapshot(facts, str(path))
    text = path.read_text()
    assert "10.0.0.5" not in text and "192.168.16.7" not in text and "fe80::" not in text


def test_interface_without_has_ipv4_reads_it_from_the_addresses():
    """Snapshots written before has_ipv4/has_ipv6 existed carry only the address lists."""
    facts, problems = facts_from_snapshot_dict(
        {"schema": "lingjun-check/snapshot/1", "network": [{"name": "eth0", "ipv4": ["10.0.0.5/24"]}, {"name": "eth1"}]})
    assert problems == []
    assert [(i.name, i.carries_ipv4(), i.carries_address()) for i in facts.network] == [("eth0", True, True), ("eth1", False, False)]


@pytest.mark.parametrize("ifname, severity", [("eth0", "ok"), ("hpn", "ok"), ("lo", "ok"), ("bond", "error")])
def test_nccl_socket_ifname_same_from_a_snapshot_without_addresses(tmp_path, ifname, severity):
    snap = tmp_path / "facts.json"
    env = {"PATH": "/usr/bin", "NCCL_SOCKET_IFNAME": ifname}
    first = run_cli("--root", fakeroot("proprietary-x86"), "--collect", str(snap), "--format", "json", env=env)
    assert "10.0.0.5" not in snap.read_text()
    second = run_cli("--from", str(snap), "--format", "json")
    pick = lambda out: [(f["severity"], f["observed"]) for f in json.loads(out)["findings"] if f["rule"] == "env.nccl-socket-ifname"]  # noqa: E731
    assert pick(first.stdout) == pick(second.stdout) == [(severity, ifname)]


def test_nccl_socket_ifname_warns_on_an_interface_without_address_in_a_snapshot(tmp_path):
    snap = tmp_path / "facts.json"
    snap.write_text(json.dumps({"schema": "lingjun-check/snapshot/1", "env": {"NCCL_SOCKET_IFNAME": "eth"},
                                "network": [{"name": "eth0", "operstate": "up", "has_ipv4": False, "has_ipv6": False},
                                            {"name": "hpn0", "operstate": "up", "has_ipv4": True}]}))
    report = json.loads(run_cli("--from", str(snap), "--format", "json").stdout)
    found = [f for f in report["findings"] if f["rule"] == "env.nccl-socket-ifname"]
    assert [f["severity"] for f in found] == ["warning"]
    assert "hpn0 (IPv4; up)" in found[0]["message"] and "eth0 (no IPv4; up)" in found[0]["message"]


def test_collect_says_where_it_wrote_on_stderr_and_keeps_stdout_the_report(tmp_path):
    snap = tmp_path / "s.json"
    result = run_cli("--root", fakeroot("proprietary-x86"), "--collect", str(snap), "--format", "json", env={"PATH": "/usr/bin"})
    json.loads(result.stdout)
    assert result.stderr == f"lingjun-check: snapshot written to {snap}\n"
    help_text = " ".join(run_cli("--help").stdout.split())
    assert "--include-ids keep host name, GPU UUIDs, MASTER_ADDR and interface IP addresses in the snapshot" in help_text
