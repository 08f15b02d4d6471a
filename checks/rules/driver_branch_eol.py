"""driver.branch-eol: the host driver branch is past NVIDIA's end of life."""

from __future__ import annotations

import datetime as dt
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url

RULE = "driver.branch-eol"
AREA = "driver"


def _month_end(text: Optional[str]) -> Optional[dt.date]:
    """Last day of a ``YYYY-MM`` month, or None."""
    try:
        year, month = (int(p) for p in str(text).split("-"))
        first_next = dt.date(year + month // 12, month % 12 + 1, 1)
    except (TypeError, ValueError):
        return None
    return first_next - dt.timedelta(days=1)


@rule(RULE, AREA, "Driver branch still supported", "驱动分支仍在支持期内", needs_gpu=True, order=90)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """info when the branch is end of life (flag, or its EOL month has passed at ``options.today``); ok otherwise."""
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
    row = next((b for b in ctx.data.driver_branches if isinstance(b, dict) and b.get("branch") == driver.branch), None)
    link = nvidia_url(ctx, "branches")
    if row is None:
        yield make(ctx, RULE, AREA, Severity.info,
                   f"Driver branch R{driver.branch} is not in NVIDIA's data center branch list; its support status is unknown.",
                   f"驱动分支 R{driver.branch} 不在 NVIDIA 数据中心驱动分支列表中，无法判断其支持状态。",
                   observed=f"R{driver.branch}", links=[link])
        return
    eol_date = _month_end(row.get("eol"))
    past = bool(row.get("end_of_life")) or (eol_date is not None and ctx.options.today > eol_date)
    when = f" (end of life {row['eol']})" if row.get("eol") else ""
    when_zh = f"（{row['eol']} 终止支持）" if row.get("eol") else ""
    if past:
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Driver branch R{driver.branch} is past end of life{when}; it no longer gets fixes.",
            f"驱动分支 R{driver.branch} 已终止支持{when_zh}，不再获得修复。",
            remedy=("Plan an upgrade to a supported branch (a long-term support branch for production).",
                    "请计划升级到仍受支持的分支（生产环境建议长期支持分支）。"),
            observed=f"R{driver.branch}", links=[link],
        )
        return
    yield make(ctx, RULE, AREA, Severity.ok, f"Driver branch R{driver.branch} is supported{when}.",
               f"驱动分支 R{driver.branch} 仍在支持期内{when_zh}。", observed=f"R{driver.branch}", links=[link])
