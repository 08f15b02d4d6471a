"""The DaemonSet's container ends promptly on SIGTERM (a rollout or a drain), while it waits and while the
checker still runs: the entrypoint script of lingjun-check-daemonset.yaml run under bash and sh."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from _manifests import load, pod_spec
from _shell_script import read_until, terminate

SHELLS = [shell for shell in ("bash", "sh") if shutil.which(shell)]
#: a pod must be gone well inside its grace period after SIGTERM
DEADLINE_S = 2.0


def _script() -> str:
    (container,) = pod_spec(load("lingjun-check-daemonset.yaml"))["containers"]
    assert container["command"] == ["sh", "-c"]
    (script,) = container["args"]
    return script


def _fake_python(tmp_path: Path, body: str) -> dict:
    """An environment whose ``python3`` runs the shell text ``body``: a link to the checked-in ``_fake_python3``
    (a script written by the test itself could fail to start with ETXTBSY while a site build ahead forks)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "python3").symlink_to(Path(__file__).resolve().parent / "_fake_python3")
    return {**os.environ, "PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "NODE_NAME": "gpu-node-1",
            "FAKE_PYTHON_BODY": body}


def _start(shell: str, env: dict) -> subprocess.Popen:
    # a session of its own: the script is PID 1 of nothing here, but its children can be found and checked
    return subprocess.Popen([shell, "-c", _script()], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            text=True, start_new_session=True)


def _group(proc: subprocess.Popen) -> list[int]:
    """pidfds of the processes of the script's process group other than the script (its children)."""
    fds = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == proc.pid:
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[2]) == proc.pid:
                fds.append(os.pidfd_open(int(entry)))
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return fds


def _all_end(fds: list[int], timeout: float) -> bool:
    """Whether every process behind ``fds`` ends within ``timeout`` s (a pidfd becomes readable when it does)."""
    pending = list(fds)
    deadline = time.monotonic() + timeout
    while pending:
        ready, _, _ = select.select(pending, [], [], max(deadline - time.monotonic(), 0))
        if not ready:
            return False
        pending = [fd for fd in pending if fd not in ready]
    for fd in fds:
        os.close(fd)
    return True


@pytest.mark.parametrize("shell", SHELLS)
def test_sigterm_while_waiting_ends_the_pod_at_once(shell, tmp_path):
    proc = _start(shell, _fake_python(tmp_path, 'echo \'{"schema": "lingjun-check/snapshot/1"}\'\n'))
    read_until(proc.stderr, "waiting for the next rollout")
    assert proc.stdout.readline() == '{"schema": "lingjun-check/snapshot/1"}\n'  # the snapshot on stdout, once
    children = _group(proc)
    assert children  # the background sleep
    took = terminate(proc, DEADLINE_S)
    assert proc.returncode == 0 and took < DEADLINE_S, (proc.returncode, took)
    # the background sleep went with it (checked first: while it lives it holds stderr open, and reading to the
    # end would wait for it)
    assert _all_end(children, DEADLINE_S - took)
    assert "SIGTERM, exiting" in proc.stderr.read()


@pytest.mark.parametrize("shell", SHELLS)
def test_sigterm_while_the_checker_runs_stops_it_too(shell, tmp_path):
    # the checker prints that it started, then hangs: SIGTERM must not wait for it
    proc = _start(shell, _fake_python(tmp_path, "echo checker-started >&2\nexec sleep 600\n"))
    read_until(proc.stderr, "checker-started")
    children = _group(proc)
    assert children  # the checker
    took = terminate(proc, DEADLINE_S)
    assert proc.returncode == 0 and took < DEADLINE_S, (proc.returncode, took)
    assert _all_end(children, DEADLINE_S - took)  # the checker was stopped, not left running


def test_no_plain_sleep_as_the_containers_main_process():
    script = _script()
    assert "exec sleep" not in script
    assert "trap " in script and "wait " in script


def test_the_trap_kills_its_child_with_a_signal_the_child_cannot_catch():
    """The trap's kill is SIGKILL.  A child forked for ``sleep &`` runs the shell's own TERM trap until it starts
    ``sleep``; dash then takes a SIGTERM into that trap and starts ``sleep`` regardless.  Measured with SIGTERM
    there, on 2 busy cores: 58 of 200 pods under sh left their sleep running (0 of 200 under bash); with SIGKILL,
    0 of 200 under either."""
    (trap,) = [line for line in _script().splitlines() if line.startswith("trap ")]
    kills = [part.strip() for part in trap.split(";") if "kill " in part]
    assert kills and all('kill -s KILL "$child"' in part for part in kills), kills


def _can_unshare_pid() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--pid", "--fork", "--kill-child", "sh", "-c", "test $$ -eq 1"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


def _as_pid_1(script: str, env: dict) -> subprocess.Popen:
    """``sh -c SCRIPT`` as PID 1 of a new PID namespace, as in a container (the kernel then delivers to it only the
    signals it has a handler for)."""
    return subprocess.Popen(["unshare", "--pid", "--fork", "--kill-child", "sh", "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, start_new_session=True)


def _init_of(proc: subprocess.Popen) -> int:
    """The pid (outside the namespace) of the namespace's PID 1: unshare's only child."""
    (child,) = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    return int(child)


def _sigterm_init(proc: subprocess.Popen) -> "float | None":
    """SIGTERM to the namespace's PID 1; seconds until unshare ends, None when not within the deadline."""
    start = time.monotonic()
    os.kill(_init_of(proc), signal.SIGTERM)
    try:
        proc.wait(timeout=DEADLINE_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return None
    return time.monotonic() - start


@pytest.mark.skipif(not _can_unshare_pid(), reason="needs unshare --pid (root, or user namespaces)")
def test_as_pid_1_the_script_ends_on_sigterm_and_a_plain_sleep_does_not(tmp_path):
    env = _fake_python(tmp_path, "echo '{}'\n")
    proc = _as_pid_1(_script(), env)
    read_until(proc.stderr, "waiting for the next rollout")
    took = _sigterm_init(proc)
    assert took is not None and took < DEADLINE_S
    # what the manifest had: `exec sleep` as PID 1 has no handler, so SIGTERM is dropped and the pod waits out its grace
    old = _as_pid_1("echo ready >&2; exec sleep 2147483647", env)
    read_until(old.stderr, "ready")
    assert _sigterm_init(old) is None
