"""Running a manifest's shell script in a test: read its output until a marker, then stop it as the kubelet would."""

from __future__ import annotations

import os
import signal
import subprocess
import time


def read_until(stream, marker: str, times: int = 1) -> "list[str]":
    """The lines ``stream`` gives up to the ``times``-th one holding ``marker`` (AssertionError if it ends first)."""
    lines, seen = [], 0
    for line in stream:  # blocks on the pipe until the script prints: synchronised on output, no sleeps
        lines.append(line)
        seen += marker in line
        if seen == times:
            return lines
    raise AssertionError(f"the script ended before printing {marker!r} {times} times: {lines}")


def terminate(proc: subprocess.Popen, deadline_s: float) -> float:
    """Send SIGTERM, wait up to ``deadline_s`` + 3 s (then SIGKILL the script's process group); seconds it took."""
    start = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=deadline_s + 3)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return time.monotonic() - start
