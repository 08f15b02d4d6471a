"""driver.branch-eol: the host driver branch is past NVIDIA's end of life."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.driver_target import branch_end_of_life, branch_row
from lingjun.checks.coverage import not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import DRIVER_VERSION, driver_fix_text, kernel_driver
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._words import Words

RULE = "driver.branch-eol"
AREA = "driver"

WORDS = Words({
    "not-shown": ("The driver branch was not checked: {why}.", "未检查驱动分支：{why}。"),
    "not-listed": (
        "Driver branch R{branch} is not in NVIDIA's data center branch list; its support status is unknown.",
        "驱动分支 R{branch} 不在 NVIDIA 数据中心驱动分支列表中，无法判断其支持状态。",
    ),
    "when": (" (end of life {eol})", "（{eol} 终止支持）"),
    "when-new-feature": (" (no end-of-life date: a new-feature branch)", "（无停止支持日期：新功能分支）"),
    "past": (
        "Driver branch R{branch} is past end of life{when}; it no longer gets fixes.",
        "驱动分支 R{branch} 已终止支持{when}，不再获得修复。",
    ),
    "remedy": (
        "Plan an upgrade of the host driver to {up}, a branch NVIDIA still supports.",
        "请计划把宿主机驱动升级到 {up}（NVIDIA 仍在支持的分支）。",
    ),
    "ok": ("Driver branch R{branch} is supported{when}.", "驱动分支 R{branch} 仍在支持期内{when}。"),
})


def _when(row: dict) -> Text:
    """The end-of-life note after the branch: its EOL month, a new-feature branch's lack of one, or nothing."""
    if row.get("eol"):
        return WORDS("when", eol=row["eol"])
    if row.get("eol_undated") == "new-feature":
        return WORDS("when-new-feature")
    return Text("", "")


@rule(RULE, AREA, "Driver branch still supported", "驱动分支仍在支持期内", needs_gpu=True, order=90)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """info when the branch is end of life on ``options.today`` (its EOL month has passed; without a month, NVIDIA's
    table marks it end of life): :func:`~lingjun.checks.core.driver_target.branch_end_of_life`; ok otherwise."""
    if is_ppu(ctx.record):
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        why = not_shown(ctx.facts, DRIVER_VERSION)
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-shown", why=why))
        return

    row = branch_row(ctx.data.driver_branches, driver.branch)
    link = nvidia_url(ctx, "branches")
    if row is None:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("not-listed", branch=driver.branch),
                   observed=f"R{driver.branch}", links=[link])
        return
    past = branch_end_of_life(row, ctx.options.today)
    when = _when(row)
    if past:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("past", branch=driver.branch, when=when),
                   remedy=WORDS("remedy", up=driver_fix_text(ctx)), observed=f"R{driver.branch}", links=[link])
        return
    yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", branch=driver.branch, when=when),
               observed=f"R{driver.branch}", links=[link])
