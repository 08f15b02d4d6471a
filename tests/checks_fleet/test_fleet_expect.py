"""``fleet --expect N``: a missing (or extra) node is a problem in every format; counts read "1 node"."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("expect")
    fleet_corpus.write_files(path, fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[:3])
    return path


def _run(args, capsys):
    status = main([*args, "--lang", "en"], stdin=io.BytesIO(b""))
    return status, capsys.readouterr()


def test_missing_nodes_are_a_problem_in_json_text_and_html(folder, capsys):
    status, out = _run([str(folder), "--format", "json", "--expect", "5"], capsys)
    report = json.loads(out.out)
    jsonschema.validate(report, SCHEMA)
    assert status == 1 and report["exit_code"] == 1
    assert report["summary"]["expected"] == 5 and report["summary"]["nodes"] == 3
    assert report["problems"] == [{"input": "--expect", "line": None, "pod": None, "where": "--expect",
                                   "message": report["problems"][0]["message"]}]
    assert report["problems"][0]["message"].startswith("5 nodes expected, 3 read: 2 missing")
    assert "--expect: 5 nodes expected, 3 read: 2 missing" in out.err
    status, out = _run([str(folder), "--expect", "5"], capsys)
    assert status == 1
    assert "  5 nodes expected (--expect)" in out.out
    assert "--expect: 5 nodes expected, 3 read: 2 missing" in out.out
    status, out = _run([str(folder), "--format", "html", "--expect", "5"], capsys)
    assert status == 1 and "5 nodes expected, 3 read: 2 missing" in out.out and "Nodes expected (--expect): 5" in out.out


def test_the_expected_count_is_no_problem_and_more_nodes_are(folder, capsys):
    alone, out = _run([str(folder), "--format", "json"], capsys)
    assert json.loads(out.out)["summary"]["expected"] is None
    status, out = _run([str(folder), "--format", "json", "--expect", "3"], capsys)
    assert status == alone and json.loads(out.out)["problems"] == []
    status, out = _run([str(folder), "--format", "json", "--expect", "2"], capsys)
    assert status == 1 and json.loads(out.out)["problems"][0]["message"].startswith("2 nodes expected, 3 read: 1 more than expected")


def test_expect_below_1_is_a_usage_error(folder, capsys):
    status, out = _run([str(folder), "--expect", "0"], capsys)
    assert status == 3 and "--expect must be between 1 and 100,000" in out.err


@pytest.mark.parametrize("value", ["100001", "1" + "0" * 22])
def test_expect_beyond_what_clusters_reach_is_a_usage_error(folder, capsys, value):
    status, out = _run([str(folder), "--expect", value], capsys)
    assert status == 3 and "--expect must be between 1 and 100,000" in out.err and value not in out.out


def test_expect_at_its_bound_is_read(folder, capsys):
    status, out = _run([str(folder), "--format", "json", "--expect", "100000"], capsys)
    assert status == 1 and "100000 nodes expected, 3 read" in json.loads(out.out)["problems"][0]["message"]


def test_one_node_reads_1_node(folder, capsys):
    first = sorted(folder.iterdir())[0]
    _, out = _run([str(first)], capsys)
    assert out.out.splitlines()[0].startswith("lingjun-check fleet: 1 node, exit code")
    main([str(first), "--lang", "zh"], stdin=io.BytesIO(b""))
    assert capsys.readouterr().out.splitlines()[0].startswith("lingjun-check fleet：1 个节点，退出码")
    _, out = _run([str(first), "--format", "html"], capsys)
    assert "1 nodes" not in out.out


@pytest.mark.parametrize("value", ["٣", "８", "3.0", "+3", ""])
def test_expect_takes_ascii_digits_only(tmp_path, capsys, value):
    """Red team: int() takes Arabic-Indic and full-width digits; a count on a command line is written in ASCII."""
    fleet_corpus.write_files(tmp_path, fleet_corpus.node_snapshots(3, base=fleet_corpus.base_snapshot()))
    try:
        status = main([str(tmp_path), "--expect", value])
    except SystemExit as exc:
        status = exc.code
    assert status == 3
    assert "argument --expect: invalid int value" in capsys.readouterr().err
