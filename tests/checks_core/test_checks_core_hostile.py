"""A hostile environment never produces a traceback: unreadable /proc, broken metadata, garbage versions, a hanging nvidia-smi, missing libraries, broken snapshots."""

from __future__ import annotations

import json
import os

import pytest

from checks_core_helpers import fakeroot, probe_root, run_cli
from lingjun.checks.probes._collect import collect
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.report.findings import Severity
from lingjun.checks.knowledge.identify import identify
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.report.render_json import render_json
from lingjun.checks.report.render_text import render_text
from lingjun.checks.report.model import exit_code
from lingjun.checks.runner import run_rules


class DeniedEnv(ProbeEnv):
    """Every read under /proc and /sys fails with EACCES, as in a locked-down container (tests run as root, so chmod cannot do it)."""

    def open_bytes(self, path, limit=1 << 20):
        if path.startswith(("/proc/", "/sys/")):
            raise PermissionError(13, "Permission denied", path)
        return super().open_bytes(path, limit)

    def listdir(self, path):
        if path.startswith(("/proc", "/sys")):
            return []
        return super().listdir(path)


def _report(facts):
    from lingjun.checks.cli import load_data

    data = load_data(None)
    release = identify(facts, data)
    ctx = CheckContext(facts=facts, data=data, release=release, options=CheckOptions())
    findings = run_rules(ctx)
    text = render_text(findings, release)
    report = json.loads(render_json(findings, release, facts, data))
    return findings, text, report


def test_permission_denied_proc_is_a_fact_not_a_crash():
    env = DeniedEnv(root=fakeroot("proprietary-x86"), environ={"PATH": "/usr/bin"})
    facts = collect(env)
    assert facts.driver.proc_version_error == "permission denied"
    assert facts.driver.kernel_module_version is None
    assert facts.network == []
    assert all(p.ok for p in facts.probes)
    findings, text, report = _report(facts)
    assert report["schema"] == "lingjun-check/report/1"
    assert "Summary:" in text
    assert exit_code(findings) in (0, 1)


def test_hostile_root_metadata_errors_are_recorded():
    facts = probe_root("hostile")
    errors = {d.name: d.error for d in facts.distributions if d.error}
    assert errors == {
        "dir_as_metadata": "cannot read metadata: Is a directory",
        "garbage-version": "invalid version 'not a version!!'",
        "latin1": "METADATA is not UTF-8",
        "missing_metadata": "METADATA missing",
        "noname": "no Name in METADATA",
        "noversion": "no Version in METADATA",
    }
    assert facts.driver.proc_version_error == "unrecognised format"
    assert facts.cuda.toolkit_version is None  # truncated version.json
    assert facts.cudnn.header_version is None  # "#define CUDNN_MAJOR nine"
    assert facts.nccl.header_version == "2.19.3"
    assert facts.torch is not None and facts.torch.version is None and facts.torch.cuda is None and facts.torch.debug is None
    assert facts.manifest is not None and facts.manifest.release is None
    assert [l.file for l in facts.loader.ld_so_conf] == ["/etc/ld.so.conf.d/garbage.conf"]
    assert [i.name for i in facts.network] == ["eth0"] and facts.network[0].mtu is None
    failed = {p.name: p.error for p in facts.probes if not p.ok}
    assert set(failed) == {"torch", "manifest"}, failed


def test_hostile_root_full_report_never_raises():
    facts = probe_root("hostile")
    findings, text, report = _report(facts)
    internal = [f for f in findings if f.message.en.startswith("internal error")]
    assert report["summary"] == {s: sum(1 for f in findings if f.severity.value == s) for s in report["summary"]}
    # the report exists and names every area it covers; rule bugs (if any) are isolated findings
    assert text.splitlines()[0].startswith("lingjun-check")
    for finding in internal:
        assert finding.severity is Severity.error


def test_hostile_root_through_cli_exit_code_is_0_or_1():
    result = run_cli("--root", fakeroot("hostile"), "--format", "json", env={"PATH": "/usr/bin:/bin"})
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert report["exit_code"] == result.returncode


