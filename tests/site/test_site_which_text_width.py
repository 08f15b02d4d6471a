"""``lingjun-kb which`` text: wrapped to the terminal's width (``COLUMNS``, 80 off a terminal), words whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lingjun.checks.core.terminal_text import display_width

REPO = Path(__file__).resolve().parents[2]
#: the checker-rule tests' frozen knowledge base: every family, variants with long tags, cut-off driver texts
KB = REPO / "tests" / "fixtures" / "kb"


def _which(columns, *args):
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "which", "--driver", "535.183.01", "--gpu", "H20",
                           "--releases", str(KB), *args], capture_output=True, text=True, timeout=120, env=env, cwd=str(REPO))
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("columns", ["80", None])  # None: no COLUMNS and a pipe, so 80
def test_which_text_fits_80_columns_and_keeps_words_whole(columns):
    lines = _which(columns)
    assert max(display_width(line) for line in lines) <= 80
    wide = _which("10000")
    assert max(display_width(line) for line in wide) > 80  # so the 80 columns are the wrapping's doing
    # the same words in the same order: wrapping only moved line breaks, never cut a word
    assert " ".join(" ".join(lines).split()) == " ".join(" ".join(wide).split())
