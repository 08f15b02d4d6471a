"""The check Job's shell line, run under sh with its paths moved to a temporary folder: the snapshot goes to the log
and to /results/snapshots/CLUSTER/NODE.json, findings succeed, failures fail the pod and keep nothing; then the
report Job's fleet command reads the kept snapshots."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from _manifests import KUBERNETES, load, pod_spec
from lingjun.checks.cli import main as check_main

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "C01.json"
pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")


def _script(name: str, tmp_path: Path) -> str:
    (container,) = pod_spec(load(name))["containers"]
    (script,) = container["args"]
    return script.replace("/results", str(tmp_path / "results"))


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory) -> Path:
    """Real snapshots of two nodes, written by the checker itself (from a public failure case)."""
    folder = tmp_path_factory.mktemp("snapshots")
    for node in ("gpu-a", "gpu-b"):
        assert check_main(["--from", str(FIXTURE), "--collect", str(folder / f"{node}.json"), "--node-name", node,
                           "--format", "json", "-o", str(folder / f"{node}.report.json")]) in (0, 1)
    return folder


def _pod(tmp_path: Path, snapshots: Path, node: str, status: int) -> subprocess.CompletedProcess:
    """One check pod: a stand-in python3 prints the node's snapshot and exits with ``status`` (the checker's)."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    (folder / "python3").write_text(f'#!/bin/sh\ncat "$SNAPSHOTS/$NODE_NAME.json"\nexit {status}\n', encoding="utf-8")
    (folder / "python3").chmod(0o755)
    (tmp_path / "results").mkdir(exist_ok=True)
    env = {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "SNAPSHOTS": str(snapshots),
           "NODE_NAME": node, "LINGJUN_CLUSTER": "cluster-a"}
    return subprocess.run(["sh", "-c", _script("lingjun-check-job.yaml", tmp_path)], capture_output=True, text=True,
                          env=env, timeout=60)


@pytest.mark.parametrize("status", [0, 1, 2])
def test_findings_succeed_and_the_snapshot_is_logged_and_kept(status, tmp_path, snapshots):
    result = _pod(tmp_path, snapshots, "gpu-a", status)
    assert result.returncode == 0, result.stderr
    snapshot = (snapshots / "gpu-a.json").read_text(encoding="utf-8")
    assert result.stdout == snapshot  # the log carries it, for kubectl logs
    kept = tmp_path / "results" / "snapshots" / "cluster-a" / "gpu-a.json"
    assert kept.read_text(encoding="utf-8") == snapshot
    assert not (tmp_path / "results" / "snapshot.json").exists()


@pytest.mark.parametrize("status", [3, 127])
def test_a_failed_check_fails_the_pod_and_keeps_nothing(status, tmp_path, snapshots):
    result = _pod(tmp_path, snapshots, "gpu-a", status)
    assert result.returncode == status
    assert not (tmp_path / "results" / "snapshots").exists()


def test_the_report_job_reads_every_kept_snapshot(tmp_path, snapshots, capsys):
    for node in ("gpu-a", "gpu-b"):
        assert _pod(tmp_path, snapshots, node, 1).returncode == 0
    _, report_job = yaml.safe_load_all((KUBERNETES / "lingjun-check-results.yaml").read_text(encoding="utf-8"))
    (container,) = pod_spec(report_job)["containers"]
    (script,) = container["args"]
    first = script.splitlines()[0].replace("/results", str(tmp_path / "results"))
    words = first.split()
    assert words[:3] == ["python3", "/opt/lingjun/lingjun-check.pyz", "fleet"]
    code = check_main(words[2:])
    assert code in (0, 1)
    report = json.loads((tmp_path / "results" / "fleet.json").read_text(encoding="utf-8"))
    assert report["schema"] == "lingjun-check/fleet/1" and report["summary"]["nodes"] == 2
    text = json.dumps(report)
    assert "gpu-a" in text and "gpu-b" in text
