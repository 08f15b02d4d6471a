"""The parts of fleet: stream prefixes, fingerprints, node naming, majority and outliers, fact values."""

from __future__ import annotations

import io
import json

from lingjun.checks.facts import Facts, RdmaDeviceFacts, RdmaPortFacts
from lingjun.checks.fleet._check import fingerprint, text_fingerprint
from lingjun.checks.fleet._compare import _compare_one, compare
from lingjun.checks.fleet._identity import own_name
from lingjun.checks.fleet._inputs import Record, RecordError, iter_records, parse_line_prefix
from lingjun.checks.fleet._node_facts import UNKNOWN, display, facts_values

import pytest


def test_kubectl_prefixes_are_removed_in_either_order():
    line = '[pod/job-0-abc/check] 2026-11-30T10:00:01.123456789Z {"schema": 1}'
    assert parse_line_prefix(line) == ("job-0-abc", '{"schema": 1}')
    assert parse_line_prefix('2026-11-30T10:00:01+08:00 [pod/p/c] {"a": 1}') == ("p", '{"a": 1}')
    assert parse_line_prefix('{"a": 1}') == (None, '{"a": 1}')
    assert parse_line_prefix("[pod/a b/c] x") == (None, "[pod/a b/c] x")


def _snapshot(**extra) -> dict:
    data = {"schema": "lingjun-check/snapshot/1", "collected_at": "2026-01-01T00:00:00Z", "host": {"hostname": "h1", "os_id": "ubuntu"},
            "env": {"NCCL_DEBUG": 'say "seconds":1 here'}, "probes": [{"name": "os", "seconds": 0.012, "ok": True}],
            "node": {"name": "n1", "source": "NODE_NAME"}}
    data.update(extra)
    return data


def test_fingerprints_ignore_identity_and_time_only():
    a = _snapshot()
    b = _snapshot(collected_at="2027-02-02T00:00:00Z", host={"hostname": "h2", "os_id": "ubuntu"},
                  probes=[{"name": "os", "seconds": 1.5e-3, "ok": True}], node={"name": "n2", "source": "option"})
    c = _snapshot(env={"NCCL_DEBUG": 'say "seconds":2 here'})  # the same words inside a value are a difference
    d = _snapshot(host={"hostname": "h1", "os_id": "debian"})
    for render in (json.dumps, lambda x: json.dumps(x, indent=2), lambda x: json.dumps(x, separators=(",", ":"))):
        assert text_fingerprint(render(a)) == text_fingerprint(render(b))
        assert len({text_fingerprint(render(x)) for x in (a, c, d)}) == 3
    assert fingerprint(a) == fingerprint(b) and len({fingerprint(x) for x in (a, c, d)}) == 3
    assert fingerprint(a) != text_fingerprint(json.dumps(a))  # two key spaces: never mixed up


def test_a_text_record_is_named_without_parsing_and_fails_cleanly_when_broken():
    text = json.dumps(_snapshot())
    record = Record("in", 3, "pod-x", "lingjun-check/snapshot/1", None, text)
    assert own_name(record) == ("n1", "NODE_NAME")
    assert own_name(Record("in", 3, "pod-x", "lingjun-check/snapshot/1", None, json.dumps(_snapshot(node=None)))) == ("pod-x", "pod")
    no_name = _snapshot(node={"name": None, "source": None})
    assert own_name(Record("in", 4, None, "lingjun-check/snapshot/1", None, json.dumps(no_name))) == ("h1", "hostname")
    no_host = dict(no_name, host={"hostname": None})
    assert own_name(Record("in", 4, None, "lingjun-check/snapshot/1", None, json.dumps(no_host))) == ("in:4", "input")
    broken = Record("in", 5, None, "lingjun-check/snapshot/1", None, '{"schema": "lingjun-check/snapshot/1", "env": {"a": }')
    with pytest.raises(RecordError, match="not a complete JSON object"):
        broken.load()


def test_a_stream_line_that_looks_like_a_snapshot_but_is_broken_is_a_problem_at_check_time(capsys):
    from lingjun.checks.fleet._cli import main

    good = json.dumps(_snapshot())
    bad = '{"schema": "lingjun-check/snapshot/1", "env": {"a": }'
    stream = f"{good}\n{bad}\n".encode()
    problems: list = []
    assert [r.line for r in iter_records(["-"], problems, io.BytesIO(stream))] == [1, 2] and problems == []
    assert main(["-", "--format", "json"], stdin=io.BytesIO(stream)) == 1
    out = capsys.readouterr()
    assert out.err.startswith("lingjun-check fleet: stdin:2: not a complete JSON object (cut short?): Expecting value")
    assert [n["name"] for n in json.loads(out.out)["nodes"]] == ["n1"]


