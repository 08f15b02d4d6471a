"""packages.version-mismatch: installed Python package versions against the release record."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.rules._remedies import remedy_pair, restore_remedy
from lingjun.checks.core.version_match import same_version

RULE = "packages.version-mismatch"
AREA = "libraries"


@rule(RULE, AREA, "Package versions as released", "Python 包版本与发布一致", order=140, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning per installed record component whose version differs (PEP 440 comparison); info when unreadable;
    ok when all installed ones match."""
    if ctx.record is None:
        return
    matching = 0
    for pkg in record_packages(ctx):
        installed = pkg.installed.version
        if installed is None:
            continue
        same = same_version(pkg.published, installed)
        name = pkg.catalog.get("name", pkg.id)
        if same is None:
            yield make(ctx, RULE, AREA, Severity.info,
                       f"{name}: installed {installed!r} and published {pkg.published!r} cannot be compared.",
                       f"{name}：已安装版本 {installed!r} 与发布版本 {pkg.published!r} 无法比较。",
                       observed=installed, expected=pkg.published)
        elif same:
            matching += 1
        else:
            vendor = pkg.image_build
            yield make(
                ctx, RULE, AREA, Severity.warning,
                f"{name} is {installed}, the release ships {pkg.published}"
                + (" (an image-specific build; see packages.image-build-replaced)." if vendor else "."),
                f"{name} 当前为 {installed}，发布中为 {pkg.published}" + ("（镜像定制构建，见 packages.image-build-replaced）。" if vendor else "。"),
                remedy=remedy_pair(restore_remedy(ctx, [pkg])),
                observed=installed, expected=pkg.published, links=[component_url(ctx, pkg.id, pkg.published)],
            )
    if matching:
        yield make(ctx, RULE, AREA, Severity.ok, f"{matching} package(s) match the release versions.",
                   f"{matching} 个 Python 包与发布版本一致。")
