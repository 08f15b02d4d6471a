"""lingjun-check writes only where it may and runs only what it may: --collect targets, programs under --root, Ctrl-C."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from hostile_paths import HOSTILE_OUTPUT_KINDS, node_state
from lingjun.checks import cli
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._collect import collect

from checks_redteam_kit import REDTEAM

SNAPSHOT = str(REDTEAM / "R06-deepprep-233.json")


def _check(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", sorted(HOSTILE_OUTPUT_KINDS))
def test_collect_refuses_every_target_that_is_not_a_new_or_regular_file(kind, hostile_node, capsys):
    path = hostile_node(kind)
    before = node_state(path)
    code, out, err = _check(capsys, "--from", SNAPSHOT, "--collect", path)
    assert code == 3
    assert out == ""  # refused before anything was checked
    assert err.count("\n") == 1 and err.startswith(f"lingjun-check: --collect {path}: cannot write: ")
    assert HOSTILE_OUTPUT_KINDS[kind] in err
    assert node_state(path) == before


@pytest.mark.parametrize("target", ["/dev/null", "/dev/stdout"])
def test_collect_to_a_real_device_is_refused_and_the_device_kept(target, capsys):
    if not os.path.exists(target):
        pytest.skip(f"{target} is missing here")
    before = os.stat(target)
    code, _, err = _check(capsys, "--from", SNAPSHOT, "--collect", target)
    assert code == 3
    assert "cannot write: is a character device" in err or "cannot write: is a symbolic link" in err
    after = os.stat(target)
    assert (stat.S_IFMT(after.st_mode), after.st_rdev) == (stat.S_IFMT(before.st_mode), before.st_rdev)


@pytest.mark.parametrize("kind", ["absent", "previous snapshot"])
def test_collect_writes_a_new_file_or_replaces_its_own_snapshot(kind, tmp_path, capsys):
    path = str(tmp_path / "new" / "snap.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if kind == "previous snapshot":  # one this command wrote before
        _check(capsys, "--from", SNAPSHOT, "--collect", path)
    code, _, err = _check(capsys, "--from", SNAPSHOT, "--collect", path)
    assert code in (0, 1), err
    assert err == f"lingjun-check: snapshot written to {path}\n"
    assert json.loads(Path(path).read_text(encoding="utf-8"))["schema"] == "lingjun-check/snapshot/1"


def test_collect_never_replaces_a_regular_file_it_did_not_write(hostile_node, capsys):
    path = hostile_node("regular file")
    before = Path(path).read_bytes()
    code, _, err = _check(capsys, "--from", SNAPSHOT, "--collect", path)
    assert code == 3 and len(err.splitlines()) == 1
    assert Path(path).read_bytes() == before


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_run", interrupted)
    code, out, err = _check(capsys, "--from", SNAPSHOT)
    assert (code, out, err) == (130, "", "lingjun-check: interrupted\n")


# --------------------------------------------------------------------------
# programs inside --root are never run on the host unless asked
# --------------------------------------------------------------------------


def _fake_root(tmp_path: Path, where: str, how: str) -> tuple[Path, Path]:
    """A root whose nvidia-smi (at ``where`` inside it, a script or a link to one) leaves a trace file when run."""
    root, trace = tmp_path / "root", tmp_path / "ran.txt"
    target = root / where.lstrip("/") / "nvidia-smi"
    target.parent.mkdir(parents=True)
    script = f"#!/bin/sh\necho ran >> {trace}\necho '570.1, NVIDIA H20, 9.0, 97871'\n"
    if how == "script":
        target.write_text(script, encoding="utf-8")
        target.chmod(0o755)
    else:  # an absolute link, resolved inside the root
        real = root / "opt" / "smi"
        real.parent.mkdir(parents=True)
        real.write_text(script, encoding="utf-8")
        real.chmod(0o755)
        target.symlink_to("/opt/smi")
    return root, trace


@pytest.mark.parametrize("where", ["/usr/bin", "/bin", "/usr/local/nvidia/bin"])
@pytest.mark.parametrize("how", ["script", "absolute link"])
def test_nvidia_smi_inside_the_root_is_found_but_not_run(where, how, tmp_path):
    root, trace = _fake_root(tmp_path, where, how)
    env = {"PATH": f"{where}:/usr/sbin"}
    facts = collect(ProbeEnv(root=str(root), environ=env), ["nvml", "nvidia_smi"])
    assert not trace.exists()
    assert facts.nvidia_smi.available is None  # not known: present but not asked
    assert facts.nvidia_smi.error == "not run: found on PATH inside --root; programs there run only with --run-root-programs"
    assert facts.nvidia_smi.driver_version is None
    ran = collect(ProbeEnv(root=str(root), environ=env, run_root_programs=True), ["nvml", "nvidia_smi"])
    assert trace.read_text(encoding="utf-8").count("ran") >= 1
    assert (ran.nvidia_smi.available, ran.nvidia_smi.driver_version) == (True, "570.1")


def test_without_nvidia_smi_in_the_root_it_is_observed_absent(tmp_path):
    (tmp_path / "usr" / "bin").mkdir(parents=True)
    facts = collect(ProbeEnv(root=str(tmp_path), environ={"PATH": "/usr/bin"}), ["nvml", "nvidia_smi"])
    assert (facts.nvidia_smi.available, facts.nvidia_smi.error) == (False, "not found on PATH")


def test_cli_root_does_not_run_the_roots_program_and_help_says_so(tmp_path, monkeypatch, capsys):
    root, trace = _fake_root(tmp_path, "/usr/bin", "script")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    code, out, err = _check(capsys, "--root", str(root), "--format", "json", "--release", "training-nv-pytorch:25.07")
    assert code in (0, 1), err
    assert not trace.exists()
    probe = next(p for p in json.loads(out)["facts"]["probes"] if p["name"] == "nvidia-smi")
    assert (probe["ok"], probe["error"]) == (True, "not run: found on PATH inside --root; programs there run only with --run-root-programs")
    code, out, err = _check(capsys, "--root", str(root), "--run-root-programs", "--format", "json",
                            "--release", "training-nv-pytorch:25.07")
    assert code in (0, 1), err
    assert trace.exists()
    code, out, _ = _check(capsys, "--help")
    assert code == 0
    assert "--run-root-programs" in out and "nvidia-smi is looked for but" in " ".join(out.split())
