"""fleet and the main command agree on output options (-o, --output -) and on a closed standard output."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("fleet-in")
    fleet_corpus.write_files(path, [s for s in fleet_corpus.node_snapshots(12, base=fleet_corpus.base_snapshot())[:3] if s])
    return path


def test_output_dash_is_standard_output(folder, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status = main([str(folder), "--format", "json", "--output", "-"], stdin=io.BytesIO(b""))
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert (status, report["summary"]["nodes"], report["problems"]) == (report["exit_code"], 3, [])
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_short_o_writes_the_file(folder, tmp_path, capsys):
    target = tmp_path / "fleet.json"
    status = main([str(folder), "--format", "json", "-o", str(target)], stdin=io.BytesIO(b""))
    out = capsys.readouterr()
    report = json.loads(target.read_text(encoding="utf-8"))
    assert (status, out.out, report["summary"]["nodes"]) == (report["exit_code"], "", 3)
    assert out.err == f"lingjun-check fleet: report written to {target}\n"


@pytest.mark.parametrize("args, said", [
    (["fleet", "{folder}"], "lingjun-check fleet: cannot write the report: standard output is closed; give --output FILE\n"),
    (["--format", "json"], "lingjun-check: cannot write the report: standard output is closed; give --output FILE\n"),
])
def test_a_closed_standard_output_is_one_line_and_exit_3(folder, args, said):
    words = " ".join(f"'{a.format(folder=folder)}'" for a in args)
    script = f"import sys; from lingjun.checks.cli import main; sys.exit(main([{', '.join(repr(a.format(folder=folder)) for a in args)}]))"
    done = subprocess.run(["sh", "-c", 'exec "$0" -c "$1" >&-', sys.executable, script], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (3, said), words
