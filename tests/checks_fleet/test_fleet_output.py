"""fleet --output never replaces what it did not write; reports as inputs; exit codes; the zipapp runs fleet."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import fleet_corpus
from hostile_paths import HOSTILE_OUTPUT_KINDS, node_state
from lingjun.checks.fleet._cli import main


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A folder with three node snapshots: gpu-node-0000 and 0001 alike, 0002 with a 64 MiB /dev/shm (an error)."""
    snaps = fleet_corpus.node_snapshots(12)
    folder = tmp_path_factory.mktemp("nodes")
    fleet_corpus.write_files(folder, [snaps[0], snaps[3], snaps[8]])  # 8 = 2*12//3: the small /dev/shm
    return folder


def test_output_replaces_only_a_previous_fleet_report(inputs, tmp_path, capsys):
    target = tmp_path / "fleet.json"
    assert main([str(inputs), "--format", "json", "--output", str(target)]) == 1
    first = json.loads(target.read_text(encoding="utf-8"))
    assert first["schema"] == "lingjun-check/fleet/1" and first["summary"]["nodes"] == 3
    for fmt in ("html", "text", "json"):  # each format recognises a previous report of any format
        assert main([str(inputs), "--format", fmt, "--output", str(target)]) == 1
    readme = tmp_path / "README.md"
    readme.write_text("# mine\n", encoding="utf-8")
    capsys.readouterr()
    assert main([str(inputs), "--output", str(readme)]) == 3
    assert readme.read_text(encoding="utf-8") == "# mine\n"
    assert "exists and is not a lingjun-check fleet report" in capsys.readouterr().err


@pytest.mark.parametrize("kind", sorted(HOSTILE_OUTPUT_KINDS))
def test_output_refuses_every_hostile_path(kind, inputs, hostile_node, capsys):
    path = hostile_node(kind)
    before = node_state(path)
    assert main([str(inputs), "--output", path]) == 3
    assert node_state(path) == before
    err = capsys.readouterr().err
    assert err.startswith("lingjun-check fleet: --output ") and len(err.splitlines()) == 1


def test_reports_are_inputs_and_what_they_do_not_show_is_not_known(inputs, tmp_path, capsys):
    sys.path.insert(0, str(fleet_corpus.REPO / "tests" / "checks_core"))
    from checks_core_helpers import run_cli

    report = tmp_path / "r.json"
    result = run_cli("--from", str(inputs / "gpu-node-0000.json"), "--format", "json", "--node-name", "from-report")
    report.write_text(result.stdout, encoding="utf-8")
    assert main([str(inputs), str(report), "--format", "json"]) == 1
    fleet = json.loads(capsys.readouterr().out)
    node = fleet["nodes"][-1]
    assert node["name"] == "from-report" and node["kind"] == "report" and node["release"] == "training-nv-pytorch:25.07"
    facts = {f["id"]: f for f in fleet["facts"]}
    assert facts["driver.version"]["status"] == "agree" and "from-report" not in facts["driver.version"]["unknown"]
    assert facts["shm.size"]["unknown"] == ["from-report"] and facts["shm.size"]["outliers"] == ["gpu-node-0008"]
    assert facts["env.NCCL_IB_HCA"]["unknown"] == ["from-report"] and facts["env.NCCL_IB_HCA"]["status"] == "agree"


def test_exit_codes_follow_the_worst_node_and_strict(inputs, tmp_path, capsys):
    clean = fleet_corpus.base_snapshot()
    clean["distributions"] = [d for d in clean["distributions"] if d["name"].lower() != "deepspeed"]
    folder = tmp_path / "clean"
    fleet_corpus.write_files(folder, fleet_corpus.node_snapshots(12, base=clean)[3:5])
    status = main([str(folder), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["nodes_with_errors"] == 0 and report["summary"]["nodes_with_warnings"] == 2
    assert status == 0 and main([str(folder), "--strict", "--format", "json"]) == 2
    capsys.readouterr()
    assert main([str(inputs)]) == 1  # a node with errors
    assert main(["--format", "yaml", str(inputs)]) == 3  # usage error
    assert main([str(inputs), "--release", "no-such:99.99"]) == 3


def test_fleet_runs_in_the_zipapp_and_is_not_imported_by_a_plain_check(inputs, checker_pyz):
    pyz = checker_pyz
    run = subprocess.run([sys.executable, "-I", str(pyz), "fleet", str(inputs), "--format", "json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert [n["name"] for n in json.loads(run.stdout)["nodes"]] == ["gpu-node-0000", "gpu-node-0003", "gpu-node-0008"]
    probe = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(pyz)!r}); "
                            f"from lingjun.checks.cli import main; main(['--from', {str(inputs / 'gpu-node-0000.json')!r}]); "
                            "print(sorted(m for m in sys.modules if 'fleet' in m))"], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[-1] == "[]"


def test_a_tie_has_no_majority_in_every_format(tmp_path, capsys):
    import jsonschema

    snaps = fleet_corpus.node_snapshots(12)
    fleet_corpus.write_files(tmp_path, [snaps[0], snaps[1]])  # 1 is on the other driver: one node each
    assert main([str(tmp_path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    jsonschema.validate(report, json.loads((fleet_corpus.REPO / "checks" / "fleet.schema.json").read_text(encoding="utf-8")))
    driver = next(f for f in report["facts"] if f["id"] == "driver.version")
    assert driver["status"] == "tie" and driver["majority"] is None and driver["outliers"] == []
    assert [(g["value"], g["nodes"]) for g in driver["groups"]] == [("535.161.08", ["gpu-node-0001"]), ("570.124.06", ["gpu-node-0000"])]
    main([str(tmp_path), "--lang", "en"])
    text = capsys.readouterr().out
    assert "NVIDIA driver version [driver.version]: no majority: 2 values share the most nodes" in text
    assert "    570.124.06: 1 node: gpu-node-0000" in text and "    535.161.08: 1 node: gpu-node-0001" in text
    main([str(tmp_path), "--format", "html", "--lang", "en"])
    page = capsys.readouterr().out
    section = page.split('<h3 id="fact-driver.version">', 1)[1].split("</table>", 1)[0]
    assert "no majority (tie)" in section and "gpu-node-0000" in section and "gpu-node-0001" in section
