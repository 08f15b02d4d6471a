"""-o/--output FILE: the report written atomically, replacing only an earlier report of ours."""

from __future__ import annotations

import json
import os

import pytest

from checks_prometheus_kit import FIXTURES, run, samples
from hostile_paths import HOSTILE_OUTPUT_KINDS, node_state
from lingjun.checks.report import report_file

SNAPSHOT = str(FIXTURES / "cases" / "C04.json")
FORMATS = ["text", "json", "prometheus", "npd"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_goes_to_the_file_and_nothing_to_stdout(fmt, tmp_path, monkeypatch, capsys):
    target = tmp_path / "lingjun_check.prom"
    code, out, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", fmt, "--output", str(target))
    _, expected, _ = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", fmt)
    assert code == 1 and out == ""
    assert err == f"lingjun-check: report written to {target}\n"
    written = target.read_text(encoding="utf-8")
    if fmt == "prometheus":  # the time of the run differs; the rest is the same
        assert [ln for ln in written.splitlines() if "timestamp_seconds " not in ln] == \
               [ln for ln in expected.splitlines() if "timestamp_seconds " not in ln]
        assert samples(written)["lingjun_check_exit_code"][0].value == 1
    elif fmt == "json":
        assert {k: v for k, v in json.loads(written).items() if k != "generated_at"} == \
               {k: v for k, v in json.loads(expected).items() if k != "generated_at"}
    else:
        assert written == expected
    assert os.listdir(tmp_path) == ["lingjun_check.prom"]  # no temporary file left
    assert oct(os.stat(target).st_mode & 0o777) == "0o644"


@pytest.mark.parametrize("before", FORMATS)
@pytest.mark.parametrize("after", FORMATS)
def test_an_earlier_report_of_any_format_is_replaced(before, after, tmp_path, monkeypatch, capsys):
    target = str(tmp_path / "report")
    assert run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", before, "-o", target)[0] == 1
    assert report_file.is_previous_report(target)
    code, _, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", after, "-o", target)
    assert code == 1, err
    _, expected, _ = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", after)
    assert open(target, encoding="utf-8").read().splitlines()[0] == expected.splitlines()[0]


@pytest.mark.parametrize("kind", sorted(HOSTILE_OUTPUT_KINDS))
def test_every_target_that_is_not_a_new_or_regular_file_is_refused(kind, hostile_node, monkeypatch, capsys):
    path = hostile_node(kind)
    before = node_state(path)
    code, out, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", "prometheus", "--output", path)
    assert code == 3 and out == ""
    assert err.count("\n") == 1 and err.startswith("lingjun-check: --output")
    assert HOSTILE_OUTPUT_KINDS[kind] in err
    assert node_state(path) == before


FOREIGN = {
    "a note": "precious\n",
    "a snapshot --collect wrote": None,  # made by the test
    "a Prometheus file of another exporter": "# HELP node_cpu_seconds_total x\n# TYPE node_cpu_seconds_total counter\n",
    "a line that only looks like a status": "OK\n",
    "a text starting like ours but not a report": "lingjun-check is great\n",
    "a long file starting with an npd-like line": "OK lingjun-check: 0 errors\n" + "more\n" * 2000,
    "binary": "\x00\x01\x02",
}


@pytest.mark.parametrize("what", sorted(FOREIGN))
def test_a_file_that_is_not_an_earlier_report_is_never_replaced(what, tmp_path, monkeypatch, capsys):
    path = str(tmp_path / "target.prom")
    if FOREIGN[what] is None:
        assert run(monkeypatch, capsys, "--from", SNAPSHOT, "--collect", path)[0] == 1
    else:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(FOREIGN[what])
    before = node_state(path)
    code, out, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", "prometheus", "--output", path)
    assert code == 3 and out == ""
    assert err == (f"lingjun-check: --output {path}: cannot write: exists and is not a lingjun-check report; only a new "
                   "file or a lingjun-check report is replaced: remove it or choose another name\n")
    assert node_state(path) == before
    # for node-problem-detector the refusal is an Unknown result with its reason on stdout
    code, out, _ = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", "npd", "--output", path)
    assert code == 2 and out.startswith(f"UNKNOWN lingjun-check: --output {path[:20]}")
    assert node_state(path) == before


def test_refused_before_anything_is_probed(tmp_path, monkeypatch, capsys):
    from lingjun.checks.probes import _collect

    def probed(*args, **kwargs):  # pragma: no cover - the test fails if it runs
        raise AssertionError("probed before refusing --output")

    monkeypatch.setattr(_collect, "collect", probed)
    target = tmp_path / "folder"
    target.mkdir()
    code, _, err = run(monkeypatch, capsys, "--output", str(target))
    assert code == 3 and "is a folder" in err


def test_a_missing_folder_and_the_collect_file_are_refused_up_front(tmp_path, monkeypatch, capsys):
    code, _, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "-o", str(tmp_path / "no" / "x.prom"))
    assert code == 3 and err.endswith("cannot write: its folder does not exist\n")
    same = str(tmp_path / "same.json")
    code, _, err = run(monkeypatch, capsys, "--from", SNAPSHOT, "-o", same, "--collect", same)
    assert code == 3 and "names the same file as --collect" in err
    assert not os.path.exists(same)


def test_a_failed_rename_keeps_the_previous_report(tmp_path, monkeypatch, capsys):
    target = tmp_path / "lingjun_check.prom"
    run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", "prometheus", "-o", str(target))
    previous = target.read_bytes()

    def refuse(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    code, _, err = run(monkeypatch, capsys, "--from", str(FIXTURES / "cases" / "C01.json"), "--format", "prometheus", "-o", str(target))
    assert code == 3 and err.endswith("cannot write: No space left on device\n")
    assert target.read_bytes() == previous
    assert os.listdir(tmp_path) == ["lingjun_check.prom"]


def test_dash_is_standard_output(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(monkeypatch, capsys, "--from", SNAPSHOT, "--format", "npd", "--output", "-")
    assert code == 1 and out.startswith("ERROR driver.cuda-compatibility: ")
    assert os.listdir(tmp_path) == []


def test_undecodable_text_is_written_as_replacement(tmp_path):
    target = str(tmp_path / "r.prom")
    report_file.write_report(target, "# HELP lingjun_check_x y\nlingjun_check_x{a=\"\udcff\"} 1\n")
    assert open(target, encoding="utf-8").read().endswith('{a="?"} 1\n')