def test_majority_outliers_unknown_and_ties():
    one = _compare_one("gpu.count", [("a", 8), ("b", 8), ("c", 4), ("d", UNKNOWN), ("e", 8)])
    assert (one.status, one.majority, one.outliers, one.unknown) == ("differ", 8, ["c"], ["d"])
    tie = _compare_one("gpu.count", [("a", 8), ("b", 4), ("c", UNKNOWN)])
    assert (tie.status, tie.has_majority, tie.outliers, [g[1] for g in tie.groups]) == ("tie", False, [], [["b"], ["a"]])
    absent = _compare_one("rdma.devices", [("a", None), ("b", 2), ("c", 2)])
    assert absent.outliers == ["a"] and absent.groups[1][0] is None  # observed absent is a value
    types = _compare_one("x", [("a", 1), ("b", True), ("c", "1")])
    assert types.status == "tie" and len(types.groups) == 3
    unknown = _compare_one("shm.size", [("a", UNKNOWN)])
    assert unknown.status == "unknown" and unknown.unknown == ["a"]


def test_an_nccl_variable_one_node_lacks_is_not_set_only_when_its_input_shows_the_environment():
    class Node:
        def __init__(self, name, values, env_shown):
            self.name, self.label, self.values, self.env_shown = name, name, values, env_shown

    nodes = [Node("a", {"env.NCCL_IB_HCA": "mlx5"}, True), Node("b", {"env.NCCL_IB_HCA": "mlx5"}, True),
             Node("c", {}, True), Node("d", {}, False)]
    hca = next(c for c in compare(nodes) if c.id == "env.NCCL_IB_HCA")
    assert (hca.majority, hca.outliers, hca.unknown) == ("mlx5", ["c"], ["d"])


def test_fact_values_of_a_snapshot_keep_unknown_apart_from_absent():
    facts = Facts()
    facts.coverage.not_available = ["rdma", "shm", "limits", "env"]
    values = facts_values(facts, None)
    assert values["rdma.devices"] is UNKNOWN and values["shm.size"] is UNKNOWN and values["limits.memlock"] is UNKNOWN
    assert values["release"] is None
    facts = Facts()
    facts.rdma.devices = [RdmaDeviceFacts(name="mlx5_0", ports=[RdmaPortFacts(port=1, state="ACTIVE")], uverbs="uverbs0")]
    facts.rdma.uverbs_nodes = ["/dev/infiniband/uverbs0"]
    values = facts_values(facts, "training-nv-pytorch:25.07")
    assert (values["rdma.devices"], values["rdma.active_ports"], values["rdma.verbs_devices"]) == (1, 1, 1)
    assert values["driver.version"] is None  # a live probe saw no driver: absent, not unknown
    assert display("shm.size", 64 * 1024 * 1024, "en") == "64 MiB" and display("limits.memlock", -1, "zh") == "无限制"
    assert display("driver.version", None, "en") == "no driver" and display("env.NCCL_IB_HCA", None, "zh") == "未设置"


def test_counts_in_text_are_worded_per_number():
    from lingjun.checks.fleet._render_text import _count, _t

    line = _t("errors", "en", n=_count(1, "node", "en"), w=_count(11, "node", "en"))
    assert line == "errors on 1 node, warnings on 11 nodes"
    assert _t("errors", "zh", n=_count(1, "node", "zh"), w=_count(11, "node", "zh")) == "1 个节点有错误，11 个节点有警告"
    assert _count(1, "input", "en") == "1 input" and _count(0, "input", "en") == "0 inputs"


def test_a_node_list_covering_the_whole_fleet_reads_every_node_and_a_shorter_one_is_cut():
    from lingjun.checks.fleet._render_text import nodes_line

    names = [f"n{i:02d}" for i in range(12)]
    assert nodes_line(names, 12, "en") == "every node"
    assert nodes_line(names, 12, "zh") == "全部节点"
    assert nodes_line(names[:11], 12, "en") == ", ".join(names[:10]) + " … and 1 more"
    assert nodes_line(["only"], 1, "en") == "only"  # a fleet of one names its node


def test_notes_leave_the_exit_code_alone_and_problems_do_not():
    from types import SimpleNamespace

    from lingjun.checks.fleet._inputs import InputProblem
    from lingjun.checks.fleet._model import fleet_exit_code

    fine = [SimpleNamespace(exit_code=0)]
    assert fleet_exit_code(fine, [InputProblem("a.json", None, "given twice with the same facts", note=True)], strict=False) == 0
    assert fleet_exit_code(fine, [InputProblem("a.json", None, "given by 2 inputs with different facts")], strict=False) == 1
    assert fleet_exit_code([SimpleNamespace(exit_code=2)], [], strict=False) == 2  # its own recorded --strict


def test_retries_collapse_and_different_facts_are_renamed():
    from types import SimpleNamespace

    from lingjun.checks.fleet._identity import disambiguate

    nodes = [SimpleNamespace(name="n1", input="a", key="k1"), SimpleNamespace(name="n1", input="b", key="k1"),
             SimpleNamespace(name="n2", input="c", key="k1"), SimpleNamespace(name="n1", input="d", key="k2")]
    said = disambiguate(nodes)
    assert [n.name for n in nodes] == ["n1 (a)", "n2", "n1 (d)"]
    assert [p.note for p in said] == [True, False]
    assert "(a, b); counted once, as a" in said[0].reason
    assert "given by 2 inputs with different facts (a, d)" in said[1].reason
