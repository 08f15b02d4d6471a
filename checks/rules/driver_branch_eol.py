"""driver.branch-eol: the host driver branch is past NVIDIA's end of life."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.driver_target import branch_end_of_life
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url

RULE = "driver.branch-eol"
AREA = "driver"


@rule(RULE, AREA, "Driver branch still supported", "驱动分支仍在支持期内", needs_gpu=True, order=90)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """info when the branch is end of life on ``options.today`` (its EOL month has passed; without a month, NVIDIA's
    table marks it end of life): :func:`~lingjun.checks.core.driver_target.branch_end_of_life`; ok otherwise."""
    from lingjun.checks.rules._driver_facts import kernel_driver

    if is_ppu(ctx.record):
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        from lingjun.checks.coverage import not_shown
        from lingjun.checks.rules._driver_facts import DRIVER_VERSION

        why = not_shown(ctx.facts, DRIVER_VERSION)
        yield make(ctx, RULE, AREA, Severity.skipped, f"The driver branch was not checked: {why.en}.",
                   f"未检查驱动分支：{why.zh}。")
        return
    from lingjun.checks.core.driver_target import branch_row

    row = branch_row(ctx.data.driver_branches, driver.branch)
    link = nvidia_url(ctx, "branches")
    if row is None:
        yield make(ctx, RULE, AREA, Severity.info,
                   f"Driver branch R{driver.branch} is not in NVIDIA's data center branch list; its support status is unknown.",
                   f"驱动分支 R{driver.branch} 不在 NVIDIA 数据中心驱动分支列表中，无法判断其支持状态。",
                   observed=f"R{driver.branch}", links=[link])
        return
    past = branch_end_of_life(row, ctx.options.today)
    when = f" (end of life {row['eol']})" if row.get("eol") else ""
    when_zh = f"（{row['eol']} 终止支持）" if row.get("eol") else ""
    if not row.get("eol") and row.get("eol_undated") == "new-feature":
        when, when_zh = " (no end-of-life date: a new-feature branch)", "（无停止支持日期：新功能分支）"
    if past:
        from lingjun.checks.rules._driver_facts import driver_fix_text

        up = driver_fix_text(ctx)
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Driver branch R{driver.branch} is past end of life{when}; it no longer gets fixes.",
            f"驱动分支 R{driver.branch} 已终止支持{when_zh}，不再获得修复。",
            remedy=(f"Plan an upgrade of the host driver to {up.en}, a branch NVIDIA still supports.",
                    f"请计划把宿主机驱动升级到 {up.zh}（NVIDIA 仍在支持的分支）。"),
            observed=f"R{driver.branch}", links=[link],
        )
        return
    yield make(ctx, RULE, AREA, Severity.ok, f"Driver branch R{driver.branch} is supported{when}.",
               f"驱动分支 R{driver.branch} 仍在支持期内{when_zh}。", observed=f"R{driver.branch}", links=[link])
