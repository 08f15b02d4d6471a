"""A simulated fleet of 2,000 nodes with injected outliers: fleet names exactly those nodes, in text, JSON and HTML."""

from __future__ import annotations

import io
import json
import re

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

COUNT = 2000
SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))
NODE = re.compile(r"gpu-node-\d{4}")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    """(folder of one snapshot per node, the kubectl-logs stream as bytes, the injected outliers)."""
    snapshots = fleet_corpus.node_snapshots(COUNT)
    folder = tmp_path_factory.mktemp("fleet")
    fleet_corpus.write_files(folder / "snapshots", snapshots)
    stream = ("\n".join(fleet_corpus.kubectl_log_lines(snapshots)) + "\n").encode("utf-8")
    return folder, stream, fleet_corpus.outlier_names(COUNT)


def _expected(outliers: dict) -> dict:
    """The facts that must differ and their outliers."""
    return {
        "driver.version": outliers["driver"], "driver.branch": outliers["driver"], "driver.cuda": outliers["driver"],
        "torch.version": outliers["torch"], "shm.size": outliers["shm"],
        "rdma.devices": outliers["no_rdma"], "rdma.active_ports": outliers["no_rdma"], "rdma.verbs_devices": outliers["no_rdma"],
    }


def _all(outliers: dict) -> set:
    return {name for names in outliers.values() for name in names}


def test_json_names_exactly_the_injected_outliers_and_validates(fleet, capsys):
    folder, _, outliers = fleet
    assert main([str(folder / "snapshots"), "--format", "json"]) == 1  # the base image carries error findings
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, SCHEMA)
    assert report["summary"]["nodes"] == COUNT and report["problems"] == []
    differing = {f["id"]: f for f in report["facts"] if f["status"] != "agree"}
    expected = _expected(outliers)
    assert set(differing) == set(expected)
    for fact_id, names in expected.items():
        fact = differing[fact_id]
        assert fact["status"] == "differ" and fact["outliers"] == names, fact_id
        assert fact["majority"]["count"] == COUNT - len(names) and fact["unknown"] == []
    assert {f["id"]: f["majority"]["value"] for f in report["facts"]}["shm.size"] == 16 * 1024 ** 3
    shm = differing["shm.size"]
    assert shm["groups"][1]["value"] == fleet_corpus.SMALL_SHM and shm["groups"][1]["display"] == "64 MiB"
    assert {f["id"]: f["majority"]["value"] for f in report["facts"]}["env.NCCL_IB_HCA"] == "mlx5"
    # five distinct sets of facts (base + four kinds of outlier): the rules ran five times, not 2,000
    assert report["summary"]["checked"] == 5
    by_rule = {(r["rule"], r["severity"]): r["nodes"] for r in report["rules"]}
    assert by_rule[("container.shm-size", "error")] == outliers["shm"]
    assert by_rule[("driver.cuda-compatibility", "warning")] == outliers["driver"]


def test_text_from_a_kubectl_logs_stream_names_exactly_the_outliers(fleet, capsys):
    _, stream, outliers = fleet
    assert main(["-", "--lang", "en"], stdin=io.BytesIO(stream)) == 1
    out = capsys.readouterr()
    assert out.err == ""  # the text report lines in the log are skipped quietly
    text = out.out
    assert text.startswith(f"lingjun-check fleet: {COUNT} nodes, exit code 1\n")
    section = text.split("\nFacts that differ\n", 1)[1].split("\nFacts that agree\n", 1)[0]
    assert set(NODE.findall(section)) == _all(outliers)
    assert "535.161.08: 3 nodes: " + ", ".join(outliers["driver"]) in section
    assert "outliers (" not in section  # one other value: its group line names the outliers, once
    assert "64 MiB: 1 node: " + outliers["shm"][0] in section


def test_html_names_exactly_the_outliers_and_loads_nothing(fleet, tmp_path, capsys):
    folder, _, outliers = fleet
    target = tmp_path / "fleet.html"
    assert main([str(folder / "snapshots"), "--format", "html", "--output", str(target), "--lang", "zh"]) == 1
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="zh-CN">' in page and "不一致的事实" in page
    section = page.split("<h2>不一致的事实</h2>", 1)[1].split("<h2>", 1)[0]
    assert set(NODE.findall(section)) == _all(outliers)
    assert "<script" not in page and "src=" not in page and "href=" not in page and "@import" not in page
    assert "report written to" in capsys.readouterr().err
