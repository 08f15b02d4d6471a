"""container.nccl-ib-hca: NCCL_IB_HCA names RDMA devices and ports that exist and are usable in the container.

NCCL reads ``NCCL_IB_HCA`` as a list of device-name prefixes with optional ``:port``, ``^`` to exclude and
``=`` for exact names (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-hca; the
syntax is implemented in :mod:`lingjun.checks.core.nccl_ib_hca`).  When the list leaves no usable port,
NCCL does not fail: it falls back to TCP sockets, many times slower between nodes.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core import nccl_ib_hca
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, hca_filtered, ports, usable

RULE = "container.nccl-ib-hca"
AREA = "container"
VAR = "NCCL_IB_HCA"


def _one_of(names: list[str]) -> Text:
    return Text(f"one of {', '.join(names)}", f"{', '.join(names)} 之一")


@rule(RULE, AREA, "NCCL_IB_HCA names usable RDMA devices", "NCCL_IB_HCA 指向可用的 RDMA 设备", order=285, needs=("env", "rdma"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when NCCL_IB_HCA leaves no usable RDMA port (NCCL falls back to sockets) or names devices that do not
    exist; ok when every entry matches and a usable port remains; nothing when it is unset."""
    value = ctx.facts.env.get(VAR)
    if not value:
        return
    every = ports(ctx.facts)
    names = [d.name for d in ctx.facts.rdma.devices]
    remedy = (f"Set {VAR} to devices the container has ({', '.join(names) or 'none'}): a plain name is a prefix, '=' asks "
              "for exact names, ':N' picks a port, '^' excludes; or unset it to let NCCL use every ACTIVE port.",
              f"请把 {VAR} 设为容器中存在的设备（{', '.join(names) or '无'}）：直接写名称为前缀匹配，'=' 为精确匹配，"
              "':N' 指定端口，'^' 为排除；或取消设置，让 NCCL 使用所有 ACTIVE 端口。")
    if not every:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value} is set but the container shows no RDMA device port: NCCL falls back to TCP sockets.",
                   f"设置了 {VAR}={value}，但容器中看不到任何 RDMA 设备端口：NCCL 会回退到 TCP 套接字。",
                   remedy=remedy, observed=value, links=[NCCL_ENV_DOC])
        return
    pattern = nccl_ib_hca.parse(value)
    missing = [] if pattern.exclude else [str(e) for e in nccl_ib_hca.unmatched(pattern, [dp.key for dp in every])]
    chosen = hca_filtered(ctx.facts, usable(ctx.facts))
    expected = _one_of([str(dp) for dp in every])
    if not chosen:
        matched = hca_filtered(ctx.facts, every)
        why_en = (f"it matches {', '.join(str(dp) for dp in matched)}, none of them usable (no verbs node or not ACTIVE)"
                  if matched else "it matches no device port")
        why_zh = (f"它匹配到 {', '.join(str(dp) for dp in matched)}，但均不可用（没有 verbs 节点或端口不是 ACTIVE）"
                  if matched else "它匹配不到任何设备端口")
        if "space" in pattern.notes and not matched:
            why_en += "; NCCL keeps spaces as part of the names, so a name with a space matches no device"
            why_zh += "；NCCL 会把空格当作名称的一部分，带空格的名称匹配不到任何设备"
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value} leaves NCCL no RDMA port ({why_en}; devices: {', '.join(names)}): NCCL falls back to TCP "
                   f"sockets without an error.",
                   f"{VAR}={value} 没有给 NCCL 留下可用的 RDMA 端口（{why_zh}；现有设备：{', '.join(names)}）：NCCL 会不报错地回退到 TCP 套接字。",
                   remedy=remedy, observed=repr(value) if "space" in pattern.notes else value, expected=expected, links=[NCCL_ENV_DOC])
        return
    if missing:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value} names {', '.join(missing)}, which the container does not have (devices: {', '.join(names)}); "
                   f"NCCL uses only {', '.join(str(dp) for dp in chosen)}.",
                   f"{VAR}={value} 中的 {', '.join(missing)} 在容器中不存在（现有设备：{', '.join(names)}）；"
                   f"NCCL 只会使用 {', '.join(str(dp) for dp in chosen)}。",
                   remedy=remedy, observed=value, expected=expected, links=[NCCL_ENV_DOC])
        return
    yield make(ctx, RULE, AREA, Severity.ok, f"{VAR}={value} gives NCCL {', '.join(str(dp) for dp in chosen)}.",
               f"{VAR}={value} 为 NCCL 选中 {', '.join(str(dp) for dp in chosen)}。", observed=value)
