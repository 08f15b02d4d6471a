"""``--help`` of every command fits 80 columns (issue 33): lingjun-check, lingjun-check fleet and each lingjun-kb
sub-command; a line may pass 80 only when it is one word that cannot be broken (an image address)."""

from __future__ import annotations

import subprocess
import sys

import pytest

COMMANDS = [
    ["-m", "lingjun.checks", "--help"],
    ["-m", "lingjun.checks", "fleet", "--help"],
    *[["-m", "lingjun.generator.cli", *sub, "--help"]
      for sub in ([], ["validate"], ["bundle"], ["which"], ["new"], ["import"], ["build"], ["serve"])],
]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[1:-1]) or "kb" for a in COMMANDS])
def test_help_fits_80_columns(args):
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          env={"COLUMNS": "80", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    wide = [line for line in done.stdout.splitlines() if len(line) > 80 and len(line.split()) > 1]
    assert wide == [] and done.stdout.count("\n") > 5
