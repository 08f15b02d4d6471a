"""deploy/kubernetes/preflight-torchrun.sh: torchrun starts only when lingjun-check passes on this node."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from _manifests import KUBERNETES, REPO
from lingjun.generator.zipapp import bundle_text, zip_entries, zipapp_bytes

SCRIPT = KUBERNETES / "preflight-torchrun.sh"
pytestmark = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX sh")


def _bin(tmp_path: Path, python_status: "int | None") -> Path:
    """A folder with a fake ``torchrun`` (records its arguments) and, when ``python_status`` is given, a fake
    ``python3`` that exits with it; otherwise the real interpreter runs the checker."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "torchrun").write_text('#!/bin/sh\necho "torchrun $*" > "$RECORD"\n', encoding="utf-8")
    if python_status is not None:
        (folder / "python3").write_text(f'#!/bin/sh\necho "python3 $*" >> "$RECORD.checker"\nexit {python_status}\n',
                                        encoding="utf-8")
    for tool in folder.iterdir():
        tool.chmod(0o755)
    return folder


def _run(tmp_path: Path, folder: Path, env: dict) -> subprocess.CompletedProcess:
    environ = {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "RECORD": str(tmp_path / "record"),
               "NODE_NAME": "gpu-node-7", **env}
    return subprocess.run(["sh", str(SCRIPT), "--nproc-per-node", "8", "train.py"], capture_output=True, text=True,
                          env=environ, timeout=120)


def test_script_is_valid_sh():
    assert subprocess.run(["sh", "-n", str(SCRIPT)], capture_output=True).returncode == 0
    assert SCRIPT.read_text(encoding="utf-8").startswith("#!/bin/sh\n")


def test_passing_check_execs_torchrun_with_the_arguments(tmp_path):
    result = _run(tmp_path, _bin(tmp_path, 0), {})
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "record").read_text() == "torchrun --nproc-per-node 8 train.py\n"
    assert (tmp_path / "record.checker").read_text() == "python3 /opt/lingjun/lingjun-check.pyz --require-gpu\n"


@pytest.mark.parametrize("status", [1, 2, 3])
def test_failing_check_stops_before_torchrun_with_its_status(tmp_path, status):
    result = _run(tmp_path, _bin(tmp_path, status), {"LINGJUN_CHECK": "/x/lingjun-check.pyz"})
    assert result.returncode == status
    assert not (tmp_path / "record").exists()
    assert (tmp_path / "record.checker").read_text() == "python3 /x/lingjun-check.pyz --require-gpu\n"
    assert result.stderr == (f"preflight: lingjun-check exited with {status} on node gpu-node-7; "
                             "not starting torchrun\n")


@pytest.mark.skipif(Path("/proc/driver/nvidia/version").exists(), reason="this machine has an NVIDIA driver")
def test_the_real_checker_stops_a_node_without_a_driver(tmp_path):
    """End to end with the zipapp the ConfigMap carries: no driver here, --require-gpu makes that an error."""
    pyz = tmp_path / "lingjun-check.pyz"
    pyz.write_bytes(zipapp_bytes(zip_entries(bundle_text(REPO / "releases")[0])))
    result = _run(tmp_path, _bin(tmp_path, None), {"LINGJUN_CHECK": str(pyz)})
    assert result.returncode == 1, result.stdout + result.stderr
    assert not (tmp_path / "record").exists()
    assert "exit code 1" in result.stdout and result.stderr.endswith("not starting torchrun\n")
