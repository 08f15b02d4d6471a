"""A node's name read from a snapshot's text is the top-level "node" member, whatever the name or the rest holds."""

from __future__ import annotations

import json

import pytest

import fleet_corpus
from lingjun.checks.fleet._identity import own_name
from lingjun.checks.fleet._inputs import SNAPSHOT, Record


@pytest.fixture(scope="module")
def base():
    return fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[0]


def _text_record(data: dict, pod=None) -> Record:
    return Record("in.jsonl", 4, pod, SNAPSHOT, None, json.dumps(data, separators=(",", ":")))


@pytest.mark.parametrize("name", ["gpu-{a}", "}{", 'say "node": {"name": "x"}', "n\\ode", "节点-7"])
def test_a_name_with_braces_or_quotes_is_read_whole(base, name):
    data = dict(base, node={"name": name, "source": "option"})
    assert own_name(_text_record(data)) == (name, "option")


def test_a_later_string_value_node_does_not_hide_the_name(base):
    data = dict(base)
    node = data.pop("node")
    data["node"] = node
    data["zz"] = {"node": {"name": "impostor", "source": "option"}, "x": "node"}  # a member after "node"
    assert own_name(_text_record(data)) == (node["name"], node["source"])


def test_node_not_last_is_found_by_parsing(base):
    data = {"node": base["node"], **{k: v for k, v in base.items() if k != "node"}}
    data["env"] = dict(data.get("env") or {}, HINT='"node": {"name": "impostor"}')
    record = _text_record(data)
    assert own_name(record) == (base["node"]["name"], base["node"]["source"])


def test_without_a_node_name_the_pod_then_the_host_name_names_it(base):
    data = dict(base, node={"name": None, "source": None}, host=dict(base["host"], hostname="host-9"))
    assert own_name(_text_record(data, pod="pod-3")) == ("pod-3", "pod")
    assert own_name(_text_record(data)) == ("host-9", "hostname")


def test_a_text_that_is_not_json_is_named_by_its_input(base):
    text = json.dumps(base, separators=(",", ":"))
    record = Record("in.jsonl", 4, None, SNAPSHOT, None, text[:2000] + "}")
    assert own_name(record) == ("in.jsonl:4", "input")
