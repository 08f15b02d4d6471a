"""Fleet reads snapshots with the JSON rules of --from (lingjun.checks.inputs.snapshot_json): a 5,000-digit number
drops its one field, not the node; a key repeated in one object is refused naming the key, in fleet and in --from."""

from __future__ import annotations

import io
import json

import pytest

import fleet_corpus
from lingjun.checks.cli import main as check_main
from lingjun.checks.fleet._cli import main as fleet_main
from lingjun.checks.inputs.snapshot_json import DuplicateKeyError, LongNumber, loads


@pytest.fixture(scope="module")
def snapshots():
    """Three node snapshots (gpu-node-0000 ... 0002) as JSON text, one per line."""
    base = fleet_corpus.base_snapshot()
    return [json.dumps(s, separators=(",", ":")) for s in fleet_corpus.node_snapshots(12, base=base)[:3]]


def _fleet(capsys, lines: list[str]):
    status = fleet_main(["-", "--format", "json", "--lang", "en"], stdin=io.BytesIO(("\n".join(lines) + "\n").encode()))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return status, json.loads(out.out), [line for line in out.err.splitlines() if line]


def _with_long_number(text: str) -> str:
    data = json.loads(text)
    data["shm"]["size_bytes"] = "LONG"
    return json.dumps(data, separators=(",", ":")).replace('"LONG"', "9" * 5000)


def test_a_5000_digit_number_drops_its_field_not_the_node(snapshots, capsys):
    status, report, err = _fleet(capsys, [snapshots[0], _with_long_number(snapshots[1]), snapshots[2]])
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0001", "gpu-node-0002"]
    assert not any("set_int_max_str_digits" in line or "cut short" in line for line in err), err
    assert not any("set_int_max_str_digits" in p["message"] for p in report["problems"])


def test_a_repeated_key_refuses_the_snapshot_naming_the_key_in_fleet(snapshots, capsys):
    twice = snapshots[1][:-1] + ',"node":{"name":"other-node"}}'  # "node" is already a member
    status, report, err = _fleet(capsys, [snapshots[0], twice, snapshots[2]])
    assert status == 1
    assert [n["name"] for n in report["nodes"]] == ["gpu-node-0000", "gpu-node-0002"]
    assert err == ["lingjun-check fleet: stdin:2: the key 'node' appears twice in one object; skipped"]


def test_a_repeated_key_refuses_the_snapshot_in_from_too(snapshots, tmp_path, capsys):
    path = tmp_path / "snap.json"
    path.write_text(snapshots[0][:-1] + ',"shm":{}}', encoding="utf-8")
    assert check_main(["--from", str(path), "--format", "json"]) == 3
    assert capsys.readouterr().err == f"lingjun-check: {path}: not a snapshot: the key 'shm' appears twice in one object\n"


def test_the_shared_reader_keeps_long_numbers_as_text_and_finds_nested_repeats():
    value = loads('{"a": [1, ' + "7" * 5000 + '], "b": {"c": 1}}')
    assert isinstance(value["a"][1], LongNumber) and repr(value["a"][1]) == "a number of 5000 digits"
    with pytest.raises(DuplicateKeyError) as caught:
        loads('{"a": {"c": 1, "c": 2}}')
    assert caught.value.key == "c"
