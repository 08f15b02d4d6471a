"""A snapshot re-checks as its own pod did: the options that change findings are recorded (``check_options``)
and applied by ``--from`` and ``lingjun-check fleet``; fleet's ``--require-gpu`` applies to every node."""

from __future__ import annotations

import io
import json

import jsonschema
import pytest

import fleet_corpus
from lingjun.checks.cli import main as check_main
from lingjun.checks.fleet._cli import main as fleet_main

FLEET_SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8"))
SNAPSHOT_SCHEMA = json.loads((fleet_corpus.REPO / "checks" / "snapshot.schema.json").read_text(encoding="utf-8"))
ROOT = str(fleet_corpus.FAKEROOTS / "rdma-erdma")  # no NVIDIA driver and no sign a GPU is meant: exit 0, 1 with --require-gpu


def _collect(tmp_path, name: str, *options: str, root: str = ROOT) -> dict:
    """Run ``lingjun-check --root ROOT --collect FILE`` with ``options``; the snapshot as a dict."""
    path = tmp_path / f"{name}.json"
    check_main(["--root", root, "--collect", str(path), "--node-name", name, "--format", "json", "--lang", "en", *options])
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, SNAPSHOT_SCHEMA)
    return data


def _fleet(args, capsys):
    status = fleet_main([*args, "--format", "json", "--lang", "en"], stdin=io.BytesIO(b""))
    out = capsys.readouterr()
    report = json.loads(out.out)
    jsonschema.validate(report, FLEET_SCHEMA)
    return status, report, out.err


def _node(report, name):
    return next(n for n in report["nodes"] if n["name"] == name)


def _driver_present(node) -> list:
    return [f["severity"] for f in node["findings"] if f["rule"] == "driver.present"]


def test_the_snapshot_records_the_options_that_change_findings(tmp_path, capsys):
    data = _collect(tmp_path, "n1", "--require-gpu", "--gpus-per-pod", "4", "--model", "DeepSeek-R1", "--strict")
    capsys.readouterr()
    assert data["check_options"] == {"require_gpu": True, "strict": True, "gpus_per_pod": 4, "release": None, "model": "DeepSeek-R1"}
    plain = _collect(tmp_path, "n2")
    assert plain["check_options"] == {"require_gpu": False, "strict": False, "gpus_per_pod": None, "release": None, "model": None}


def test_fleet_says_error_for_a_node_whose_pod_required_a_gpu(tmp_path, capsys):
    _collect(tmp_path, "gpu-node-a", "--require-gpu")
    _collect(tmp_path, "gpu-node-b")
    capsys.readouterr()
    status, report, _ = _fleet([str(tmp_path)], capsys)
    assert status == 1
    assert _driver_present(_node(report, "gpu-node-a")) == ["error"]
    assert _node(report, "gpu-node-a")["exit_code"] == 1
    assert _node(report, "gpu-node-b")["exit_code"] == 0  # same facts, other options: checked apart, not confused
    assert report["summary"]["checked"] == 2


def test_fleet_require_gpu_applies_to_every_node(tmp_path, capsys):
    _collect(tmp_path, "gpu-node-b")
    capsys.readouterr()
    assert _fleet([str(tmp_path)], capsys)[0] == 0
    status, report, _ = _fleet([str(tmp_path), "--require-gpu"], capsys)
    assert status == 1
    assert _driver_present(_node(report, "gpu-node-b")) == ["error"]


def test_from_rechecks_with_the_recorded_options_and_flags_add_to_them(tmp_path, capsys):
    _collect(tmp_path, "required", "--require-gpu")
    _collect(tmp_path, "plain")
    capsys.readouterr()
    assert check_main(["--from", str(tmp_path / "required.json"), "--format", "json"]) == 1
    assert check_main(["--from", str(tmp_path / "plain.json"), "--format", "json"]) == 0
    assert check_main(["--from", str(tmp_path / "plain.json"), "--format", "json", "--require-gpu"]) == 1


def test_a_snapshot_without_check_options_records_nothing(tmp_path, capsys):
    data = _collect(tmp_path, "old", "--require-gpu")
    del data["check_options"]  # a snapshot written before the key
    (tmp_path / "old.json").write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    status, report, _ = _fleet([str(tmp_path / "old.json")], capsys)
    assert status == 0
    assert _driver_present(_node(report, "old")) == []  # skipped: not listed


def test_a_recorded_strict_makes_its_warnings_exit_2(capsys, tmp_path):
    hostile = str(fleet_corpus.FAKEROOTS / "hostile")  # warnings, no error: exit 0, 2 with --strict
    _collect(tmp_path, "lax", root=hostile)
    _collect(tmp_path, "strict", "--strict", root=hostile)
    capsys.readouterr()
    status, report, _ = _fleet([str(tmp_path / "lax.json")], capsys)
    assert (status, _node(report, "lax")["exit_code"]) == (0, 0)
    assert any(f["severity"] == "warning" for f in _node(report, "lax")["findings"])
    status, report, _ = _fleet([str(tmp_path)], capsys)
    assert status == 2
    assert (_node(report, "lax")["exit_code"], _node(report, "strict")["exit_code"]) == (0, 2)


def test_a_recorded_release_this_data_lacks_is_said_and_the_facts_decide(tmp_path, capsys):
    data = _collect(tmp_path, "n", "--release", "training-nv-pytorch:25.07")
    assert data["check_options"]["release"] == "training-nv-pytorch:25.07"
    capsys.readouterr()
    assert _node(_fleet([str(tmp_path)], capsys)[1], "n")["release"] == "training-nv-pytorch:25.07"
    data["check_options"]["release"] = "training-nv-pytorch:99.99"
    (tmp_path / "n.json").write_text(json.dumps(data), encoding="utf-8")
    status, report, _ = _fleet([str(tmp_path)], capsys)
    node = _node(report, "n")
    assert node["release"] != "training-nv-pytorch:99.99"
    assert ("checker.snapshot", "warning") in [(f["rule"], f["severity"]) for f in node["findings"]]
    status, single = _from_json(tmp_path / "n.json", capsys)
    assert any(f["rule"] == "checker.snapshot" and "check_options.release" in f["observed"] and "99.99" in f["observed"]
               for f in single["findings"])


def _from_json(path, capsys):
    status = check_main(["--from", str(path), "--format", "json", "--lang", "en"])
    return status, json.loads(capsys.readouterr().out)


def test_a_report_that_exited_2_keeps_its_strict_exit(tmp_path, capsys):
    hostile = str(fleet_corpus.FAKEROOTS / "hostile")  # warnings, no error
    for name, extra in (("lax", []), ("strict", ["--strict"])):
        check_main(["--root", hostile, "--node-name", name, "--format", "json", "--lang", "en", "-o", str(tmp_path / f"{name}.json"), *extra])
    capsys.readouterr()
    status, report, _ = _fleet([str(tmp_path)], capsys)
    assert (_node(report, "lax")["exit_code"], _node(report, "strict")["exit_code"], status) == (0, 2, 2)


@pytest.mark.parametrize("recorded", [0, 65, 12345678901234567890123, True])
def test_a_recorded_gpus_per_pod_no_node_can_have_is_dropped(recorded):
    """A hand-edited snapshot's ``gpus_per_pod`` outside 1..64 (or a boolean) is not an option of the re-check."""
    from lingjun.checks.facts import CheckOptionsFacts
    from lingjun.checks.inputs.recorded_options import merged_options

    assert merged_options(CheckOptionsFacts(gpus_per_pod=recorded)).gpus_per_pod is None
    assert merged_options(CheckOptionsFacts(gpus_per_pod=64)).gpus_per_pod == 64
