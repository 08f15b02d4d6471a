"""container.nccl-ib-gid-index: NCCL_IB_GID_INDEX points at a RoCE v2 entry of every RoCE port NCCL will use.

On RoCE (link layer Ethernet) NCCL addresses its peers through the GID table entry ``NCCL_IB_GID_INDEX``
(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-gid-index; -1, the default
since NCCL 2.21, lets NCCL choose).  The entry's type is in
``/sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/<index>``: ``RoCE v2`` is routable over IP,
``IB/RoCE v1`` is not (NCCL's ``NCCL_IB_ROCE_VERSION_NUM`` defaults to 2), and an empty entry has no
address at all, so connections cannot be set up.  The GID values themselves are identifiers and are not
needed: only the types are read.

NCCL reads the value with ``strtoll(value, nullptr, 0)`` (``ncclLoadParam``, :mod:`lingjun.checks.core.nccl_param`):
``010`` is 8, ``0x1`` is 1, ``3abc`` is 3, a value without digits is 0, and one out of the 64-bit range gives
the default; the rule judges the index NCCL uses.  The probe reads at most 32 GID entries per port
(``MAX_GID_ENTRIES``): an index past a list that long is not known, not empty.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core import nccl_param
from lingjun.checks.core.nccl_param import NCCL_PARAM_SOURCE
from lingjun.checks.probes.rdma import MAX_GID_ENTRIES
from lingjun.checks.report.findings import Finding, Severity, Text
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
    raw = ctx.facts.env.get(VAR)
    if not raw:
        return  # unset or empty: NCCL uses its default
    value = raw.strip()
    if len(value) > 40:  # shown cut short, with its length
        value = f"{value[:20]}… ({len(value)} characters)"
    read = nccl_param.read(raw)
    if read.value is None:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value} is out of NCCL's number range; NCCL ignores it (\"Invalid value\") and uses its default.",
                   f"{VAR}={value} 超出 NCCL 可读取的数值范围；NCCL 会忽略它（“Invalid value”）并使用默认值。",
                   remedy=(f"Set {VAR} to the index of a RoCE v2 entry (show_gids lists them), or unset it.",
                           f"请把 {VAR} 设为 RoCE v2 条目的索引（可用 show_gids 查看），或取消设置。"),
                   observed=value, links=[NCCL_ENV_DOC, NCCL_PARAM_SOURCE])
        return
    index = read.value
    if not read.digits:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value} is not a number; NCCL reads it as 0 (strtoll finds no digits) and uses GID index 0.",
                   f"{VAR}={value} 不是数字；NCCL 会把它读成 0（strtoll 读不到数字），即使用 GID 索引 0。",
                   remedy=(f"Set {VAR} to the index of a RoCE v2 entry (show_gids lists them), or unset it.",
                           f"请把 {VAR} 设为 RoCE v2 条目的索引（可用 show_gids 查看），或取消设置。"), observed=value,
                   links=[NCCL_ENV_DOC, NCCL_PARAM_SOURCE])
    if index < 0:
        return
    # how NCCL reads a value written in another base or with trailing characters (strtoll, base 0)
    reads_en = "" if read.literal or not read.digits else f" (NCCL reads {value} as {index})"
    reads_zh = "" if read.literal or not read.digits else f"（NCCL 把 {value} 读作 {index}）"
    roce = [dp for dp in hca_filtered(ctx.facts, usable(ctx.facts)) if (dp.port.link_layer or "").lower() == "ethernet"]
    if not roce:
        unknown_ports = [d.name for d in ctx.facts.rdma.devices if not d.ports or any(not p.state for p in d.ports)]
        if unknown_ports:
            yield make(ctx, RULE, AREA, Severity.skipped,
                       f"{VAR}={value} was not checked: the ports of {', '.join(unknown_ports)} (state, link layer) are not shown.",
                       f"未检查 {VAR}={value}：看不到 {', '.join(unknown_ports)} 的端口（状态、链路层）。", observed=value)
        return
    empty, v1, v2, unknown = [], [], [], []
    for dp in roce:
        types = dp.port.gid_types
        if not types or (index >= len(types) >= MAX_GID_ENTRIES):
            unknown.append(str(dp))  # none shown, or the list stops at the probe's cap before the index
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
                   f"{VAR}={value}{reads_en} points at an empty GID entry on {', '.join(empty)}: NCCL cannot set up RoCE connections through it.",
                   f"{VAR}={value}{reads_zh} 在 {', '.join(empty)} 上指向空的 GID 条目：NCCL 无法通过它建立 RoCE 连接。",
                   remedy=remedy, observed=value, expected=Text("a RoCE v2 entry", "RoCE v2 条目"), links=[NCCL_ENV_DOC])
    if v1:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"{VAR}={value}{reads_en} selects a RoCE v1 entry on {', '.join(v1)}: RoCE v1 is not routed over IP, so traffic "
                   f"between subnets fails; NCCL expects RoCE v2 by default.",
                   f"{VAR}={value}{reads_zh} 在 {', '.join(v1)} 上选中的是 RoCE v1 条目：RoCE v1 不能经 IP 路由，跨子网通信会失败；NCCL 默认使用 RoCE v2。",
                   remedy=remedy, observed=value, expected=Text("a RoCE v2 entry", "RoCE v2 条目"), links=[NCCL_ENV_DOC])
    if v2 and not empty and not v1:
        yield make(ctx, RULE, AREA, Severity.ok, f"{VAR}={value}{reads_en} is a RoCE v2 entry on {', '.join(v2)}.",
                   f"{VAR}={value}{reads_zh} 在 {', '.join(v2)} 上是 RoCE v2 条目。", observed=value)
    unknown_capped = any(len(dp.port.gid_types) >= MAX_GID_ENTRIES for dp in roce)
    if unknown and not (empty or v1 or v2):
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"{VAR}={value}{reads_en} was not checked: the GID table types of {', '.join(unknown)} are not shown"
                   f"{' up to that index' if unknown_capped else ''}.",
                   f"未检查 {VAR}={value}{reads_zh}：看不到 {', '.join(unknown)} {'该索引处' if unknown_capped else ''}的 GID 表类型。", observed=value)
