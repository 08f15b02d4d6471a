"""What a plain check (no log, no paste) leaves unimported: the log reader and the signatures' code."""

from __future__ import annotations

import subprocess
import sys


def test_a_plain_check_does_not_import_the_log_reader():
    script = ("import sys, runpy; sys.argv = ['lingjun-check', '--format', 'json', '--release', 'training-nv-pytorch:25.10']\n"
              "try:\n    runpy.run_module('lingjun.checks', run_name='__main__')\nexcept SystemExit:\n    pass\n"
              "sys.stderr.write(repr(sorted(m for m in sys.modules if m in ('lingjun.checks.inputs.log_file', "
              "'lingjun.checks.knowledge.signatures', 'lingjun.checks.knowledge.log_statements'))))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.stderr.strip().endswith("[]"), result.stderr[-500:]
