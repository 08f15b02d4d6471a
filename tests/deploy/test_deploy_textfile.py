"""The textfile DaemonSet (lingjun-check-textfile.yaml) keeps node-exporter's ``.prom`` file fresh on every node: its
shell line, run under sh with the real zipapp on a fake host root, writes the file into the folder the hostPath
names, again after each interval, atomically (no temporary file left, only ``*.prom`` node-exporter reads), text that
promtool finds nothing in; a failed run says so in the file; SIGTERM ends it at once."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _manifests import KUBERNETES, REPO, load, pod_spec
from _shell_script import read_until, terminate

FAKEROOT = REPO / "tests" / "fixtures" / "fakeroots" / "mig-smi"
PROMTOOL = shutil.which("promtool")
MANIFEST = "lingjun-check-textfile.yaml"
#: a pod must be gone well inside its grace period after SIGTERM
DEADLINE_S = 2.0


def _container() -> dict:
    (container,) = pod_spec(load(MANIFEST))["containers"]
    return container


def _script() -> str:
    container = _container()
    assert container["command"] == ["sh", "-c"]
    (script,) = container["args"]
    return script


def _mount() -> dict:
    """The textfile volume's mount, with the volume: ``{"mountPath": ..., "hostPath": ...}``."""
    spec = pod_spec(load(MANIFEST))
    (volume,) = [v for v in spec["volumes"] if "hostPath" in v]
    (mount,) = [m for m in _container()["volumeMounts"] if m["name"] == volume["name"]]
    return {"mountPath": mount["mountPath"], "readOnly": mount.get("readOnly", False), "hostPath": volume["hostPath"]}


def test_the_daemonset_writes_into_node_exporters_folder_on_every_gpu_node():
    ds = load(MANIFEST)
    assert (ds["apiVersion"], ds["kind"]) == ("apps/v1", "DaemonSet")
    assert ds["spec"]["selector"]["matchLabels"] == ds["spec"]["template"]["metadata"]["labels"]
    # its pods are not collected with the snapshot DaemonSet's (`kubectl logs -l ...component=fleet-daemonset`)
    other = load("lingjun-check-daemonset.yaml")["spec"]["template"]["metadata"]["labels"]
    assert ds["spec"]["template"]["metadata"]["labels"]["app.kubernetes.io/component"] != other["app.kubernetes.io/component"]
    spec = pod_spec(ds)
    assert spec["nodeSelector"] == {"nvidia.com/gpu.present": "true"}
    assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in spec["tolerations"]
    assert "nvidia.com/gpu" not in _container()["resources"]["limits"]  # holds no GPU, as the other DaemonSet
    assert 0 < spec["terminationGracePeriodSeconds"] <= 30
    mount = _mount()
    # the folder README's `-o` example names, made if missing, written (not read-only)
    assert mount["hostPath"] == {"path": "/var/lib/node_exporter/textfile", "type": "DirectoryOrCreate"}
    assert "-o /var/lib/node_exporter/textfile/lingjun.prom" in (REPO / "README.md").read_text(encoding="utf-8")
    assert mount["readOnly"] is False
    (output,) = re.findall(r"--format prometheus -o (\S+)", _script())
    assert Path(output).parent == Path(mount["mountPath"]) and output.endswith(".prom")
    env = {e["name"]: e for e in _container()["env"]}
    interval = int(env["LINGJUN_INTERVAL_SECONDS"]["value"])
    assert 60 <= interval < 3 * 3600  # fresh well within the 3 hours of the documented staleness alert
    assert 'sleep "${LINGJUN_INTERVAL_SECONDS:-900}" &' in _script() and interval == 900


def _run(tmp_path: Path, pyz: Path, root: Path, interval: str = "1") -> "tuple[subprocess.Popen, Path]":
    """The DaemonSet's shell line under sh: the zipapp at ``pyz`` with ``--root root``, the hostPath folder a
    temporary one."""
    folder = tmp_path / "textfile"
    folder.mkdir()
    script = _script().replace("python3 /opt/lingjun/lingjun-check.pyz",
                               f"{sys.executable} {pyz} --root {root}").replace(f"{_mount()['mountPath']}/", f"{folder}/")
    assert str(folder) in script and str(pyz) in script
    env = {**os.environ, "LINGJUN_INTERVAL_SECONDS": interval, "NODE_NAME": "gpu-node-1"}
    proc = subprocess.Popen(["sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            start_new_session=True)
    return proc, folder


def _value(text: str, metric: str) -> float:
    (value,) = re.findall(rf"^{metric} (\S+)$", text, re.M)
    return float(value)


def _promtool(text: str) -> None:
    if PROMTOOL is None:
        if os.environ.get("CI"):
            pytest.fail("promtool is missing in CI (.ci/run installs Debian's prometheus package)")
        return  # the file's other checks still run; promtool's lint is skipped here (Debian: apt-get install prometheus)
    result = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")
def test_the_file_is_written_again_after_each_interval_and_sigterm_ends_the_pod(tmp_path, checker_pyz):
    proc, folder = _run(tmp_path, checker_pyz, FAKEROOT)
    try:
        read_until(proc.stderr, "report written to", 1)
        first = (folder / "lingjun.prom").read_text(encoding="utf-8")
        read_until(proc.stderr, "report written to", 1)
        second = (folder / "lingjun.prom").read_text(encoding="utf-8")
    finally:
        took = terminate(proc, DEADLINE_S)
    assert proc.returncode == 0 and took < DEADLINE_S, (proc.returncode, took)
    # fresh: the second run replaced the first one's file
    assert _value(second, "lingjun_check_last_run_timestamp_seconds") > _value(first, "lingjun_check_last_run_timestamp_seconds")
    assert _value(second, "lingjun_check_run_success") == 1
    # atomic: the rename left no temporary file, and the folder holds only what node-exporter reads
    assert sorted(p.name for p in folder.iterdir()) == ["lingjun.prom"]
    assert (folder / "lingjun.prom").stat().st_mode & 0o044 == 0o044  # readable by node-exporter's user
    _promtool(second)


@pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (Debian: apt-get install prometheus)")
def test_promtool_finds_nothing_in_the_file_the_daemonset_writes(tmp_path, checker_pyz):
    proc, folder = _run(tmp_path, checker_pyz, FAKEROOT, interval="600")
    try:
        read_until(proc.stderr, "report written to", 1)
    finally:
        terminate(proc, DEADLINE_S)
    _promtool((folder / "lingjun.prom").read_text(encoding="utf-8"))


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")
def test_a_failed_run_says_so_in_the_file_and_the_loop_goes_on(tmp_path, checker_pyz):
    proc, folder = _run(tmp_path, checker_pyz, tmp_path / "no-such-root")
    try:
        lines = read_until(proc.stderr, "lingjun-check exited with 3", 2)
    finally:
        took = terminate(proc, DEADLINE_S)
    assert took < DEADLINE_S
    assert any("the failed run is recorded in" in line for line in lines)
    text = (folder / "lingjun.prom").read_text(encoding="utf-8")
    assert _value(text, "lingjun_check_run_success") == 0 and _value(text, "lingjun_check_exit_code") == 3
    _promtool(text)


def test_the_manifest_is_documented_where_the_textfile_is():
    for doc in ("README.md", "docs/en/checker/fleet.md", "docs/zh/checker/fleet.md", "docs/en/checker/at-scale.md",
                "docs/zh/checker/at-scale.md"):
        assert MANIFEST in (REPO / doc).read_text(encoding="utf-8"), doc
    assert (KUBERNETES / MANIFEST).is_file()
