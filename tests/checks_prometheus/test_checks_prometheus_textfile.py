"""--format prometheus -o FILE as node-exporter's textfile collector meets it: promtool's lint on every kind of file
we write, one writer per folder, a failed run that replaces the file with metrics saying so, bounded series."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess

import pytest

from checks_prometheus_kit import FIXTURES, SNAPSHOTS, run, samples, snapshot_copy
from lingjun.checks.context import ReleaseMatch
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.report import report_file, textfile
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.render_prometheus import (FAMILIES, MAX_NODE_SERIES, MAX_RULE_SERIES, last_success_time,
                                                     render_prometheus, render_prometheus_failure)

PROMTOOL = shutil.which("promtool")


def _promtool(text: str) -> subprocess.CompletedProcess:
    if PROMTOOL is None:
        if os.environ.get("CI"):
            pytest.fail("promtool is missing in CI (.ci/run installs Debian's prometheus package)")
        pytest.skip("promtool is not installed (Debian: apt-get install prometheus)")
    return subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)


def _kinds(tmp_path, monkeypatch, capsys) -> dict[str, str]:
    """One file of every kind we write: clean, with errors, with GPUs and --include-ids, a host root, a failed run."""
    gpus = snapshot_copy(tmp_path, FIXTURES / "cases" / "C01.json", host_hostname="gpu-node-07",
                         gpu_names=["NVIDIA H20"] * 8)
    kinds = {}
    for name, args in {"errors": ["--from", str(FIXTURES / "cases" / "C04.json")],
                       "gpus-with-ids": ["--from", gpus, "--include-ids"],
                       "host-root": ["--root", str(FIXTURES / "fakeroots" / "proprietary-x86")]}.items():
        _, kinds[name], _ = run(monkeypatch, capsys, *args, "--format", "prometheus")
    kinds["failed-run"] = render_prometheus_failure(3, 1.7e9, 1.69e9)
    kinds["failed-run-never-good"] = render_prometheus_failure(3, 1.7e9, None, hostname="gpu-node-07")
    return kinds


def test_promtool_finds_nothing_in_any_kind_of_file(tmp_path, monkeypatch, capsys):
    for kind, text in _kinds(tmp_path, monkeypatch, capsys).items():
        result = _promtool(text)
        assert (result.returncode, result.stdout + result.stderr) == (0, ""), kind
        assert samples(text)  # and prometheus_client's parser reads it


@pytest.mark.parametrize("snapshot", SNAPSHOTS[::6], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_promtool_finds_nothing_in_real_snapshots(snapshot, monkeypatch, capsys):
    _, out, _ = run(monkeypatch, capsys, "--from", str(snapshot), "--format", "prometheus", "--include-ids")
    result = _promtool(out)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_promtool_flags_a_camel_case_label():
    """The lint this relies on is real: dcgm-exporter's modelName, as written before, is refused."""
    text = "# HELP x_info A GPU.\n# TYPE x_info gauge\nx_info{gpu=\"0\",modelName=\"NVIDIA H20\"} 1\n"
    result = _promtool(text)
    assert result.returncode != 0 and "snake_case" in result.stdout + result.stderr


def test_at_most_ten_rule_series_and_the_totals_count_every_finding():
    findings = [Finding(rule=f"rule.r{i:02}", severity=Severity.error if i % 2 else Severity.warning, area="driver",
                        message=Text("m", "m")) for i in range(30)]
    facts = Facts()
    facts.nvml.gpus = [GpuFacts(index=i, name="NVIDIA H20") for i in range(8)]
    text = render_prometheus(findings, ReleaseMatch(), facts, [f.rule for f in findings], version="v", exit_status=1, now=1.0)
    parsed = samples(text)
    rules = [(s.labels["rule"], s.labels["severity"]) for s in parsed["lingjun_check_findings"]]
    assert len(rules) == MAX_RULE_SERIES == 10
    assert {severity for _, severity in rules} == {"error"}  # errors first: all 15 errors outrank the warnings
    totals = {s.labels["severity"]: s.value for s in parsed["lingjun_check_findings_by_severity"]}
    assert (totals["error"], totals["warning"]) == (15, 15)
    assert sum(len(items) for items in parsed.values()) == MAX_NODE_SERIES + 8 == 28  # 20 + one per GPU


def test_the_families_report_file_recognises_are_the_ones_written():
    assert set(report_file._FAMILY_NAMES) == set(FAMILIES)


