"""Bad fleet input: one clear line naming the input (and line), the other nodes still reported, no traceback."""

from __future__ import annotations

import io
import json
import os

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.fleet import _inputs
from lingjun.checks.fleet._cli import main

SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def snapshots():
    """Four plain node snapshots (gpu-node-0000 ... 0003), no outliers."""
    base = fleet_corpus.base_snapshot()
    return [dict(s) for s in fleet_corpus.node_snapshots(12, base=base)[:4] if s]


def _line(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"))


def _run(args, capsys, stdin: bytes = b""):
    status = main([*args, "--format", "json", "--lang", "en"], stdin=io.BytesIO(stdin))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    report = json.loads(out.out) if out.out else None
    if report is not None:
        jsonschema.validate(report, SCHEMA)
    return status, report, [line for line in out.err.splitlines() if line]


def test_a_truncated_line_is_named_and_the_other_nodes_are_reported(snapshots, capsys):
    lines = [_line(s) for s in snapshots[:3]]
    lines.insert(2, _line(snapshots[3])[:5000])  # cut short: a log rotated mid-line
    status, report, err = _run(["-"], capsys, ("\n".join(lines) + "\n").encode())
    assert status == 1
    assert len(err) == 1 and err[0].startswith("lingjun-check fleet: stdin:3: not a complete JSON object (cut short?)")
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0001", "gpu-node-0002"]
    assert report["problems"] == [{"input": "stdin", "line": 3, "pod": None, "where": "stdin:3", "message": report["problems"][0]["message"]}]


READ_ANYWAY = "schema: expected 'lingjun-check/snapshot/1', got 'lingjun-check/snapshot/2'; reading it anyway"


def test_another_snapshot_version_is_read_as_from_reads_it_with_one_note_naming_the_file(snapshots, tmp_path, capsys):
    """A newer checker's snapshot (``lingjun-check/snapshot/2``) is read, as ``--from`` reads it: one note naming the
    file, and the node's ``checker.snapshot`` warning; the exit code is the one the nodes give."""
    (tmp_path / "new.json").write_text(json.dumps(dict(snapshots[0], schema="lingjun-check/snapshot/2")), encoding="utf-8")
    (tmp_path / "ok.json").write_text(json.dumps(snapshots[1]), encoding="utf-8")
    (tmp_path / "ok0.json").write_text(json.dumps(snapshots[0]), encoding="utf-8")
    alone, _, _ = _run([str(tmp_path / "ok0.json"), str(tmp_path / "ok.json")], capsys)
    status, report, err = _run([str(tmp_path / "new.json"), str(tmp_path / "ok.json")], capsys)
    assert status == alone and report["problems"] == []
    assert err == [f"lingjun-check fleet: note: {tmp_path / 'new.json'}: snapshot field {READ_ANYWAY}"]
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0001"]
    warned = {n["name"] for n in report["nodes"] if any(f["rule"] == "checker.snapshot" for f in n["findings"])}
    assert warned == {"gpu-node-0000"}  # the version-1 node, of the same facts but its node, warns of nothing


def test_another_snapshot_version_warns_in_fleet_as_in_from(snapshots, tmp_path, capsys):
    from lingjun.checks import cli

    new = tmp_path / "new.json"
    new.write_text(json.dumps(dict(snapshots[0], schema="lingjun-check/snapshot/2")), encoding="utf-8")
    cli.main(["--from", str(new), "--format", "json"])
    from_report = json.loads(capsys.readouterr().out)
    [warning] = [f for f in from_report["findings"] if f["rule"] == "checker.snapshot"]
    _, report, _ = _run([str(new)], capsys)
    [node] = report["nodes"]
    assert warning["observed"] == READ_ANYWAY and report["notes"][0]["message"] == f"snapshot field {READ_ANYWAY}"
    assert [f["severity"] for f in node["findings"] if f["rule"] == "checker.snapshot"] == [warning["severity"]] == ["warning"]


def test_another_snapshot_version_in_a_stream_is_read_and_one_cut_short_is_a_problem(snapshots, capsys):
    newer = _line(dict(snapshots[0], schema="lingjun-check/snapshot/2"))
    cut = _line(dict(snapshots[1], schema="lingjun-check/snapshot/2"))[:4000]
    status, report, err = _run(["-"], capsys, (newer + "\n" + cut + "\n").encode())
    assert status == 1 and [n["name"] for n in report["nodes"]] == ["gpu-node-0000"]
    assert [p["where"] for p in report["problems"]] == ["stdin:2"]
    assert report["problems"][0]["message"].startswith("not a complete JSON object (cut short?)")
    assert sorted(err) == [f"lingjun-check fleet: note: stdin:1: snapshot field {READ_ANYWAY}",
                           f"lingjun-check fleet: stdin:2: {report['problems'][0]['message']}"]


def test_another_report_version_is_refused_by_name(snapshots, tmp_path, capsys):
    (tmp_path / "new.json").write_text(json.dumps({"schema": "lingjun-check/report/2", "findings": []}), encoding="utf-8")
    (tmp_path / "ok.json").write_text(json.dumps(snapshots[1]), encoding="utf-8")
    status, report, err = _run([str(tmp_path / "new.json"), str(tmp_path / "ok.json")], capsys)
    assert status == 1
    assert err == [f"lingjun-check fleet: {tmp_path / 'new.json'}: schema 'lingjun-check/report/2' is not supported: this lingjun-check "
                   "reads lingjun-check/snapshot/1 and lingjun-check/report/1 (use the lingjun-check that wrote it, or collect again)"]
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0001"]


def test_two_inputs_with_one_node_name_and_different_facts_are_both_reported_and_named(snapshots, tmp_path, capsys):
    other = json.loads(json.dumps(snapshots[0]))
    other["nvml"]["driver_version"] = fleet_corpus.OTHER_DRIVER
    for name, data in (("a.json", snapshots[0]), ("b.json", other), ("c.json", snapshots[1])):
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    status, report, err = _run([str(tmp_path)], capsys)
    assert status == 1
    a, b = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    assert len(err) == 1 and f"node name 'gpu-node-0000' is given by 2 inputs with different facts ({a}, {b})" in err[0]
    assert [n["name"] for n in report["nodes"]] == [f"gpu-node-0000 ({a})", f"gpu-node-0000 ({b})", "gpu-node-0001"]
    assert report["notes"] == []


def test_a_retried_pod_with_the_same_facts_counts_once_with_a_note(snapshots, tmp_path, capsys):
    retry = dict(snapshots[0], collected_at="2026-11-30T00:05:00Z")  # the same node, later, the same facts
    for name, data in (("a.json", snapshots[0]), ("b.json", retry), ("c.json", snapshots[1])):
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    a, b, c = str(tmp_path / "a.json"), str(tmp_path / "b.json"), str(tmp_path / "c.json")
    alone, _, _ = _run([a, c], capsys)  # the exit code of the two nodes without the retry
    status, report, err = _run([str(tmp_path)], capsys)
    assert status == alone and report["exit_code"] == alone
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0001"]
    assert report["summary"]["nodes"] == 2 and report["problems"] == [] and report["summary"]["inputs_with_problems"] == 0
    assert len(report["notes"]) == 1 and f"({a}, {b}); counted once, as {a}" in report["notes"][0]["message"]
    assert err == [f"lingjun-check fleet: note: {a}: {report['notes'][0]['message']}"]


def test_stream_messages_name_the_pod_of_the_kubectl_prefix(snapshots, capsys):
    lines = [f"[pod/lingjun-check-0-abcde/check] {_line(snapshots[0])}",
             f"[pod/lingjun-check-0-fghij/check] {_line(snapshots[0])}",  # the retried pod of node 0
             f"[pod/lingjun-check-1-klmno/check] {_line(snapshots[1])[:300]}"]  # cut short
    status, report, err = _run(["-"], capsys, ("\n".join(lines) + "\n").encode())
    assert status == 1
    assert report["problems"][0]["where"] == "pod/lingjun-check-1-klmno (stdin:3)"
    assert report["problems"][0]["pod"] == "lingjun-check-1-klmno"
    assert "(pod/lingjun-check-0-abcde (stdin:1), pod/lingjun-check-0-fghij (stdin:2)); counted once" in report["notes"][0]["message"]
    assert [n["input"] for n in report["nodes"]] == ["pod/lingjun-check-0-abcde (stdin:1)"]
    assert any(line.startswith("lingjun-check fleet: pod/lingjun-check-1-klmno (stdin:3): not a complete JSON object") for line in err)


def test_an_empty_folder_is_a_problem_and_alone_exits_3(snapshots, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "one.json").write_text(json.dumps(snapshots[2]), encoding="utf-8")
    status, report, err = _run([str(empty), str(tmp_path / "one.json")], capsys)
    assert status == 1 and err == [f"lingjun-check fleet: {empty}: folder without *.json, *.jsonl or *.log files"]
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0002"]
    status, report, err = _run([str(empty)], capsys)
    assert status == 3 and report is None
    assert err == [f"lingjun-check fleet: {empty}: folder without *.json, *.jsonl or *.log files",
                   "lingjun-check fleet: no readable node in the inputs"]


def test_non_json_binary_and_missing_inputs(snapshots, tmp_path, capsys):
    (tmp_path / "notes.json").write_text("this is not JSON\nat all\n", encoding="utf-8")
    (tmp_path / "junk.log").write_bytes(os.urandom(4096).replace(b"{", b"("))
    (tmp_path / "other.json").write_text('{"kind": "something else"}', encoding="utf-8")
    (tmp_path / "ok.json").write_text(json.dumps(snapshots[0]), encoding="utf-8")
    status, report, err = _run([str(tmp_path / "notes.json"), str(tmp_path / "junk.log"), str(tmp_path / "other.json"),
                                str(tmp_path / "missing.json"), str(tmp_path / "ok.json")], capsys)
    assert status == 1
    assert err[0] == f"lingjun-check fleet: {tmp_path / 'notes.json'}: no lingjun-check snapshot or report in it (2 lines read)"
    assert err[1].startswith(f"lingjun-check fleet: {tmp_path / 'junk.log'}: no lingjun-check snapshot or report in it (")
    assert err[2] == (f"lingjun-check fleet: {tmp_path / 'other.json'}: a JSON object that is not a lingjun-check snapshot or report "
                      '(no "schema": "lingjun-check/...")')
    assert err[3] == f"lingjun-check fleet: {tmp_path / 'missing.json'}: no such file or folder"
    assert len(err) == 4 and [n["name"] for n in report["nodes"]] == ["gpu-node-0000"]


def test_a_line_over_the_limit_is_refused_without_being_kept(snapshots, capsys, monkeypatch):
    monkeypatch.setattr(_inputs, "MAX_LINE_BYTES", 64 * 1024)
    huge = '{"schema": "lingjun-check/snapshot/1", "pad": "' + "x" * (200 * 1024) + '"}'
    stream = "\n".join([_line(snapshots[0]), huge, _line(snapshots[1])]) + "\n"
    status, report, err = _run(["-"], capsys, stream.encode())
    assert status == 1 and err == ["lingjun-check fleet: stdin:2: line longer than 65536 bytes; skipped"]
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0001"]


def test_the_default_line_limit_is_16_mib():
    assert _inputs.MAX_LINE_BYTES == 16 * 1024 * 1024


def test_hostile_node_names_and_values_are_inert_in_every_format(snapshots, tmp_path, capsys):
    evil = "n\x1b[31m<script>alert(1)</script>\u202egnp.exe\r\nFAKE"
    bad = dict(snapshots[1], node={"name": evil, "source": "NODE_NAME"},
               env=dict(snapshots[1]["env"], NCCL_IB_HCA="<img src=x onerror=alert(1)>\x1b]0;t\x07\u2066"))
    stream = ("\n".join([_line(snapshots[0]), _line(bad), _line(snapshots[2])]) + "\n").encode()
    for fmt in ("text", "json", "html"):
        status = main(["-", "--format", fmt, "--lang", "en"], stdin=io.BytesIO(stream))
        out = capsys.readouterr().out
        assert status == 1
        for raw in ("\x1b", "\u202e", "\u2066", "\x07", "\r"):
            assert raw not in out, (fmt, raw)
        if fmt == "html":
            assert "<script>" not in out and "<img" not in out and "&lt;script&gt;" in out
        if fmt == "json":
            report = json.loads(out)
            names = [n["name"] for n in report["nodes"]]
            assert names[1] == evil  # the JSON text escapes ESC, RLO, CR, LF as \\u escapes: it reads back as given
            hca = next(f for f in report["facts"] if f["id"] == "env.NCCL_IB_HCA")
            assert hca["outliers"] == [names[1]]
        if fmt == "text":
            assert "\nFAKE" not in out


def test_json_lines_saved_as_a_json_file_are_read_as_a_stream(snapshots, tmp_path, capsys):
    path = tmp_path / "all.json"  # kubectl logs -l app=lingjun-check > all.json
    path.write_text("\n".join([_line(snapshots[0]), "lingjun-check 0.1.0  (facts: live)", _line(snapshots[3])]) + "\n", encoding="utf-8")
    status, report, err = _run([str(path)], capsys)
    assert err == [] and [(n["name"], n["input"]) for n in report["nodes"]] == [("gpu-node-0000", f"{path}:1"), ("gpu-node-0003", f"{path}:3")]
