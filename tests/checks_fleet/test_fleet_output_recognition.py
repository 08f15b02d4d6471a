"""--output replaces only a file that is, as a whole, our own output of one format (fleet and the main command):
a file that merely starts like one (a saved error log, a hand-written .prom) is refused and left as it was."""

from __future__ import annotations

import io

import pytest

import fleet_corpus
from lingjun.checks.cli import main as check_main
from lingjun.checks.fleet._cli import main as fleet_main
from lingjun.checks.fleet._output import is_previous_fleet_output
from lingjun.checks.report.report_file import is_previous_report

SNAPSHOT = str(fleet_corpus.REPO / "tests" / "fixtures" / "cases" / "C01.json")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("fleet-in")
    fleet_corpus.write_files(path, [s for s in fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[:3] if s])
    return path


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_each_fleet_format_replaces_a_previous_fleet_report(folder, tmp_path, capsys, fmt):
    target = tmp_path / "fleet.out"
    fleet_main([str(folder), "--format", fmt, "-o", str(target), "--lang", "en"], stdin=io.BytesIO(b""))
    assert is_previous_fleet_output(str(target))
    status = fleet_main([str(folder), "--format", fmt, "-o", str(target), "--lang", "zh"], stdin=io.BytesIO(b""))
    capsys.readouterr()
    assert status in (0, 1) and is_previous_fleet_output(str(target))


@pytest.mark.parametrize("content", [
    "lingjun-check fleet: internal error: AttributeError: boom\n",                       # a saved error log
    "lingjun-check fleet: 3 nodes, exit code 1\n  my notes about the fleet\n",             # title line, not the structure
    '{"schema": "lingjun-check/fleet/1"} and then my notes\n',                             # our key, not one JSON object
    '{"schema": "lingjun-check/report/1", "x": 1}\n',                                      # another of our schemas
    '<!DOCTYPE html><html><body><meta name="generator" content="lingjun-check fleet">my page</body></html>\n',
    '<!DOCTYPE html><html><head><meta name="generator" content="lingjun-check fleet"></head><body>cut short',
])
def test_a_file_that_only_starts_like_a_fleet_report_is_kept(folder, tmp_path, capsys, content):
    target = tmp_path / "keep.txt"
    target.write_text(content, encoding="utf-8")
    status = fleet_main([str(folder), "-o", str(target)], stdin=io.BytesIO(b""))
    err = capsys.readouterr().err
    assert status == 3
    assert "exists and is not a lingjun-check fleet report" in err
    assert target.read_text(encoding="utf-8") == content


@pytest.mark.parametrize("fmt", ["text", "json", "prometheus", "npd"])
def test_each_report_format_replaces_a_previous_report(tmp_path, capsys, fmt):
    target = tmp_path / "report.out"
    check_main(["--from", SNAPSHOT, "--format", fmt, "-o", str(target), "--no-color"])
    assert is_previous_report(str(target)), target.read_text(encoding="utf-8")[:300]
    check_main(["--from", SNAPSHOT, "--format", fmt, "-o", str(target), "--no-color", "--lang", "zh"])
    capsys.readouterr()
    assert is_previous_report(str(target))


@pytest.mark.parametrize("content", [
    "# HELP lingjun_check_findings my own alert rules\nup{job=\"node\"} 1\n",             # a hand-written .prom
    "# HELP lingjun_check_findings x\n# TYPE lingjun_check_findings gauge\nrm -rf /\n",
    "lingjun-check 0.1.0  (facts: live)\nmy notes, not a report\n",                        # our header, not our structure
    '{"schema": "lingjun-check/report/1"\n',                                               # cut short
    '{"schema": "lingjun-check/fleet/1"}\n',                                               # a fleet report is not a report
])
def test_a_file_that_only_starts_like_a_report_is_kept(tmp_path, capsys, content):
    target = tmp_path / "node.prom"
    target.write_text(content, encoding="utf-8")
    status = check_main(["--from", SNAPSHOT, "--format", "prometheus", "-o", str(target)])
    err = capsys.readouterr().err
    assert status == 3
    assert "exists and is not a lingjun-check report" in err
    assert target.read_text(encoding="utf-8") == content
