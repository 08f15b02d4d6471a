"""Node identity (--node-name, NODE_NAME, the host name with --include-ids) and --collect - (snapshot on stdout)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema

from lingjun.checks.cli import build_parser
from lingjun.checks.core.node_name import clean_node_name, node_identity
from lingjun.checks.facts import Facts, NodeFacts
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict, redact, snapshot_line

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "checks_core"))
from checks_core_helpers import REPO, fakeroot, run_cli  # noqa: E402

SNAPSHOT_SCHEMA = json.loads((REPO / "checks" / "snapshot.schema.json").read_text(encoding="utf-8"))
REPORT_SCHEMA = json.loads((REPO / "checks" / "report.schema.json").read_text(encoding="utf-8"))


def test_node_identity_order_and_cleaning():
    assert node_identity("opt", {"NODE_NAME": "env"}, "host") == ("opt", "option")
    assert node_identity(None, {"NODE_NAME": "env"}, "host") == ("env", "NODE_NAME")
    assert node_identity("  ", {"NODE_NAME": ""}, "host") == ("host", "hostname")
    assert node_identity(None, {}, None) == (None, None)
    assert clean_node_name("a\x1b[2J\u202eb") == "a\\x1b[2J\\u202eb"
    assert clean_node_name("x" * 300) == "x" * 256 + "… (44 more characters)"


def test_collect_dash_writes_one_snapshot_line_to_stdout_and_the_report_to_stderr():
    result = run_cli("--root", fakeroot("rdma-roce-bond"), "--collect", "-", "--node-name", "node-a", env={"NODE_NAME": "ignored"})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and result.stdout.endswith("\n")
    snapshot = json.loads(lines[0])
    jsonschema.validate(snapshot, SNAPSHOT_SCHEMA)
    assert snapshot["schema"] == "lingjun-check/snapshot/1" and snapshot["node"] == {"name": "node-a", "source": "option", "cluster": None, "cluster_source": None}
    assert result.stderr.startswith("lingjun-check 0.1.0") and "snapshot written" not in result.stderr


def test_collect_dash_with_json_keeps_stdout_one_snapshot_and_the_json_report_on_stderr():
    result = run_cli("--root", fakeroot("rdma-roce-bond"), "--collect", "-", "--format", "json", env={"NODE_NAME": "k8s-node-7"})
    assert result.returncode == 0, result.stderr
    snapshot = json.loads(result.stdout)
    assert snapshot["node"] == {"name": "k8s-node-7", "source": "NODE_NAME", "cluster": None, "cluster_source": None}
    report = json.loads(result.stderr)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert report["node"] == {"name": "k8s-node-7", "source": "NODE_NAME", "cluster": None}


def test_json_report_node_is_null_without_a_name_and_a_snapshot_keeps_its_node(tmp_path):
    result = run_cli("--root", fakeroot("rdma-roce-bond"), "--format", "json", env={"NODE_NAME": ""})
    assert json.loads(result.stdout)["node"] == {"name": None, "source": None, "cluster": None}
    snap = tmp_path / "s.json"
    run_cli("--root", fakeroot("rdma-roce-bond"), "--collect", str(snap), env={"NODE_NAME": "from-collect"})
    # the checking machine's NODE_NAME does not rename a snapshot from another node; --node-name does
    assert json.loads(run_cli("--from", str(snap), "--format", "json", env={"NODE_NAME": "here"}).stdout)["node"]["name"] == "from-collect"
    renamed = json.loads(run_cli("--from", str(snap), "--format", "json", "--node-name", "renamed").stdout)["node"]
    assert renamed == {"name": "renamed", "source": "option", "cluster": None}


def test_old_snapshots_without_node_are_read_and_a_host_name_node_is_redacted():
    facts, problems = facts_from_snapshot_dict({"schema": "lingjun-check/snapshot/1", "env": {}})
    assert problems == [] and facts.node == NodeFacts()
    named = Facts(node=NodeFacts(name="pod-host", source="hostname"))
    assert redact(named).node == NodeFacts()
    assert redact(named, include_ids=True).node == NodeFacts(name="pod-host", source="hostname")
    kept = Facts(node=NodeFacts(name="n1", source="NODE_NAME"))
    assert json.loads(snapshot_line(kept))["node"] == {"name": "n1", "source": "NODE_NAME", "cluster": None, "cluster_source": None}


def test_snapshot_line_is_one_line_with_unsafe_characters_escaped():
    facts = Facts(env={"NCCL_DEBUG": "INFO\u2028x\u202e\x85"})
    line = snapshot_line(facts)
    assert line.count("\n") == 1 and line.endswith("\n")
    assert "\u2028" not in line and "\u202e" not in line and "\x85" not in line
    assert json.loads(line)["env"]["NCCL_DEBUG"] == "INFO\u2028x\u202e\x85"


def test_the_parser_takes_node_name_and_collect_dash():
    args = build_parser().parse_args(["--collect", "-", "--node-name", "n1"])
    assert args.collect == "-" and args.node_name == "n1"


def test_a_hostile_node_in_a_snapshot_is_inert_in_the_json_report(tmp_path):
    snap = tmp_path / "s.json"
    snap.write_text(json.dumps({"schema": "lingjun-check/snapshot/1", "env": {},
                                "node": {"name": "a\u202eb\x1b[2J", "source": "<b>forged</b>"}}), encoding="utf-8")
    report = json.loads(run_cli("--from", str(snap), "--format", "json").stdout)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert report["node"] == {"name": "a\\u202eb\\x1b[2J", "source": None, "cluster": None}
