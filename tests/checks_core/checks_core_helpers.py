"""Shared helpers of the checker-core tests (fake roots, running the CLI)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

from lingjun.checks.probes._collect import collect
from lingjun.checks.facts import Facts
from lingjun.checks.probes._base import ProbeEnv

REPO = Path(__file__).resolve().parents[2]
FAKEROOTS = REPO / "tests" / "fixtures" / "fakeroots"
PYTHON = sys.executable


def fakeroot(name: str) -> str:
    """Path of a committed fake root."""
    path = FAKEROOTS / name
    assert path.is_dir(), path
    return str(path)


def probe_root(name: str, environ: Optional[dict] = None, probes: Optional[list] = None, timeout: float = 3.0,
               run_root_programs: bool = False) -> Facts:
    """Collect facts from a committed fake root with a controlled environment (``run_root_programs``: ``--run-root-programs``)."""
    env = ProbeEnv(root=fakeroot(name), environ=environ if environ is not None else {"PATH": "/usr/bin:/bin"}, timeout=timeout,
                   run_root_programs=run_root_programs)
    return collect(env, probes)


def run_cli(*args: str, env: Optional[dict] = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m lingjun.checks`` with ``args``; text output, ``COLUMNS=10000`` (no wrapping) unless ``env`` sets it."""
    full_env = dict(os.environ)
    full_env.pop("LINGJUN_RELEASE", None)
    # a wide terminal: tests that read the report's content find each finding on one line (the wrapping to
    # COLUMNS itself is tested in test_checks_core_terminal_width.py)
    full_env.update({"NO_COLOR": "1", "LANG": "C.UTF-8", "COLUMNS": "10000"})
    full_env.pop("LC_ALL", None)
    full_env.pop("LC_MESSAGES", None)
    if env:
        full_env.update(env)
    return subprocess.run([PYTHON, "-m", "lingjun.checks", *args], capture_output=True, text=True, env=full_env, timeout=timeout, cwd=str(REPO))
