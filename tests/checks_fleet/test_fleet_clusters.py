"""Several clusters: nodes of one name in two clusters stay two nodes, the report groups and compares the clusters,
and a cluster name is checked where it is given and escaped wherever it is shown."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))
COUNT = 12
FAKEROOT = str(fleet_corpus.FAKEROOTS / "proprietary-x86")


@pytest.fixture(scope="module")
def two_clusters() -> bytes:
    """One `kubectl logs --prefix` stream of two clusters' Jobs: the same node and pod names in both, cluster b on
    another driver."""
    base = fleet_corpus.base_snapshot()
    lines = []
    for cluster, snapshot in (("prod-a", base), ("prod-b", fleet_corpus._other_driver(base))):
        snaps = fleet_corpus.node_snapshots(COUNT, base=snapshot)
        for s in snaps:
            s["node"] = dict(s["node"], cluster=cluster, cluster_source="LINGJUN_CLUSTER")
        lines += fleet_corpus.kubectl_log_lines(snaps)
    return ("\n".join(lines) + "\n").encode("utf-8")


def _fleet(stream: bytes, *args: str, capsys) -> "tuple[int, str, str]":
    code = main(["-", *args], stdin=io.BytesIO(stream))
    out, err = capsys.readouterr()
    return code, out, err


def test_nodes_of_one_name_in_two_clusters_stay_apart(two_clusters, capsys):
    code, out, err = _fleet(two_clusters, "--format", "json", capsys=capsys)
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert report["summary"]["nodes"] == 2 * COUNT and report["summary"]["clusters"] == 2
    assert report["notes"] == [] and report["problems"] == [] and "retried" not in err
    labels = [n["label"] for n in report["nodes"]]
    assert labels[0] == "prod-a/gpu-node-0000" and labels[COUNT] == "prod-b/gpu-node-0000" and len(set(labels)) == 2 * COUNT
    assert [n["cluster"] for n in report["nodes"]] == ["prod-a"] * COUNT + ["prod-b"] * COUNT
    assert [(c["name"], c["nodes"]) for c in report["clusters"]] == [("prod-a", COUNT), ("prod-b", COUNT)]
    driver = next(f for f in report["facts_between_clusters"] if f["id"] == "driver.version")
    assert [(e["cluster"], e["majority"]["value"], e["majority"]["count"]) for e in driver["clusters"]] == [
        ("prod-a", fleet_corpus.BASE_DRIVER, COUNT - 3), ("prod-b", fleet_corpus.OTHER_DRIVER, COUNT)]
    assert all(f["id"] != "shm.size" for f in report["facts_between_clusters"])  # one outlier each: majorities agree
    whole = next(f for f in report["facts"] if f["id"] == "driver.version")
    assert "prod-b/gpu-node-0003" in whole["groups"][0]["nodes"]  # lists name the cluster too
    assert code == 1


def test_one_cluster_name_repeated_is_still_a_retried_pod(two_clusters, capsys):
    first = two_clusters.split(b"\n")[0]
    code, out, err = _fleet(first + b"\n" + first.replace(b"lingjun-check-0-x7k2p", b"lingjun-check-0-retry") + b"\n",
                            "--format", "json", capsys=capsys)
    report = json.loads(out)
    assert report["summary"]["nodes"] == 1 and report["summary"]["clusters"] == 1
    assert "of cluster 'prod-a' is given 2 times with the same facts" in report["notes"][0]["message"]
    assert report["nodes"][0]["label"] == "gpu-node-0000"  # one cluster: names as before


def test_text_and_html_group_and_compare_the_clusters(two_clusters, capsys):
    _, text, _ = _fleet(two_clusters, capsys=capsys)
    assert "Clusters (2)" in text and f"  prod-b: {COUNT} nodes, exit code 1" in text
    between = text.split("Facts that differ between clusters", 1)[1]
    assert f"    prod-a: {fleet_corpus.BASE_DRIVER} ({COUNT - 3} of {COUNT})" in between
    assert f"    prod-b: {fleet_corpus.OTHER_DRIVER} ({COUNT} of {COUNT})" in between
    _, page, _ = _fleet(two_clusters, "--format", "html", "--lang", "zh", capsys=capsys)
    assert "<h2>集群之间不一致的事实</h2>" in page and "<th><code>prod-b</code></th>" in page
    assert f"<td><code>{fleet_corpus.OTHER_DRIVER}</code> ({COUNT} 个中 {COUNT} 个)</td>" in page


def test_a_recorded_cluster_that_is_no_name_is_a_problem_escaped_everywhere(capsys):
    snaps = fleet_corpus.node_snapshots(COUNT, base=fleet_corpus.base_snapshot())[:2]
    snaps[0]["node"] = dict(snaps[0]["node"], cluster='<img src=x onerror="1">\u202e\x1b[2J')
    stream = ("\n".join(fleet_corpus.kubectl_log_lines(snaps)) + "\n").encode("utf-8")
    code, page, err = _fleet(stream, "--format", "html", capsys=capsys)
    assert code == 1
    assert "is not a cluster name (it must start with a letter or digit)" in err and "\x1b" not in err and "\u202e" not in err
    assert "<img" not in page and "&lt;img src=x onerror=&quot;1&quot;&gt;" in page and "\x1b" not in page and "\u202e" not in page
    code, out, _ = _fleet(stream, "--format", "json", capsys=capsys)
    report = json.loads(out)
    assert report["summary"]["clusters"] == 2 and report["nodes"][0]["cluster"].startswith("<img src=x") and "\\u202e" in report["nodes"][0]["cluster"]
    assert len(report["nodes"][0]["cluster"]) <= 63
    code, text, _ = _fleet(stream, capsys=capsys)
    assert "\x1b" not in text and "\u202e" not in text


def test_fleet_cluster_names_the_inputs_that_record_none(capsys):
    snaps = fleet_corpus.node_snapshots(COUNT, base=fleet_corpus.base_snapshot())[:2]
    snaps[1]["node"] = dict(snaps[1]["node"], cluster="prod-b")
    stream = ("\n".join(fleet_corpus.kubectl_log_lines(snaps)) + "\n").encode("utf-8")
    _, out, _ = _fleet(stream, "--format", "json", "--cluster", "old-a", capsys=capsys)
    assert [n["label"] for n in json.loads(out)["nodes"]] == ["old-a/gpu-node-0000", "prod-b/gpu-node-0001"]
    code, out, err = _fleet(stream, "--cluster", "a b", capsys=capsys)
    assert code == 3 and out == ""
    assert err == "lingjun-check fleet: --cluster 'a b': not a cluster name: only letters, digits and . _ : - are allowed\n"


def _check(monkeypatch, capsys, *args: str, env: "dict | None" = None) -> "tuple[int, str, str]":
    """``lingjun-check --root FAKEROOT ARGS`` in this process, with ``env`` as its only NODE_NAME / LINGJUN_CLUSTER."""
    from lingjun.checks.cli import main as check

    for name in ("LINGJUN_CLUSTER", "NODE_NAME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    code = check(["--root", FAKEROOT, *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("value, reason", [("", None), ("a/b", "only letters, digits and . _ : - are allowed"),
                                           (".a", "it must start with a letter or digit"), ("x" * 64, "64 characters, more than 63")])
def test_lingjun_check_refuses_a_cluster_that_is_no_name_in_one_line(monkeypatch, capsys, value, reason):
    code, out, err = _check(monkeypatch, capsys, "--collect", "-", "--cluster", value)
    assert code == 3 and out == ""
    if reason is None:
        assert err == "lingjun-check: --cluster: an empty value names no file or value\n"
    else:
        assert err == f"lingjun-check: --cluster {value!r}: not a cluster name: {reason}\n"


def test_lingjun_check_refuses_a_lingjun_cluster_variable_that_is_no_name(monkeypatch, capsys):
    code, out, err = _check(monkeypatch, capsys, "--format", "json", env={"LINGJUN_CLUSTER": "<b>\u202e"})
    assert (code, out) == (3, "")
    assert err == "lingjun-check: LINGJUN_CLUSTER '<b>\\u202e': not a cluster name: it must start with a letter or digit\n"


def test_the_cluster_is_recorded_in_snapshot_and_report_and_kept_by_from(monkeypatch, capsys, tmp_path):
    _, out, err = _check(monkeypatch, capsys, "--collect", "-", "--format", "json", env={"LINGJUN_CLUSTER": "集群-1", "NODE_NAME": "n1"})
    snapshot = json.loads(out.splitlines()[0])
    assert snapshot["node"] == {"name": "n1", "source": "NODE_NAME", "cluster": "集群-1", "cluster_source": "LINGJUN_CLUSTER"}
    assert json.loads(err)["node"]["cluster"] == "集群-1"
    path = tmp_path / "snap.json"
    path.write_text(out.splitlines()[0], encoding="utf-8")
    _, kept, _ = _check(monkeypatch, capsys, "--from", str(path), "--format", "json", env={"LINGJUN_CLUSTER": "elsewhere"})
    assert json.loads(kept)["node"]["cluster"] == "集群-1"  # the snapshot's, not this shell's
    _, renamed, _ = _check(monkeypatch, capsys, "--from", str(path), "--format", "json", "--cluster", "prod-c")
    assert json.loads(renamed)["node"]["cluster"] == "prod-c"
