"""Shared helpers of the monitoring-format tests: run the checker in-process, parse its Prometheus text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from prometheus_client.parser import text_string_to_metric_families

from lingjun.checks.cli import main

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
#: real snapshots (public failure reports) the formats are tried on: every case of tests/fixtures/cases and reports,
#: and the red-team snapshots (hostile control characters included)
SNAPSHOTS = sorted(
    [p for p in (FIXTURES / "cases").glob("*.json") if p.name != "expected.json" and not p.name.endswith(".ds_config.json")]
    + [p for p in (FIXTURES / "reports").glob("*.json") if not p.name.endswith(".ds_config.json")]
    + [p for p in (FIXTURES / "redteam").glob("*.json") if p.name != "expected.json" and not p.name.endswith(".ds_config.json")]
)


def run(monkeypatch, capsys, *args: str, env: Optional[dict] = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``lingjun-check ARGS`` run in-process with a fixed locale and no colour."""
    for name in ("LINGJUN_RELEASE", "LC_ALL", "LC_MESSAGES", "LINGJUN_CHECK_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("NO_COLOR", "1")
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def samples(text: str) -> dict[str, list]:
    """``{metric family name: [Sample, ...]}`` as prometheus_client's parser reads ``text`` (raises on bad syntax)."""
    return {family.name: list(family.samples) for family in text_string_to_metric_families(text)}


def families(text: str) -> dict:
    """``{name: Metric}`` (type, documentation, samples) as prometheus_client's parser reads ``text``."""
    return {family.name: family for family in text_string_to_metric_families(text)}


def json_report(monkeypatch, capsys, *args: str) -> dict:
    """The ``--format json`` report of the same command line."""
    _, out, err = run(monkeypatch, capsys, "--format", "json", *args)
    assert out, err
    return json.loads(out)


def snapshot_copy(tmp_path: Path, source: Path, **changes) -> str:
    """A copy of the snapshot ``source`` in ``tmp_path`` with ``changes`` applied (``host_hostname=``, ``gpu_names=[...]``,
    ``driver_version=``); returns its path."""
    data = json.loads(source.read_text(encoding="utf-8"))
    if "host_hostname" in changes:
        data.setdefault("host", {})["hostname"] = changes["host_hostname"]
    if "gpu_names" in changes:
        data["nvml"]["gpus"] = [{"index": i, "name": name} for i, name in enumerate(changes["gpu_names"])]
    if "driver_version" in changes:
        data["nvml"]["driver_version"] = changes["driver_version"]
        data.setdefault("driver", {})["kernel_module_version"] = changes["driver_version"]
    path = tmp_path / f"{source.stem}-changed.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)
