"""Fleet at scale: a repeated snapshot text is named without being parsed, wherever its "node" key stands, and
rule runs are shared by the facts sections each rule reads, with the findings of a check made node by node."""

from __future__ import annotations

import json

import pytest

import fleet_corpus
from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts
from lingjun.checks.fleet._check import Checker
from lingjun.checks.fleet._inputs import SNAPSHOT, Record, _top_members
from lingjun.checks.inputs.snapshot_json import DuplicateKeyError
from lingjun.checks.fleet._shared_runs import traced

CASES = fleet_corpus.REPO / "tests" / "fixtures" / "cases"


@pytest.fixture(scope="module")
def data():
    return load_data(None)


@pytest.fixture(scope="module")
def base():
    return fleet_corpus.realistic_base(60)


def _ordered(snapshot: dict, node_at: int) -> dict:
    """``snapshot`` with its "node" member moved to place ``node_at`` (0: first; -1: last)."""
    rest = [(k, v) for k, v in snapshot.items() if k != "node"]
    at = len(rest) if node_at == -1 else node_at
    return dict(rest[:at] + [("node", snapshot["node"])] + rest[at:])


def _record(snapshot: dict, line: int, indent=None) -> Record:
    text = json.dumps(snapshot, indent=indent) if indent else json.dumps(snapshot, separators=(",", ":"))
    return Record("fleet.log", line, None, SNAPSHOT, None, text)


@pytest.mark.parametrize("node_at", [0, 5, -1])
@pytest.mark.parametrize("indent", [None, 2])
def test_repeated_snapshot_text_is_named_without_parsing_wherever_node_stands(data, base, node_at, indent):
    snapshots = fleet_corpus.node_snapshots(12, base=base)  # "check_options" after "node", as --collect writes
    records = [_record(_ordered(s, node_at), i + 1, indent) for i, s in enumerate(snapshots)]
    checker = Checker(data=data)
    names = [checker.check(r).name for r in records]
    assert names == [fleet_corpus.node_name(i) for i in range(12)]
    # the base text and each outlier text are parsed once (the first of each); every repeat stays text
    parsed = [r.text is None for r in records]
    assert sum(parsed) == checker.runs == 5
    assert records[3].text is not None and records[3].data is None  # gpu-node-0003: the base again


def test_a_nested_node_member_never_names_the_node(data, base):
    decoy = dict(base, manifest=dict(base["manifest"], data=dict(base["manifest"]["data"], node={"name": "decoy", "source": "option"})))
    first = second = decoy
    checker = Checker(data=data)
    for order in (0, -1):
        a = _ordered(dict(first, node={"name": "real-a", "source": "NODE_NAME"}), order)
        b = _ordered(dict(second, node={"name": "real-b", "source": "NODE_NAME"}), order)
        assert [checker.check(_record(a, 1)).name, checker.check(_record(b, 2)).name] == ["real-a", "real-b"]
    # no top-level node at all: the decoy inside the manifest is not the node's name (its input and line are)
    bare = {k: v for k, v in decoy.items() if k != "node"}
    names = [checker.check(_record(bare, line)).name for line in (7, 8)]
    assert names == ["fleet.log:7", "fleet.log:8"]


def test_the_top_members_are_read_as_json_loads_reads_them(base):
    text = json.dumps(dict(base, node={"name": "n"}), indent=2)
    data, members = _top_members(text)
    assert data == json.loads(text)
    assert {k: json.loads(v) for k, v in members.items()} == data
    assert _top_members('{"a": 1} x') is None and _top_members('{"a": 1,}') is None and _top_members("[1]") is None
    with pytest.raises(DuplicateKeyError) as caught:  # which value the pod meant cannot be known: refused
        _top_members('{"a": 1, "a": 2}')
    assert caught.value.key == "a"


def _alone(data, snapshot: dict) -> list:
    """The shown findings of ``snapshot`` checked by a checker of its own (nothing shared)."""
    return Checker(data=data).check(Record("x.json", None, None, SNAPSHOT, None, json.dumps(snapshot))).findings


def test_shared_rule_runs_give_each_node_its_own_findings(data, base):
    snapshots = fleet_corpus.node_snapshots(12, base=base, distinct=True)  # /dev/shm in use differs on every node
    cases = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CASES.glob("C*.json")) if "ds_config" not in p.name]
    checker = Checker(data=data)
    results = [checker.check(Record("fleet.log", i + 1, None, SNAPSHOT, None, json.dumps(s))) for i, s in enumerate(snapshots)]
    fleet_run, fleet_reused = checker.shared.rules_run, checker.shared.rules_reused
    for i, s in enumerate(cases):
        results.append(checker.check(Record("cases.log", i + 1, None, SNAPSHOT, None, json.dumps(s))))
    snapshots += cases
    for snapshot, result in zip(snapshots, results):
        assert result.findings == _alone(data, snapshot)
    shm = [r for r in results[:12] if any(rule == "container.shm-size" for rule, _, _ in r.findings)]
    assert len({m for r in shm for rule, _, m in r.findings if rule == "container.shm-size"}) == len(shm)  # its own bytes in use
    assert checker.runs == len(snapshots)  # every text differs ...
    assert fleet_reused > 2 * fleet_run  # ... yet in the fleet most rule results are another node's


def test_traced_facts_count_the_sections_a_property_reads():
    facts = traced(Facts())
    reads: set = set()
    object.__setattr__(facts, "_lingjun_reads", reads)
    assert facts.has_nvidia_driver is False
    object.__setattr__(facts, "_lingjun_reads", None)
    assert reads and reads <= {"driver", "nvml", "nvidia_smi", "libcuda", "coverage"}
    assert "distributions" not in reads and isinstance(facts, Facts)


def test_rules_never_change_the_facts_they_read(data):
    """Nodes share the sections read before (one object for all): a rule that changed one would change them all."""
    import copy

    from lingjun.checks.context import CheckContext, CheckOptions
    from lingjun.checks.inputs.recorded_options import identify_with
    from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
    from lingjun.checks.runner import run_rules

    for path in sorted(CASES.glob("*.json")):
        snapshot = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(snapshot, dict) or snapshot.get("schema") != SNAPSHOT:
            continue
        facts, problems = facts_from_snapshot_dict(snapshot)
        before = copy.deepcopy(facts)
        release = identify_with(facts, data, None, None, problems)
        run_rules(CheckContext(facts=facts, data=data, release=release, options=CheckOptions(gpus_per_pod=2)), snapshot_problems=problems)
        assert facts == before, path.name
