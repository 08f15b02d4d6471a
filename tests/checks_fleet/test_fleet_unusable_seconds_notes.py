"""fleet names each snapshot's own unusable probe time (red team F9): snapshots that differ only in an unusable
``seconds`` are not one fingerprint, so no node is named with another's value and none goes unnamed."""

from __future__ import annotations

import copy
import json

import pytest

import fleet_corpus
from lingjun.checks.fleet._check import text_fingerprint
from lingjun.checks.fleet._cli import main


def _fleet(capsys, *args: str) -> str:
    capsys.readouterr()
    main(list(args))
    out, err = capsys.readouterr()
    return out + err


@pytest.mark.parametrize("first, second", [(int("9" * 400), -1), (-1, int("9" * 400))])
def test_each_snapshot_is_named_with_its_own_unusable_value(tmp_path, capsys, first, second):
    base = fleet_corpus.node_snapshots(1)[0]
    for name, value in (("a", first), ("b", second)):
        snap = copy.deepcopy(base)
        snap["probes"][0]["seconds"] = value
        (tmp_path / f"{name}.json").write_text(json.dumps(snap))
    out = _fleet(capsys, str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    digits = "a number of 400 digits is not a usable value"
    negative = "-1.0 is out of range"
    assert f"a.json: snapshot field probes[0].seconds: {digits if first != -1 else negative}" in out
    assert f"b.json: snapshot field probes[0].seconds: {digits if second != -1 else negative}" in out


def test_an_unusable_value_after_a_clean_snapshot_is_named(tmp_path, capsys):
    base = fleet_corpus.node_snapshots(1)[0]
    (tmp_path / "good.json").write_text(json.dumps(base))
    bad = json.dumps(base).replace('"seconds": ' + json.dumps(base["probes"][0]["seconds"]), '"seconds": 1e999', 1)
    (tmp_path / "inf.json").write_text(bad)
    out = _fleet(capsys, str(tmp_path / "good.json"), str(tmp_path / "inf.json"))
    assert "inf.json: snapshot field probes[0].seconds" in out


def test_usable_probe_times_still_share_one_fingerprint():
    assert text_fingerprint('{"probes": [{"seconds": 0.0013}]}') == text_fingerprint('{"probes": [{"seconds": 2.5e-05}]}')
    assert text_fingerprint('{"probes": [{"seconds": 0.0013}]}') != text_fingerprint('{"probes": [{"seconds": -1}]}')
