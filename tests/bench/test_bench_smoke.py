"""Every script in bench/ runs at a tiny size, exits 0 and prints its figures.

A benchmark is run by hand, seldom: one the code has left behind (a gate rule its synthetic records break, a
module it loads the wrong way) fails here, in the suite, not the next time someone wants its numbers.  The
sizes are the smallest that take each script through all of its stages; the figures are not judged (the
machine runs other tests meanwhile: the scripts' timing targets are left out, ``--no-target`` or ``--python``),
only that there are figures.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"

#: script -> the arguments of a tiny run ("{tmp}": a fresh temporary folder)
TINY = {
    # the current interpreter instead of a benchmark venv with torch (which takes minutes to make)
    "check.py": ["--python", sys.executable, "--runs", "1", "--cache", "{tmp}"],
    "configmap_size.py": ["--releases", "tests/fixtures/kb"],
    "finder.py": ["--synthetic", "3"],
    "fleet.py": ["--identical", "12", "--distinct", "12", "--packages", "40", "--runs", "1", "--no-target"],
    "import_page.py": ["--runs", "1", "--no-target"],  # its 1 s per page is judged on an idle machine
    "log_scan.py": ["--mib", "2", "--no-target"],
    "site.py": ["--synthetic", "1", "--repeat", "1", "--no-real"],
    "snapshot_scale.py": ["--sizes", "100"],
    "startup.py": ["--python", sys.executable, "--runs", "1", "--cache", "{tmp}"],
    "validate.py": ["--sizes", "5"],
}

#: a figure as the scripts print them: seconds, milliseconds, ratios, percentages ("0.17", "191.1 ms", "41.2%")
FIGURE = re.compile(r"\b\d+\.\d+\b")


def test_every_bench_script_has_a_tiny_run():
    assert sorted(p.name for p in BENCH.glob("*.py")) == sorted(TINY)


@pytest.mark.parametrize("script", sorted(TINY))
def test_bench_script_runs_at_a_tiny_size_and_prints_figures(script, tmp_path):
    args = [arg.replace("{tmp}", str(tmp_path / "cache")) for arg in TINY[script]]
    env = {k: v for k, v in os.environ.items() if k not in ("LINGJUN_KB_SITE_URL", "LINGJUN_RELEASE")}
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=REPO, capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert FIGURE.search(done.stdout), done.stdout
    assert "Traceback" not in done.stderr, done.stderr
