"""Files named on the command line (--from, --from-collect-env, --deepspeed-config, --data) that are not
ordinary files: a FIFO must not hang, a directory or device is a usage error, deep nesting is not a crash."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from checks_redteam_kit import REDTEAM, REPO

OPTIONS = {
    "--from": [],
    "--from-collect-env": [],
    "--deepspeed-config": ["--from", str(REDTEAM / "R14-transformers-36081.json")],
    "--data": ["--from", str(REDTEAM / "R14-transformers-36081.json")],
}


def _run(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8")
    env.pop("LINGJUN_RELEASE", None)
    env.pop("LINGJUN_CHECK_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "lingjun.checks", *args], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=str(REPO))


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_a_fifo_is_refused_without_waiting_for_a_writer(option, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    try:
        proc = _run(*OPTIONS[option], option, str(fifo), timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{option} FIFO: the checker waited for a writer")
    assert proc.returncode == 3, proc.stderr
    assert str(fifo) in proc.stderr and "not a regular file" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("option", sorted(OPTIONS))
@pytest.mark.parametrize("target", ["directory", "/dev/zero", "/dev/null"])
def test_a_directory_or_device_is_a_usage_error(option, target, tmp_path):
    path = str(tmp_path) if target == "directory" else target
    proc = _run(*OPTIONS[option], option, path)
    assert proc.returncode == 3, (proc.returncode, proc.stdout[-300:], proc.stderr)
    assert path in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("option", ["--from", "--deepspeed-config", "--data"])
def test_deeply_nested_json_is_a_clear_error(option, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' + "[" * 100000 + "]" * 100000 + "}", encoding="utf-8")
    proc = _run(*OPTIONS[option], option, str(path))
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    if option == "--deepspeed-config":  # an unusable config is a finding of config.deepspeed-prefetch-bucket-size
        assert proc.returncode == 1 and "nested too deeply" in proc.stdout, proc.stdout
    else:
        assert proc.returncode == 3 and str(path) in proc.stderr and "nested too deeply" in proc.stderr


def test_a_snapshot_with_a_utf8_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (REDTEAM / "R09-yuan2-65.json").read_bytes())
    proc = _run("--from", str(path), "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["origin"] == "snapshot"


@pytest.mark.parametrize("option", ["--from", "--data"])
def test_an_oversized_file_is_refused_by_its_size(option, tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MiB of NUL bytes, no disk used
    proc = _run(*OPTIONS[option], option, str(path))
    assert proc.returncode == 3 and "larger than" in proc.stderr, proc.stderr


#: measures the peak memory of one checker run: the wrapper's only child is the checker
_PEAK = ("import resource, subprocess, sys\n"
         "p = subprocess.run([sys.executable, '-m', 'lingjun.checks', *sys.argv[1:]], capture_output=True, text=True)\n"
         "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
         "sys.stderr.write(p.stderr)\n")


def _peak_mib(*args: str) -> tuple[int, int, str]:
    """``(exit status, peak resident memory in MiB, stderr)`` of ``lingjun-check ARGS`` in a fresh process."""
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8")
    env.pop("LINGJUN_RELEASE", None)
    proc = subprocess.run([sys.executable, "-c", _PEAK, *args], capture_output=True, text=True, timeout=120, env=env,
                          cwd=str(REPO))
    status, peak = map(int, proc.stdout.split())
    return status, peak, proc.stderr


@pytest.mark.parametrize("content", ["binary", "text"])
@pytest.mark.parametrize("option", ["--from", "--data"])
def test_input_size_is_refused_before_the_input_is_read_into_memory(option, content, tmp_path):
    """50 MB of garbage under the 64 MiB limit of both readers.  Measured on a 2-core machine: binary 16 MiB
    (--from) and 14 MiB (--data), refused from its first 64 KiB (before: 653 MiB); UTF-8 text that is not JSON,
    read whole, 112 and 109 MiB (before: 353 MiB)."""
    from lingjun.checks.inputs.snapshot import MAX_SNAPSHOT_BYTES

    path = tmp_path / "garbage"
    size = 50_000_000
    if content == "binary":
        path.write_bytes(os.urandom(size))
    else:
        path.write_bytes((b"abc def {[: \"\n" * (size // 15 + 1))[:size])
    extra = ["--version"] if option == "--data" else []
    status, peak, err = _peak_mib(option, str(path), *extra)
    assert status == 3 and err.count("\n") == 1 and str(path) in err, err
    limit_mib = MAX_SNAPSHOT_BYTES // (1 << 20)
    if content == "binary":
        assert "not UTF-8 text" in err and peak < 40  # one block read, not the file
    else:
        assert peak < 2.5 * limit_mib, peak


def _run_with_stdin(data: bytes, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8")
    env.pop("LINGJUN_RELEASE", None)
    return subprocess.run([sys.executable, "-m", "lingjun.checks", *args], input=data, capture_output=True, timeout=60,
                          env=env, cwd=str(REPO))


def test_from_dash_reads_the_snapshot_on_standard_input():
    snapshot = (REDTEAM / "R14-transformers-36081.json").read_bytes()
    piped = _run_with_stdin(snapshot, "--from", "-", "--format", "json")
    named = _run_with_stdin(b"", "--from", str(REDTEAM / "R14-transformers-36081.json"), "--format", "json")
    assert piped.returncode == named.returncode, piped.stderr
    report = json.loads(piped.stdout)
    assert report["origin"] == "snapshot" and report["findings"] == json.loads(named.stdout)["findings"]


@pytest.mark.parametrize("data,reason", [(b"\xff\xfe\x00\x01" * 40_000, "snapshot is not UTF-8 text"),
                                         (b"", "not JSON: Expecting value: line 1 column 1 (char 0)")])
def test_from_dash_names_standard_input_when_it_is_not_a_snapshot(data, reason):
    proc = _run_with_stdin(data, "--from", "-")
    assert proc.returncode == 3 and proc.stderr.decode() == f"lingjun-check: standard input: {reason}\n"


@pytest.mark.parametrize("args,named", [
    (["--from", "-", "--log", "-"], "--from - and --log -"),
    (["--from", "-", "--deepspeed-config", "-"], "--from - and --deepspeed-config -"),
    (["--log", "-", "--log", "-"], "--log - twice"),
])
def test_standard_input_is_read_by_one_option_only(args, named):
    proc = _run_with_stdin(b"{}", *args)
    assert proc.returncode == 3 and proc.stderr.decode() == f"lingjun-check: {named}: standard input can be read once\n"
