"""--format prometheus: what prometheus_client's text parser reads back from real snapshots and hostile input."""

from __future__ import annotations

import os
import re

import pytest

from checks_prometheus_kit import FIXTURES, SNAPSHOTS, families, json_report, run, samples, snapshot_copy
from lingjun.checks.context import ReleaseMatch
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.render_prometheus import (LABEL_LIMIT, MAX_NODE_SERIES, MAX_RULE_SERIES, label_value,
                                                     render_prometheus)
from lingjun.checks.runner import CHECKER_RULE_IDS, load_rules

SEVERITIES = ["error", "warning", "info", "ok", "skipped"]
RULE_IDS = [spec.id for spec in load_rules()] + list(CHECKER_RULE_IDS)
NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*\Z")
SNAKE = re.compile(r"[a-z][a-z0-9_]*\Z")


def test_fixtures_are_found():
    assert len(SNAPSHOTS) >= 30
    assert {p.parent.name for p in SNAPSHOTS} == {"cases", "reports", "redteam"}


@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_problem_rules_and_severity_totals_hold_the_reports_counts(snapshot, monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, "--from", str(snapshot), "--format", "prometheus")
    assert code in (0, 1), err
    parsed = samples(out)
    report = json_report(monkeypatch, capsys, "--from", str(snapshot))
    expected: dict = {}
    totals = {severity: 0 for severity in SEVERITIES}
    for finding in report["findings"]:
        totals[finding["severity"]] += 1
        if finding["severity"] in ("error", "warning"):
            key = (finding["rule"], finding["severity"])
            expected[key] = expected.get(key, 0) + 1
    got = {(s.labels["rule"], s.labels["severity"]): s.value for s in parsed.get("lingjun_check_findings", [])}
    assert len(got) == len(parsed.get("lingjun_check_findings", []))  # no series twice
    assert got.items() <= expected.items() and len(got) == min(len(expected), MAX_RULE_SERIES)
    assert {s.labels["severity"]: s.value for s in parsed["lingjun_check_findings_by_severity"]} == totals
    assert [s.value for s in parsed["lingjun_check_exit_code"]] == [code] == [report["exit_code"]]
    assert [s.value for s in parsed["lingjun_check_run_success"]] == [1]
    # only series that carry information: at most 20 a node, plus one a GPU
    gpus = len(parsed.get("lingjun_check_gpu_info", []))
    assert sum(len(items) for items in parsed.values()) - gpus <= MAX_NODE_SERIES == 20
    for family, items in parsed.items():
        assert family.startswith("lingjun_check_") and NAME.match(family)
        for sample in items:
            assert sample.timestamp is None  # the textfile collector refuses sample timestamps
            assert "hostname" not in sample.labels and "uuid" not in sample.labels  # only with --include-ids
            assert all(SNAKE.match(name) for name in sample.labels)


def test_findings_of_a_real_case_are_counted_not_flagged(monkeypatch, capsys):
    # C04: two errors (driver.cuda-compatibility, driver.forward-compat-consumer-gpu); exit 1
    code, out, _ = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C04.json"), "--format", "prometheus")
    parsed = samples(out)
    errors = sorted(s.labels["rule"] for s in parsed["lingjun_check_findings"] if s.labels["severity"] == "error" and s.value)
    assert errors == ["driver.cuda-compatibility", "driver.forward-compat-consumer-gpu"]
    assert code == 1 and parsed["lingjun_check_exit_code"][0].value == 1
    (info,) = parsed["lingjun_check_info"]
    assert info.value == 1
    assert info.labels == {"version": "0.1.0", "release": "", "release_how": "none", "origin": "snapshot", "driver_version": "440.33.01"}


def test_a_fixed_problem_leaves_its_series_and_its_total_drops(monkeypatch, capsys):
    # C04 has the error, C10 not: the rule's series goes (Prometheus marks it stale, an alert on it resolves), and
    # the error total, written whatever the run found, says how many errors are left
    parsed = {}
    for case in ("C04", "C10"):
        _, out, _ = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / f"{case}.json"), "--format", "prometheus")
        parsed[case] = samples(out)
    rules = {case: {(s.labels["rule"], s.labels["severity"]) for s in p.get("lingjun_check_findings", [])} for case, p in parsed.items()}
    assert ("driver.cuda-compatibility", "error") in rules["C04"] and ("driver.cuda-compatibility", "error") not in rules["C10"]
    for case, p in parsed.items():
        assert {s.labels["severity"] for s in p["lingjun_check_findings_by_severity"]} == set(SEVERITIES), case