def test_hanging_nvidia_smi_is_cut_off_and_recorded():
    facts = probe_root("hanging-smi", probes=["nvml", "nvidia_smi", "devices"], timeout=1.0, run_root_programs=True)
    record = next(p for p in facts.probes if p.name == "nvidia-smi")
    assert record.timed_out is True
    assert record.ok is False
    assert facts.nvidia_smi.timed_out is True
    assert facts.nvidia_smi.available is True
    assert facts.nvidia_smi.driver_version is None


def test_hanging_nvidia_smi_through_cli_gives_a_warning_finding():
    result = run_cli("--root", fakeroot("hanging-smi"), "--run-root-programs", "--timeout", "1", "--format", "json", env={"PATH": "/usr/bin:/bin"})
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    timeouts = [f for f in report["findings"] if f["rule"] == "checker.probe-timeout"]
    # the nvidia-smi probe and the gpu-topology probe (nvidia-smi topo -m) each hit the same wedged program
    assert len(timeouts) == 2 and all("nvidia-smi" in t["message"] + (t.get("observed") or "") for t in timeouts)
    probes = {p["name"]: p for p in report["facts"]["probes"]}
    assert probes["nvidia-smi"]["timed_out"] is True and probes["gpu-topology"]["timed_out"] is True
    strict = run_cli("--root", fakeroot("hanging-smi"), "--run-root-programs", "--timeout", "1", "--strict", env={"PATH": "/usr/bin:/bin"})
    assert strict.returncode in (1, 2)


def test_missing_libraries_root(tmp_path):
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / "nvidiactl").write_text("")
    facts = collect(ProbeEnv(root=str(tmp_path), environ={"PATH": "/usr/bin"}))
    assert facts.libcuda.path is None and facts.libcuda.candidates == []
    assert facts.nvml.library_path is None
    assert facts.has_nvidia_driver  # a device node is a sign of a driver
    findings, text, report = _report(facts)
    assert report["facts"]["libcuda"]["path"] is None


def test_dangling_and_looping_symlinks(tmp_path):
    lib = tmp_path / "usr" / "lib" / "x86_64-linux-gnu"
    lib.mkdir(parents=True)
    os.symlink("libcuda.so.999", lib / "libcuda.so.1")  # dangling
    os.symlink("loop-b", lib / "loop-a")
    os.symlink("loop-a", lib / "loop-b")
    os.symlink("loop-a", lib / "libnvidia-ml.so.1")
    facts = collect(ProbeEnv(root=str(tmp_path), environ={}), ["libcuda", "nvml"])
    assert facts.libcuda.path is None  # a dangling link is not a library
    assert facts.nvml.library_path is None
    assert all(p.ok for p in facts.probes)


@pytest.mark.parametrize(
    "snapshot",
    [
        {"schema": "lingjun-check/snapshot/1", "nvml": {"gpus": [{"index": "zero", "name": 5}]}, "driver": "570"},
        {"schema": "lingjun-check/snapshot/9", "env": {"NCCL_SOCKET_IFNAME": 1, "OK": "x"}, "distributions": [{"version": "1"}, 7]},
        {"torch": [], "network": {"eth0": {}}, "probes": [{"name": "x", "seconds": "slow"}], "loader": {"ld_library_path": "/a:/b"}},
        {"libcuda": {"candidates": [1, None, "/lib/libcuda.so.1"]}, "nvidia_smi": {"timed_out": "yes"}, "cudnn": {"files": [{"path": None}]}},
    ],
)
def test_snapshot_with_wrong_types_still_reports(tmp_path, snapshot):
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot))
    result = run_cli("--from", str(path), "--format", "json")
    assert result.returncode in (0, 1, 2), result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert any(f["rule"] == "checker.snapshot" for f in report["findings"])
    assert report["origin"] == "snapshot"


@pytest.mark.parametrize("content, needle", [("not json", "not JSON"), ("[1, 2]", "JSON object"), (b"\xff\xfe{}", "not UTF-8")])
def test_unusable_snapshot_file_is_a_usage_error(tmp_path, content, needle):
    path = tmp_path / "snap.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = run_cli("--from", str(path))
    assert result.returncode == 3
    assert needle in result.stderr and str(path) in result.stderr
    assert "Traceback" not in result.stderr


