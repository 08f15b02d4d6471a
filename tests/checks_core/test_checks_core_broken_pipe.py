"""A reader of standard output that stops early (``lingjun-check --list-rules | head``) is not an error."""

from __future__ import annotations

import os
import subprocess

import pytest

from checks_core_helpers import PYTHON, REPO


def _run_into_closed_pipe(*args: str, env: "dict | None" = None) -> subprocess.CompletedProcess:
    """Run the checker with stdout a pipe whose reading end is already closed (the first write fails with EPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    full_env = dict(os.environ)
    full_env.pop("LINGJUN_RELEASE", None)
    full_env.update({"NO_COLOR": "1", "LANG": "C.UTF-8"})
    full_env.pop("LC_ALL", None)
    full_env.update(env or {})
    try:
        return subprocess.run([PYTHON, "-m", "lingjun.checks", *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, env=full_env, timeout=60, cwd=str(REPO))
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args, status",
    [
        (("--list-rules",), 0),
        (("--version",), 0),
        (("--help",), 0),
        ((), 0),  # this machine: no driver, no error findings
        (("--format", "json"), 0),
        (("--require-gpu",), 1),  # the status the run decided stays
    ],
)
def test_closed_stdout_is_quiet_and_keeps_the_status(args, status):
    result = _run_into_closed_pipe(*args)
    assert result.stderr == ""
    assert result.returncode == status


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("--list-rules",), ("--version",), (), ("--format", "json")])
def test_stdout_that_refuses_the_report_is_one_line_and_exit_3(args):
    """An output error (no space left on the device) is not an internal error: one line, exit 3."""
    env = {k: v for k, v in os.environ.items() if k not in ("LINGJUN_RELEASE", "LC_ALL", "LINGJUN_CHECK_DEBUG")}
    env.update({"NO_COLOR": "1", "LANG": "C.UTF-8"})
    with open("/dev/full", "w") as full:
        result = subprocess.run([PYTHON, "-m", "lingjun.checks", *args], stdout=full, stderr=subprocess.PIPE,
                                text=True, env=env, timeout=60, cwd=str(REPO))
    assert result.returncode == 3
    assert result.stderr == "lingjun-check: cannot write the report: No space left on device\n"