def test_help_and_type_lines_are_fixed_whatever_the_language(monkeypatch, capsys):
    snapshot = str(FIXTURES / "cases" / "C01.json")  # one GPU: every family present
    _, en, _ = run(monkeypatch, capsys, "--from", snapshot, "--format", "prometheus", "--lang", "en")
    _, zh, _ = run(monkeypatch, capsys, "--from", snapshot, "--format", "prometheus", "--lang", "zh")
    meta = [line for line in en.splitlines() if line.startswith("#")]
    assert meta == [line for line in zh.splitlines() if line.startswith("#")]
    assert {f.name: f.type for f in families(en).values() if f.name != "lingjun_check_findings"} == {
        f"lingjun_check_{name}": "gauge" for name in ("run_success", "exit_code", "last_run_timestamp_seconds",
                                                      "last_success_timestamp_seconds", "findings_by_severity", "info", "gpu_info")}
    assert all(f.documentation for f in families(en).values())


def test_gpu_series_use_snake_case_labels_and_hostname_only_with_include_ids(tmp_path, monkeypatch, capsys):
    path = snapshot_copy(tmp_path, FIXTURES / "cases" / "C01.json", host_hostname="gpu-node-07",
                         gpu_names=["NVIDIA H20", "NVIDIA H20"])
    _, plain, _ = run(monkeypatch, capsys, "--from", path, "--format", "prometheus")
    gpus = samples(plain)["lingjun_check_gpu_info"]
    assert [s.labels for s in gpus] == [{"gpu": "0", "model_name": "NVIDIA H20"}, {"gpu": "1", "model_name": "NVIDIA H20"}]
    assert "gpu-node-07" not in plain and "hostname" not in plain
    _, with_ids, _ = run(monkeypatch, capsys, "--from", path, "--format", "prometheus", "--include-ids")
    parsed = samples(with_ids)
    for family, items in parsed.items():
        assert all(s.labels["hostname"] == "gpu-node-07" for s in items), family
    assert [s.labels["gpu"] for s in parsed["lingjun_check_gpu_info"]] == ["0", "1"]


def test_hostname_label_is_the_node_name_when_known(tmp_path, monkeypatch, capsys):
    """In a pod without hostNetwork the host name is the pod's name; the node is what dcgm-exporter's Hostname names."""
    path = snapshot_copy(tmp_path, FIXTURES / "cases" / "C01.json", host_hostname="lingjun-check-3-x7k2p")
    _, by_option, _ = run(monkeypatch, capsys, "--from", path, "--format", "prometheus", "--include-ids", "--node-name", "cn-wulanchabu.10.0.0.7")
    assert {s.labels["hostname"] for items in samples(by_option).values() for s in items} == {"cn-wulanchabu.10.0.0.7"}
    monkeypatch.setenv("NODE_NAME", "gpu-node-07")
    _, live, _ = run(monkeypatch, capsys, "--root", str(FIXTURES / "fakeroots" / "proprietary-x86"), "--format", "prometheus",
                     "--include-ids")
    assert {s.labels["hostname"] for items in samples(live).values() for s in items} == {"gpu-node-07"}
    _, by_host, _ = run(monkeypatch, capsys, "--from", path, "--format", "prometheus", "--include-ids")
    assert {s.labels["hostname"] for items in samples(by_host).values() for s in items} == {"lingjun-check-3-x7k2p"}


def test_time_of_the_run_is_now(monkeypatch, capsys):
    import time

    before = time.time()
    _, out, _ = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus")
    after = time.time()
    (stamp,) = samples(out)["lingjun_check_last_run_timestamp_seconds"]
    assert before <= stamp.value <= after


