"""The parts of a report both renderers share: area order and titles, severity labels, summary counts, exit code.

Exit codes (documented in ``lingjun-check --help``): 0 no error findings;
1 at least one error finding; 2 warnings and ``--strict``; 3 usage or
internal failure (decided by the CLI before any report exists).
"""

from __future__ import annotations

from typing import Iterable

from lingjun.checks.report.findings import SEVERITY_ORDER, Finding, Severity, Text

__all__ = ["AREAS", "AREA_TITLES", "SEVERITY_LABELS", "counts", "exit_code", "grouped", "EXIT_OK", "EXIT_ERRORS", "EXIT_WARNINGS", "EXIT_USAGE"]

EXIT_OK, EXIT_ERRORS, EXIT_WARNINGS, EXIT_USAGE = 0, 1, 2, 3

#: report sections in display order; findings of other areas follow in order of appearance
AREAS = ["evidence", "release", "driver", "cuda", "libraries", "python", "environment", "container", "config", "known-issues", "checker"]

AREA_TITLES = {
    # what the user's logs show comes first: an observed failure outranks every prediction
    "evidence": Text("Error lines in the logs", "日志中的错误行"),
    "release": Text("Release", "发布版本"),
    "driver": Text("Driver", "驱动"),
    "cuda": Text("CUDA", "CUDA"),
    # packages.* and libraries.* rules share the area "libraries" (as on the site's checker page)
    "libraries": Text("Packages and libraries", "软件包与动态库"),
    "python": Text("Python interpreter", "Python 解释器"),
    "environment": Text("Environment", "环境变量与网络"),
    "container": Text("Container resources and RDMA", "容器资源与 RDMA"),
    "config": Text("Configuration", "配置"),
    "known-issues": Text("Known issues", "已知问题"),
    "checker": Text("Checker", "检查器"),
}

SEVERITY_LABELS = {
    Severity.error: Text("ERROR", "错误"),
    Severity.warning: Text("WARN", "警告"),
    Severity.info: Text("INFO", "信息"),
    Severity.ok: Text("OK", "通过"),
    Severity.skipped: Text("SKIP", "跳过"),
}


def counts(findings: Iterable[Finding]) -> dict[str, int]:
    """Number of findings per severity value, every severity present (zeros included)."""
    out = {s.value: 0 for s in SEVERITY_ORDER}
    for finding in findings:
        out[finding.severity.value] += 1
    return out


def exit_code(findings: Iterable[Finding], strict: bool = False) -> int:
    """0, 1 or 2 for the findings (see the module docstring)."""
    tally = counts(findings)
    if tally["error"]:
        return EXIT_ERRORS
    if strict and tally["warning"]:
        return EXIT_WARNINGS
    return EXIT_OK


def grouped(findings: list[Finding]) -> list[tuple[str, list[Finding]]]:
    """``[(area, findings)]`` in :data:`AREAS` order, findings in rule order within an area."""
    areas = list(AREAS) + [f.area for f in findings if f.area not in AREAS]
    seen: list[str] = []
    for area in areas:
        if area not in seen:
            seen.append(area)
    return [(area, [f for f in findings if f.area == area]) for area in seen if any(f.area == area for f in findings)]
