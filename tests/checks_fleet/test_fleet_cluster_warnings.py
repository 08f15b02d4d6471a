"""What the inputs claim about their cluster, when it looks wrong: a cluster left at the manifests' placeholder
(``LINGJUN_CLUSTER=my-cluster``) and two inputs that claim one cluster and give one node name with different facts.
Each is one warning naming the inputs, in the report's language, in every format; the exit code is unchanged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

import fleet_corpus
from lingjun.checks.core.cluster_name import PLACEHOLDER_CLUSTER
from lingjun.checks.fleet._cli import main

SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))
KUBERNETES = fleet_corpus.REPO / "deploy" / "kubernetes"
COUNT = 12


def _snapshots(cluster: "str | None", base: "dict | None" = None) -> "list[dict]":
    snaps = fleet_corpus.node_snapshots(COUNT, base=base or fleet_corpus.base_snapshot())
    if cluster is not None:
        for s in snaps:
            s["node"] = dict(s["node"], cluster=cluster, cluster_source="LINGJUN_CLUSTER")
    return snaps


def _other(snaps: "list[dict]") -> "list[dict]":
    """The same nodes with other facts (another /dev/shm in use on every one): another cluster's nodes of those names."""
    return [dict(s, shm=dict(s["shm"], used_bytes=12345)) for s in snaps]


def _stream(snaps: "list[dict]") -> bytes:
    return ("\n".join(fleet_corpus.kubectl_log_lines(snaps)) + "\n").encode("utf-8")


def _log(path: Path, snaps: "list[dict]") -> str:
    path.write_bytes(_stream(snaps))
    return str(path)


def _fleet(args: "list[str]", capsys, stdin: "bytes | None" = None) -> "tuple[int, str, str]":
    code = main(args, stdin=io.BytesIO(stdin) if stdin is not None else None)
    out, err = capsys.readouterr()
    return code, out, err


def _json(args: "list[str]", capsys, stdin: "bytes | None" = None) -> "tuple[int, dict, str]":
    code, out, err = _fleet([*args, "--format", "json"], capsys, stdin)
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert report["exit_code"] == code
    return code, report, err


