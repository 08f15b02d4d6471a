"""packages.missing: Python packages the release ships but this interpreter does not see."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.findings import Finding, Severity
from lingjun.checks.registry import rule
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import packages_probed, record_packages

RULE = "packages.missing"
AREA = "libraries"


@rule(RULE, AREA, "Release packages installed", "发布中的 Python 包均已安装")
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning per record component (pypi probe) that is not installed; ok when all are present."""
    if ctx.record is None:
        return
    if not packages_probed(ctx):
        yield make(ctx, RULE, AREA, Severity.skipped, "Installed Python packages were not probed.", "未探测已安装的 Python 包。")
        return
    present = 0
    for pkg in record_packages(ctx):
        if pkg.installed.version is None:
            yield make(
                ctx, RULE, AREA, Severity.warning,
                f"{pkg.catalog.get('name', pkg.id)} {pkg.published} is part of the release but not installed for this interpreter "
                f"(looked for {', '.join(pkg.names)}).",
                f"{pkg.catalog.get('name', pkg.id)} {pkg.published} 属于该发布，但当前解释器中未安装（查找了 {', '.join(pkg.names)}）。",
                remedy=("Use the image's own Python, and do not uninstall packages the image ships.",
                        "请使用镜像自带的 Python，不要卸载镜像自带的包。"),
                expected=pkg.published, links=[component_url(ctx, pkg.id, pkg.published)],
            )
        else:
            present += 1
    if present:
        yield make(ctx, RULE, AREA, Severity.ok, f"{present} release package(s) found installed.",
                   f"找到 {present} 个发布中的 Python 包。")
