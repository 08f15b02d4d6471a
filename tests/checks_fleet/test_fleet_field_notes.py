"""An unusable field of a node's snapshot is named (input, line, field, why) on stderr and in every format."""

from __future__ import annotations

import copy
import io
import json

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))
SAID = "stdin:2: snapshot field shm.size_bytes: -1 is out of range (0 to 9223372036854775807); ignored"


@pytest.fixture(scope="module")
def stdin():
    good = [s for s in fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[:3] if s]
    bad = copy.deepcopy(good[1])
    bad["shm"]["size_bytes"] = -1
    bad["rdma"]["devices"] = "mlx5_0"
    return "".join(json.dumps(d, separators=(",", ":")) + "\n" for d in (good[0], bad, good[2])).encode()


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_the_field_and_why_are_named_everywhere(stdin, capsys, fmt):
    status = main(["-", "--format", fmt, "--lang", "en"], stdin=io.BytesIO(stdin))
    out = capsys.readouterr()
    err = out.err.splitlines()
    assert "lingjun-check fleet: note: " + SAID in err
    assert "lingjun-check fleet: note: stdin:2: snapshot field rdma.devices: expected a list, got a string; ignored" in err
    if fmt == "json":
        report = json.loads(out.out)
        jsonschema.validate(report, SCHEMA)
        assert {"input": "stdin", "line": 2, "pod": None, "where": "stdin:2", "message": SAID.split(": ", 1)[1]} in report["notes"]
        assert report["problems"] == []  # the node was still checked: a note, not an input problem
        assert status == report["exit_code"]
    elif fmt == "text":
        assert "  " + SAID in out.out.splitlines()
    else:
        assert "shm.size_bytes: -1 is out of range" in out.out and "<td>2</td>" in out.out
        # one section of notes, each note once (a second table of them once repeated every row)
        assert out.out.count("<h2>Notes (the exit code is unchanged)</h2>") == 1
        assert out.out.count("shm.size_bytes: -1 is out of range") == 1


def test_a_node_with_many_bad_fields_names_five_and_counts_the_rest(capsys):
    data = fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[0]
    data = dict(data, shm={"size_bytes": -1, "used_bytes": -1, "present": "yes", "fs_type": 3, "host_ipc": "no"},
                limits={"memlock_soft": "x", "nofile_soft": "y"})
    main(["-", "--format", "json"], stdin=io.BytesIO((json.dumps(data) + "\n").encode()))
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert len(notes) == 6
    assert notes[-1]["message"] == "and 2 more unusable snapshot fields"
