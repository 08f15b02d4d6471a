"""Shared helpers of the red-team tests: run the checker's command line in-process and read its JSON report."""

from __future__ import annotations

import json
import marshal
from pathlib import Path
from typing import Optional

from lingjun.checks.cli import main

REPO = Path(__file__).resolve().parents[2]
REDTEAM = REPO / "tests" / "fixtures" / "redteam"


def json_copy(data):
    """A deep copy of JSON data (dicts, lists, strings, numbers, true/false, null): what ``copy.deepcopy``
    gives, in a third of its time (marshal), which the tests that copy the whole bundle hundreds of times need."""
    return marshal.loads(marshal.dumps(data))


def run_json(monkeypatch, capsys, *args: str, env: Optional[dict] = None) -> tuple[int, Optional[dict], str]:
    """(exit code, parsed JSON report or None, stderr) of ``lingjun-check --format json ARGS``.

    ``LINGJUN_CHECK_DEBUG=1`` is set so that an internal error raises instead of
    being turned into exit code 3: a test sees the traceback.
    """
    for name in ("LINGJUN_RELEASE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LINGJUN_CHECK_DEBUG", "1")
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    capsys.readouterr()
    code = main(["--format", "json", *args])
    out, err = capsys.readouterr()
    report = json.loads(out) if out.strip() else None
    return code, report, err


def severities(report: dict, rule_id: str) -> list[str]:
    """Severities of the findings of ``rule_id`` in a JSON report."""
    return [f["severity"] for f in report["findings"] if f["rule"] == rule_id]
