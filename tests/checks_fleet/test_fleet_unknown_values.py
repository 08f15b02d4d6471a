"""Unknown is not absent: a value the snapshot reader drops (wrong type, missing, out of range) makes the fact not
known for that node, never a count of 0, "no library", "-1 B" or "none identified"; the rules reading it skip."""

from __future__ import annotations

import copy
import io
import json

import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
from lingjun.checks.coverage import available


@pytest.fixture(scope="module")
def snapshots():
    """Five nodes without injected outliers."""
    odd = {i for indexes in fleet_corpus.outlier_indexes(12).values() for i in indexes}
    return [s for i, s in enumerate(fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())) if s and i not in odd][:5]


def _set(data: dict, path: str, value) -> dict:
    data = copy.deepcopy(data)
    *parents, last = path.split(".")
    target = data
    for part in parents:
        target = target[part]
    if value is _REMOVE:
        del target[last]
    else:
        target[last] = value
    return data


_REMOVE = object()


def _fleet(lines: "list[dict]", capsys) -> dict:
    stdin = "".join(json.dumps(d, separators=(",", ":")) + "\n" for d in lines).encode()
    main(["-", "--format", "json", "--lang", "en"], stdin=io.BytesIO(stdin))
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("path, value, facts_unknown", [
    ("rdma.devices", "mlx5_0", ["rdma.devices", "rdma.active_ports", "rdma.verbs_devices"]),
    ("rdma.devices", _REMOVE, ["rdma.devices", "rdma.active_ports", "rdma.verbs_devices"]),
    ("rdma.uverbs_nodes", 5, ["rdma.devices", "rdma.verbs_devices"]),
    ("nccl", {}, ["nccl.version"]),
    ("shm.size_bytes", -1, ["shm.size"]),
    ("shm.size_bytes", 10 ** 30, ["shm.size"]),
    ("manifest", "training-nv-pytorch:25.07", ["release"]),
])
def test_a_dropped_value_is_not_known_on_that_node(snapshots, capsys, path, value, facts_unknown):
    bad = _set(snapshots[4], path, value)
    report = _fleet(snapshots[:4] + [bad], capsys)
    facts = {f["id"]: f for f in report["facts"]}
    name = snapshots[4]["node"]["name"]
    for fact_id in facts_unknown:
        assert facts[fact_id]["unknown"] == [name], fact_id
        assert name not in facts[fact_id]["outliers"], fact_id
        assert facts[fact_id]["status"] == "agree", fact_id
    node = next(n for n in report["nodes"] if n["name"] == name)
    if path.startswith("rdma"):  # the rule reading the RDMA devices skips, as for one node checked --from
        assert not [f for f in node["findings"] if f["rule"] == "container.nccl-ib-hca"]


@pytest.mark.parametrize("path, value, section", [
    ("rdma.devices", "x", "rdma"), ("rdma.devices", _REMOVE, "rdma"), ("rdma.uverbs_nodes", {}, "rdma"), ("nccl", {}, "nccl"),
])
def test_the_single_node_reader_marks_the_section_not_known(snapshots, path, value, section):
    facts, problems = facts_from_snapshot_dict(_set(snapshots[0], path, value))
    assert not available(facts, section)
    assert any(p.startswith(path.split(".")[0]) for p in problems)


@pytest.mark.parametrize("path, value, said", [
    ("shm.size_bytes", -1, "shm.size_bytes: -1 is out of range (0 to 9223372036854775807); ignored"),
    ("shm.size_bytes", 10 ** 30, "shm.size_bytes: a number of 31 digits is out of range (0 to 9223372036854775807); ignored"),
    ("nvml.cuda_driver_version", 10 ** 30, "nvml.cuda_driver_version: a number of 31 digits is out of range (0 to 999999); ignored"),
    ("nvml.cuda_driver_version", 1e30, "nvml.cuda_driver_version: expected an integer, got 1e+30; ignored"),
    ("limits.memlock_soft", -2, "limits.memlock_soft: -2 is out of range (-1 to 9223372036854775807); ignored"),
])
def test_out_of_range_numbers_are_dropped_and_named(snapshots, path, value, said):
    facts, problems = facts_from_snapshot_dict(_set(snapshots[0], path, value))
    assert said in problems
    section, field = path.split(".")
    assert getattr(getattr(facts, section), field) is None


def test_unlimited_memlock_stays_a_value(snapshots):
    facts, problems = facts_from_snapshot_dict(_set(snapshots[0], "limits.memlock_soft", -1))
    assert (facts.limits.memlock_soft, problems) == (-1, [])


def _report(name: str, **changes) -> dict:
    base = {"schema": "lingjun-check/report/1", "node": {"name": name, "source": "option"}, "exit_code": 0,
            "summary": {"error": 0, "warning": 0, "info": 0, "ok": 1, "skipped": 0}, "findings": [],
            "release": {"ref": "training-nv-pytorch:25.07"},
            "facts": {"driver_version": "570.124.06", "gpus": [{"name": "NVIDIA H20"}] * 8}}
    base.update(changes)
    return base


@pytest.mark.parametrize("changes, fact_id", [
    ({"facts": {"driver_version": "570.124.06", "gpus": [None]}}, "gpu.count"),
    ({"release": "training-nv-pytorch:25.07"}, "release"),
    ({"release": {"ref": 7}}, "release"),
])
def test_a_report_value_of_the_wrong_type_is_not_known(capsys, changes, fact_id):
    report = _fleet([_report(f"r{i}") for i in range(3)] + [_report("bad", **changes)], capsys)
    fact = next(f for f in report["facts"] if f["id"] == fact_id)
    assert (fact["unknown"], fact["outliers"]) == (["bad"], [])


def test_a_report_that_identified_no_release_says_none_identified(capsys):
    report = _fleet([_report(f"r{i}") for i in range(3)] + [_report("none", release={"ref": None})], capsys)
    fact = next(f for f in report["facts"] if f["id"] == "release")
    assert fact["outliers"] == ["none"] and fact["groups"][1]["display"] == "none identified"
