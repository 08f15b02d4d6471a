"""container.nccl-ib-gid-index: NCCL_IB_GID_INDEX points at a RoCE v2 entry of every RoCE port NCCL will use.

On RoCE (link layer Ethernet) NCCL addresses its peers through the GID table entry ``NCCL_IB_GID_INDEX``
(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-gid-index; -1, the default
since NCCL 2.21, lets NCCL choose).  The entry's type is in
``/sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/<index>``: ``RoCE v2`` is routable over IP,
``IB/RoCE v1`` is not (NCCL's ``NCCL_IB_ROCE_VERSION_NUM`` defaults to 2), and an empty entry has no
address at all, so connections cannot be set up.  The GID values themselves are identifiers and are not
needed: only the types are read.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, hca_filtered, usable

RULE = "container.nccl-ib-gid-index"
AREA = "container"
VAR = "NCCL_IB_GID_INDEX"


@rule(RULE, AREA, "NCCL_IB_GID_INDEX selects a RoCE v2 entry", "NCCL_IB_GID_INDEX 指向 RoCE v2 条目", order=295, needs=("env", "rdma"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the index is past the GID table or its entry is empty on a RoCE port NCCL uses; warning for a RoCE v1
    entry or a value that is not a number; ok for RoCE v2 on every such port; skipped when no GID types are shown;
    nothing when unset, -1, or no usable RoCE port."""
    value = (ctx.facts.env.get(VAR) or "").strip()
    if not value:
        return
    try:
        index = int(value)
    except ValueError:
        yield make(ctx, RULE, AREA, Severity.warning, f"{VAR}={value} is not a number; NCCL expects a GID table index.",
                   f"{VAR}={value} 不是数字；NCCL 需要一个 GID 表索引。",
                   remedy=(f"Set {VAR} to the index of a RoCE v2 entry (show_gids lists them), or unset it.",
                           f"请把 {VAR} 设为 RoCE v2 条目的索引（可用 show_gids 查看），或取消设置。"), observed=value, links=[NCCL_ENV_DOC])
        return
    if index < 0:
        return
    roce = [dp for dp in hca_filtered(ctx.facts, usable(ctx.facts)) if (dp.port.link_layer or "").lower() == "ethernet"]
    if not roce:
        return
    empty, v1, v2, unknown = [], [], [], []
    for dp in roce:
        types = dp.port.gid_types
        if not types:
            unknown.append(str(dp))
        elif index >= len(types) or not types[index].strip():
            empty.append(str(dp))
        elif "v2" in types[index].lower():
            v2.append(str(dp))
        else:
            v1.append(f"{dp} ({types[index]})")
    remedy = (f"Set {VAR} to the index of a RoCE v2 entry that holds the port's IP address (show_gids, or "
              "/sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/), or unset it so NCCL chooses.",
              f"请把 {VAR} 设为端口 IP 地址所在的 RoCE v2 条目索引（用 show_gids 或 /sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/ 查看），"
              "或取消设置，让 NCCL 自行选择。")
    if empty:
        yield make(ctx, RULE, AREA, Severity.error,
                   f"{VAR}={index} points at an empty GID entry on {', '.join(empty)}: NCCL cannot set up RoCE connections through it.",
                   f"{VAR}={index} 在 {', '.join(empty)} 上指向空的 GID 条目：NCCL 无法通过它建立 RoCE 连接。",
                   remedy=remedy, observed=value, expected="a RoCE v2 entry", links=[NCCL_ENV_DOC])
    if v1:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={index} selects a RoCE v1 entry on {', '.join(v1)}: RoCE v1 is not routed over IP, so traffic "
                   f"between subnets fails; NCCL expects RoCE v2 by default.",
                   f"{VAR}={index} 在 {', '.join(v1)} 上选中的是 RoCE v1 条目：RoCE v1 不能经 IP 路由，跨子网通信会失败；NCCL 默认使用 RoCE v2。",
                   remedy=remedy, observed=value, expected="a RoCE v2 entry", links=[NCCL_ENV_DOC])
    if v2 and not empty and not v1:
        yield make(ctx, RULE, AREA, Severity.ok, f"{VAR}={index} is a RoCE v2 entry on {', '.join(v2)}.",
                   f"{VAR}={index} 在 {', '.join(v2)} 上是 RoCE v2 条目。", observed=value)
    if unknown and not (empty or v1 or v2):
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"{VAR}={index} was not checked: the GID table types of {', '.join(unknown)} are not shown.",
                   f"未检查 {VAR}={index}：看不到 {', '.join(unknown)} 的 GID 表类型。", observed=value)