def test_the_placeholder_is_the_value_the_manifests_ship():
    for name in ("lingjun-check-job.yaml", "lingjun-check-job-acs.yaml", "lingjun-check-daemonset.yaml"):
        (container,) = yaml.safe_load((KUBERNETES / name).read_text(encoding="utf-8"))["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["LINGJUN_CLUSTER"] == PLACEHOLDER_CLUSTER, name


def test_a_placeholder_cluster_is_one_warning_naming_the_input(capsys):
    code, report, err = _json(["-"], capsys, _stream(_snapshots(PLACEHOLDER_CLUSTER)))
    (warning,) = report["warnings"]
    assert warning["inputs"] == ["stdin"] and warning["input"] == "stdin" and warning["line"] is None
    assert warning["message"].startswith(f"cluster 'my-cluster' of {COUNT} nodes is the placeholder LINGJUN_CLUSTER "
                                         "of the manifests in deploy/kubernetes/")
    assert "set LINGJUN_CLUSTER to this cluster's name" in warning["message"]
    # one line on standard error, as every problem and note
    warned = [line for line in err.splitlines() if "warning: " in line]
    assert warned == [f"lingjun-check fleet: warning: stdin: {warning['message']}"]
    # a warning, not a problem: the exit code and the problems are those of the same fleet under a real name
    named_code, named, _ = _json(["-"], capsys, _stream(_snapshots("prod-a")))
    assert named["warnings"] == [] and (code, report["problems"]) == (named_code, named["problems"])
    assert report["summary"]["inputs_with_problems"] == named["summary"]["inputs_with_problems"]


def test_the_warning_is_in_the_text_and_html_reports_in_either_language(capsys):
    stream = _stream(_snapshots(PLACEHOLDER_CLUSTER))
    _, text, _ = _fleet(["-"], capsys, stream)
    section = text.split("Warnings about the inputs (the exit code is unchanged) (1)\n", 1)[1].splitlines()[0]
    assert section.startswith("  stdin: cluster 'my-cluster' of 12 nodes is the placeholder LINGJUN_CLUSTER")
    _, text, _ = _fleet(["-", "--lang", "zh"], capsys, stream)
    section = text.split("关于输入的警告（不影响退出码） (1)\n", 1)[1].splitlines()[0]
    assert section.startswith("  stdin: 12 个节点的集群 'my-cluster' 是 deploy/kubernetes/ 中清单的占位值 LINGJUN_CLUSTER")
    _, report, _ = _json(["-", "--lang", "zh"], capsys, stream)
    assert "占位值" in report["warnings"][0]["message"]
    _, page, _ = _fleet(["-", "--format", "html"], capsys, stream)
    assert "<h2>Warnings about the inputs (the exit code is unchanged)</h2>" in page and "<th>Warning</th>" in page
    assert "is the placeholder LINGJUN_CLUSTER" in page


def test_two_inputs_claiming_one_cluster_with_clashing_nodes_are_one_warning(tmp_path, capsys):
    a = _log(tmp_path / "a.log", _snapshots("prod-a"))
    b = _log(tmp_path / "b.log", _other(_snapshots("prod-a")))
    code, report, err = _json([a, b], capsys)
    (warning,) = report["warnings"]
    assert warning["inputs"] == [a, b] and warning["input"] == f"{a}, {b}"
    assert warning["message"] == ("2 inputs claim cluster 'prod-a' and give 12 node names with different facts "
                                  "('gpu-node-0000', 'gpu-node-0001', 'gpu-node-0002' … (+9)): two clusters recorded under "
                                  "one name? give each cluster its own LINGJUN_CLUSTER; these nodes are reported as "
                                  "'NAME (input)'")
    assert err.count("warning: ") == 1
    # beside the problems each clashing name already is (exit 1), and the nodes are all kept
    assert code == 1 and report["summary"]["nodes"] == 2 * COUNT
    assert sum("is given by 2 inputs with different facts" in p["message"] for p in report["problems"]) == COUNT
    _, report, _ = _json([a, b, "--lang", "zh"], capsys)
    assert report["warnings"][0]["message"].startswith("2 个输入都声明属于集群 'prod-a'，其中 12 个节点名的事实不同（")


def test_two_folders_are_named_by_the_folders_and_a_placeholder_by_both(tmp_path, capsys):
    first, second = tmp_path / "cluster-a", tmp_path / "cluster-b"
    fleet_corpus.write_files(first / "snapshots" / PLACEHOLDER_CLUSTER, _snapshots(PLACEHOLDER_CLUSTER))
    fleet_corpus.write_files(second / "snapshots" / PLACEHOLDER_CLUSTER, _other(_snapshots(PLACEHOLDER_CLUSTER)))
    _, report, _ = _json([str(first), str(second)], capsys)
    placeholder, clash = report["warnings"]
    assert placeholder["inputs"] == clash["inputs"] == [str(first), str(second)]  # the folders given, not 24 files
    assert f"of {2 * COUNT} nodes is the placeholder" in placeholder["message"]
    assert clash["message"].startswith("2 inputs claim cluster 'my-cluster' and give 12 node names")


@pytest.mark.parametrize("case", ["retried within one log", "same facts in two logs", "two named clusters", "no cluster"])
def test_no_warning_where_nothing_looks_wrong(case, tmp_path, capsys):
    if case == "retried within one log":  # one file: a node whose facts changed between two runs, a problem only
        snaps = _snapshots("prod-a")
        args = [_log(tmp_path / "a.log", snaps + _other(snaps[:1]))]
    elif case == "same facts in two logs":  # a retried pod collected twice: a note only
        args = [_log(tmp_path / "a.log", _snapshots("prod-a")), _log(tmp_path / "b.log", _snapshots("prod-a"))]
    elif case == "two named clusters":  # the same node names in two clusters: two nodes each, as they should be
        args = [_log(tmp_path / "a.log", _snapshots("prod-a")),
                _log(tmp_path / "b.log", _other(_snapshots("prod-b")))]
    else:  # snapshots that record no cluster: nothing is claimed
        args = [_log(tmp_path / "a.log", _snapshots(None)), _log(tmp_path / "b.log", _other(_snapshots(None)))]
    _, report, err = _json(args, capsys)
    assert report["warnings"] == [] and "warning: " not in err