HOSTILE = [
    'quote " and backslash \\ end',
    "line\nbreak\r\nand ESC \x1b[31mred",
    "\x1b]0;pwned\x07NVIDIA H100 \u202eevil",
    "C1 \x9b2J and DEL \x7f",
    "lone surrogate \udcff from undecodable bytes",
    "trailing backslash \\",
    "}} \"} 1\nlingjun_check_exit_code 0\n",
    "H" * 1000,
    "中文 GPU 名称",
]


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_values_parse_back_as_one_inert_label(value):
    facts = Facts()
    facts.origin = "snapshot"
    facts.nvml.driver_version = value
    facts.nvml.gpus = [GpuFacts(index=0, name=value)]
    release = ReleaseMatch(ref=value, how="env")
    findings = [Finding(rule="driver.minimum", severity=Severity.error, area="driver", message=Text(value, value), observed=value)]
    text = render_prometheus(findings, release, facts, ["driver.minimum"], version="0.1.0", exit_status=1, now=1.5e9,
                             hostname=value, gpu_uuids=True)
    text.encode("utf-8")  # strict: the file is valid UTF-8
    parsed = samples(text)
    assert [s.value for s in parsed["lingjun_check_exit_code"]] == [1]  # nothing forged a sample
    assert len(parsed["lingjun_check_findings"]) == 1  # the one error; OK, info and skipped write no rule series
    (info,) = parsed["lingjun_check_info"]
    (gpu,) = parsed["lingjun_check_gpu_info"]
    for shown in (info.labels["release"], info.labels["driver_version"], gpu.labels["model_name"], gpu.labels["hostname"]):
        assert not re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]", shown)
        assert len(shown) <= LABEL_LIMIT + len("… (10000 more characters)")
    if value.isprintable() and len(value) <= LABEL_LIMIT:
        assert gpu.labels["model_name"] == value  # printable text comes back exactly
    assert all(line.startswith(("# HELP lingjun_check_", "# TYPE lingjun_check_", "lingjun_check_")) for line in text.splitlines())
    assert {s.labels["rule"] for s in parsed["lingjun_check_findings"]} == {"driver.minimum"}  # the message is no label


def test_messages_and_remedies_never_become_labels():
    facts = Facts()
    message = Text("a free-form message 12345", "自由文本")
    findings = [Finding(rule="driver.minimum", severity=Severity.warning, area="driver", message=message,
                        remedy=Text("upgrade the driver", "升级驱动"), observed="535.104", expected=">= 550")]
    text = render_prometheus(findings, ReleaseMatch(), facts, [], version="0.1.0", exit_status=0, now=0.0)
    for word in ("free-form", "自由文本", "upgrade", "535.104", ">= 550"):
        assert word not in text
    assert samples(text)["lingjun_check_findings"][0].labels == {"rule": "driver.minimum", "severity": "warning"}
    assert "lingjun_check_gpu_info" not in text  # no GPU seen: no GPU family (not a series of zeros)


def test_label_value_escapes_what_the_format_requires():
    assert label_value('a"b\\c') == 'a\\"b\\\\c'
    assert label_value("a\nb") == "a\\\\nb"  # made inert first (visible \n), then its backslash escaped
    assert label_value(None) == ""
    assert label_value("x" * 200).startswith("x" * LABEL_LIMIT + "… (72 more characters)")


def test_include_ids_adds_gpu_uuid_only_when_known():
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=0, name="NVIDIA H20", uuid="GPU-1234"), GpuFacts(index=1, name="NVIDIA H20")]
    text = render_prometheus([], ReleaseMatch(), facts, [], version="v", exit_status=0, now=0.0, gpu_uuids=True)
    assert [s.labels for s in samples(text)["lingjun_check_gpu_info"]] == [
        {"gpu": "0", "model_name": "NVIDIA H20", "uuid": "GPU-1234"}, {"gpu": "1", "model_name": "NVIDIA H20"}]
    text = render_prometheus([], ReleaseMatch(), facts, [], version="v", exit_status=0, now=0.0)
    assert "GPU-1234" not in text


@pytest.mark.parametrize("root", ["proprietary-x86", "rdma-roce-bond", "mig-smi"])
def test_a_run_on_a_host_root_parses_too(root, monkeypatch, capsys):
    # --root is how the node-level monitors run (NPD, a textfile writer on the host); origin "live"
    for name in [n for n in os.environ if n.startswith(("NCCL_", "CUDA_", "NVIDIA_"))]:
        monkeypatch.delenv(name)
    code, out, err = run(monkeypatch, capsys, "--root", str(FIXTURES / "fakeroots" / root), "--format", "prometheus")
    assert code in (0, 1), err
    parsed = samples(out)
    report = json_report(monkeypatch, capsys, "--root", str(FIXTURES / "fakeroots" / root))
    totals = {severity: 0 for severity in SEVERITIES}
    for finding in report["findings"]:
        totals[finding["severity"]] += 1
    assert {s.labels["severity"]: s.value for s in parsed["lingjun_check_findings_by_severity"]} == totals
    assert parsed["lingjun_check_info"][0].labels["origin"] == "live"
    assert parsed["lingjun_check_exit_code"][0].value == code