def _good(tmp_path, monkeypatch, capsys, name="lingjun.prom") -> str:
    path = tmp_path / name
    code, _, err = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C04.json"), "--format", "prometheus",
                       "-o", str(path))
    assert code == 1, err
    return str(path)


def test_a_failed_run_replaces_the_file_and_keeps_the_time_of_the_last_good_run(tmp_path, monkeypatch, capsys):
    path = _good(tmp_path, monkeypatch, capsys)
    (good,) = samples(open(path).read())["lingjun_check_last_success_timestamp_seconds"]
    code, _, err = run(monkeypatch, capsys, "--from", str(tmp_path / "missing.json"), "--format", "prometheus", "-o", path)
    assert code == 3
    assert "the failed run is recorded in" in err
    parsed = samples(open(path).read())
    assert [s.value for s in parsed["lingjun_check_run_success"]] == [0]
    assert [s.value for s in parsed["lingjun_check_exit_code"]] == [3]
    assert [s.value for s in parsed["lingjun_check_last_success_timestamp_seconds"]] == [good.value]
    assert parsed["lingjun_check_last_run_timestamp_seconds"][0].value >= good.value
    assert "lingjun_check_findings" not in parsed  # the old findings are not served as if current
    # a second failure still carries the last good run
    run(monkeypatch, capsys, "--from", str(tmp_path / "missing.json"), "--format", "prometheus", "-o", path)
    assert [s.value for s in samples(open(path).read())["lingjun_check_last_success_timestamp_seconds"]] == [good.value]


def test_a_failed_first_run_says_no_good_run_is_known(tmp_path, monkeypatch, capsys):
    path = tmp_path / "lingjun.prom"
    code, _, _ = run(monkeypatch, capsys, "--from", str(tmp_path / "missing.json"), "--format", "prometheus", "-o", str(path))
    assert code == 3
    parsed = samples(path.read_text())
    assert [s.value for s in parsed["lingjun_check_run_success"]] == [0]
    assert "lingjun_check_last_success_timestamp_seconds" not in parsed  # not known, never 0


def test_a_failed_run_never_replaces_a_file_that_is_not_ours(tmp_path, monkeypatch, capsys):
    path = tmp_path / "node.prom"
    path.write_text("node_custom_metric 1\n")
    code, _, _ = run(monkeypatch, capsys, "--from", str(tmp_path / "missing.json"), "--format", "prometheus", "-o", str(path))
    assert code == 3 and path.read_text() == "node_custom_metric 1\n"


def test_a_second_writer_waits_for_the_lock_then_gives_up(tmp_path, monkeypatch, capsys):
    path = _good(tmp_path, monkeypatch, capsys)
    before = open(path).read()
    monkeypatch.setattr(textfile, "LOCK_WAIT_S", 0.0)
    holder = os.open(str(tmp_path), os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another run writing into the folder
        code, _, err = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus",
                           "-o", path)
    finally:
        os.close(holder)
    assert code == 3 and "another lingjun-check is writing metrics in" in err
    assert open(path).read() == before  # the holder's file is left to the holder
    code, _, _ = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus", "-o", path)
    assert code in (0, 1) and open(path).read() != before  # released: the next run writes


def test_a_second_file_of_our_metrics_in_the_folder_is_refused(tmp_path, monkeypatch, capsys):
    first = _good(tmp_path, monkeypatch, capsys, "lingjun.prom")
    second = tmp_path / "lingjun-2.prom"
    code, _, err = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus",
                       "-o", str(second))
    assert code == 3 and "would serve both as duplicate series" in err and os.path.basename(first) in err
    assert not second.exists()
    # other exporters' files beside ours are no reason to refuse
    (tmp_path / "node.prom").write_text("node_custom_metric 1\n")
    code, _, err = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus", "-o", first)
    assert code in (0, 1) and "report written to" in err


def test_last_success_time_reads_files_with_and_without_the_family():
    assert last_success_time(render_prometheus_failure(3, 2.0, 1.5)) == 1.5
    assert last_success_time(render_prometheus_failure(3, 2.0, None, hostname="n")) is None
    # a file of an earlier version: its last run was good (exit 1), so its time is the last good run
    old = ("# HELP lingjun_check_exit_code x\n# TYPE lingjun_check_exit_code gauge\nlingjun_check_exit_code{Hostname=\"n\"} 1\n"
           "# HELP lingjun_check_last_run_timestamp_seconds x\n# TYPE lingjun_check_last_run_timestamp_seconds gauge\n"
           "lingjun_check_last_run_timestamp_seconds{Hostname=\"n\"} 1.25e+09\n")
    assert last_success_time(old) == 1.25e9
