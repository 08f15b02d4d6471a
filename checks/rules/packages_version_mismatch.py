"""packages.version-mismatch: installed Python package versions against the release record."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.rules._remedies import remedy_pair, restore_remedy
from lingjun.checks.rules._words import Words
from lingjun.checks.core.version_match import same_version

RULE = "packages.version-mismatch"
AREA = "libraries"

WORDS = Words({
    "uncomparable": (
        "{name}: installed {installed!r} and published {published!r} cannot be compared.",
        "{name}：已安装版本 {installed!r} 与发布版本 {published!r} 无法比较。",
    ),
    "differs": ("{name} is {installed}, the release ships {published}.", "{name} 当前为 {installed}，发布中为 {published}。"),
    "differs-image-build": (
        "{name} is {installed}, the release ships {published} (an image-specific build; see packages.image-build-replaced).",
        "{name} 当前为 {installed}，发布中为 {published}（镜像定制构建，见 packages.image-build-replaced）。",
    ),
    "ok": ("{matching} package(s) match the release versions.", "{matching} 个 Python 包与发布版本一致。"),
})


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
        name = pkg.catalog.label
        if same is None:
            yield make(ctx, RULE, AREA, Severity.info,
                       WORDS("uncomparable", name=name, installed=installed, published=pkg.published),
                       observed=installed, expected=pkg.published)
        elif same:
            matching += 1
        else:
            yield make(
                ctx, RULE, AREA, Severity.warning,
                WORDS("differs-image-build" if pkg.image_build else "differs", name=name, installed=installed,
                      published=pkg.published),
                remedy=remedy_pair(restore_remedy(ctx, [pkg])),
                observed=installed, expected=pkg.published, links=[component_url(ctx, pkg.id, pkg.published)],
            )
    if matching:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", matching=matching))