def test_garbage_versions_everywhere_in_a_snapshot(tmp_path):
    snapshot = {
        "schema": "lingjun-check/snapshot/1",
        "driver": {"kernel_module_version": "five hundred", "device_nodes": ["/dev/nvidiactl"]},
        "nvml": {"driver_version": "570.x", "cuda_driver_version": -1, "gpus": [{"index": 0, "name": "NVIDIA H20", "brand": "???", "compute_capability": "nine"}]},
        "libcuda": {"path": "/usr/lib/libcuda.so.1", "file_version": "abc", "driver_api_version": 0},
        "cuda": {"toolkit_version": "twelve", "env_cuda_version": "12..8"},
        "cudnn": {"header_version": "9.x", "resolved": {"path": "/lib/libcudnn.so.9", "version": "nine"}},
        "nccl": {"header_version": "", "expected_by_torch": "==2.1"},
        "torch": {"version": "latest", "cuda": "12.8.x"},
        "python": {"version": "three"},
        "distributions": [{"name": "torch", "version": "latest"}, {"name": "deepspeed", "version": "0.x"}],
        "env": {"NCCL_SOCKET_IFNAME": "=", "CHECKPOINT_OPTIMIZATION": "maybe", "LINGJUN_RELEASE": "nonsense"},
        "network": [{"name": "eth0", "mtu": 0}],
    }
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot))
    for fmt in ("text", "json"):
        result = run_cli("--from", str(path), "--format", fmt, "--gpus-per-pod", "16")
        assert result.returncode in (0, 1), result.stderr
        assert "Traceback" not in result.stderr and "internal error:" not in result.stderr


def test_fake_root_that_is_a_file_is_a_usage_error(tmp_path):
    target = tmp_path / "file"
    target.write_text("")
    result = run_cli("--root", str(target))
    assert result.returncode == 3 and "not a directory" in result.stderr


# ---------------------------------------------------------------------------- size of the input, size of the output


def _snapshot_with(tmp_path, distributions):
    data = json.loads((REPO_CASES / "C01.json").read_text(encoding="utf-8"))
    data["distributions"] = distributions
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


REPO_CASES = __import__("pathlib").Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "cases"


@pytest.mark.parametrize("bad", [{"name": 1}, {"version": "1.0"}, "not an object", {"name": "x", "requires": 3}])
def test_many_unusable_snapshot_values_are_counted_not_listed(tmp_path, bad):
    from lingjun.checks.runner import MAX_SNAPSHOT_PROBLEMS

    proc = run_cli("--from", str(_snapshot_with(tmp_path, [bad] * 5_000)), "--format", "json", timeout=120)
    assert proc.returncode in (0, 1, 2), proc.stderr
    notes = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "checker.snapshot"]
    assert len(notes) == MAX_SNAPSHOT_PROBLEMS + 1
    rest = int(notes[-1]["message"].split()[0])  # one problem or two per bad entry (a wrong type, then the entry dropped)
    assert 5_000 - MAX_SNAPSHOT_PROBLEMS <= rest <= 10_000 - MAX_SNAPSHOT_PROBLEMS
    assert notes[-1]["message"] == f"{rest} more snapshot values were unusable and were ignored"


def test_many_distributions_pinning_torch_are_read_and_judged(tmp_path):
    """20,000 distributions, five distinct torch pins (one unsatisfied): every distribution is read, the
    unsatisfied pin is reported for each distribution carrying it (bench/snapshot_scale.py times 300,000)."""
    dists = [{"name": "torch", "version": "2.1.0"}]
    dists += [{"name": f"pkg-{i}", "version": "1.0", "requires": [f"torch>={'3.0' if i % 5 == 0 else '2.0'}"]} for i in range(20_000)]
    proc = run_cli("--from", str(_snapshot_with(tmp_path, dists)), "--format", "json", timeout=300)
    report = json.loads(proc.stdout)
    assert report["facts"]["distributions"] == 20_001
    pins = [f["message"] for f in report["findings"] if f["rule"] == "packages.extension-abi" and f["severity"] == "warning"]
    assert len(pins) == 4_000 and pins[1] == "pkg-5 1.0 requires torch>=3.0, but torch 2.1.0 is installed."
