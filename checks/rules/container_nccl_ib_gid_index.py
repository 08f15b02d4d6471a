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
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, DevicePort, hca_filtered, usable

RULE = "container.nccl-ib-gid-index"
AREA = "container"
VAR = "NCCL_IB_GID_INDEX"

WORDS = Words({
    "out-of-range": (
        "{var}={value} is out of NCCL's number range; NCCL ignores it (\"Invalid value\") and uses its default.",
        "{var}={value} 超出 NCCL 可读取的数值范围；NCCL 会忽略它（“Invalid value”）并使用默认值。",
    ),
    "not-a-number": (
        "{var}={value} is not a number; NCCL reads it as 0 (strtoll finds no digits) and uses GID index 0.",
        "{var}={value} 不是数字；NCCL 会把它读成 0（strtoll 读不到数字），即使用 GID 索引 0。",
    ),
    "remedy-unreadable": (
        "Set {var} to the index of a RoCE v2 entry (show_gids lists them), or unset it.",
        "请把 {var} 设为 RoCE v2 条目的索引（可用 show_gids 查看），或取消设置。",
    ),
    # how NCCL reads a value written in another base or with trailing characters (strtoll, base 0)
    "reads-as": (" (NCCL reads {value} as {index})", "（NCCL 把 {value} 读作 {index}）"),
    "ports-not-shown": (
        "{var}={value} was not checked: the ports of {devices} (state, link layer) are not shown.",
        "未检查 {var}={value}：看不到 {devices} 的端口（状态、链路层）。",
    ),
    "remedy": (
        "Set {var} to the index of a RoCE v2 entry that holds the port's IP address (show_gids, or "
        "/sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/), or unset it so NCCL chooses.",
        "请把 {var} 设为端口 IP 地址所在的 RoCE v2 条目索引（用 show_gids 或 /sys/class/infiniband/<dev>/ports/<n>/gid_attrs/types/ 查看），"
        "或取消设置，让 NCCL 自行选择。",
    ),
    "expected": ("a RoCE v2 entry", "RoCE v2 条目"),
    "empty": (
        "{var}={value}{reads} points at an empty GID entry on {ports}: NCCL cannot set up RoCE connections through it.",
        "{var}={value}{reads} 在 {ports} 上指向空的 GID 条目：NCCL 无法通过它建立 RoCE 连接。",
    ),
    "v1": (
        "{var}={value}{reads} selects a RoCE v1 entry on {ports}: RoCE v1 is not routed over IP, so traffic "
        "between subnets fails; NCCL expects RoCE v2 by default.",
        "{var}={value}{reads} 在 {ports} 上选中的是 RoCE v1 条目：RoCE v1 不能经 IP 路由，跨子网通信会失败；NCCL 默认使用 RoCE v2。",
    ),
    "v2": ("{var}={value}{reads} is a RoCE v2 entry on {ports}.", "{var}={value}{reads} 在 {ports} 上是 RoCE v2 条目。"),
    "types-not-shown": (
        "{var}={value}{reads} was not checked: the GID table types of {ports} are not shown{capped}.",
        "未检查 {var}={value}{reads}：看不到 {ports} {capped}的 GID 表类型。",
    ),
    "up-to-index": (" up to that index", "该索引处"),
})

#: no words: an empty clause in both languages
_NOTHING = Text("", "")


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
    links = [NCCL_ENV_DOC, NCCL_PARAM_SOURCE]
    if read.value is None:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("out-of-range", var=VAR, value=value),
                   remedy=WORDS("remedy-unreadable", var=VAR), observed=value, links=links)
        return
    if not read.digits:  # NCCL goes on with index 0, which is judged below as well
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("not-a-number", var=VAR, value=value),
                   remedy=WORDS("remedy-unreadable", var=VAR), observed=value, links=links)
    if read.value < 0:
        return
    roce = [dp for dp in hca_filtered(ctx.facts, usable(ctx.facts)) if (dp.port.link_layer or "").lower() == "ethernet"]
    if not roce:
        unknown_ports = [d.name for d in ctx.facts.rdma.devices if not d.ports or any(not p.state for p in d.ports)]
        if unknown_ports:
            yield make(ctx, RULE, AREA, Severity.skipped,
                       WORDS("ports-not-shown", var=VAR, value=value, devices=", ".join(unknown_ports)), observed=value)
        return
    reads = _NOTHING if read.literal or not read.digits else WORDS("reads-as", value=value, index=read.value)
    yield from _judged(ctx, value, reads, roce, _classify(roce, read.value))


def _classify(roce: list[DevicePort], index: int) -> dict[str, list[str]]:
    """The RoCE ports by what their GID entry ``index`` is: ``empty`` (past the table or blank), ``v1`` (with its
    type), ``v2``, or ``unknown`` (no types shown, or the list stops at the probe's cap before the index)."""
    found: dict[str, list[str]] = {"empty": [], "v1": [], "v2": [], "unknown": []}
    for dp in roce:
        types = dp.port.gid_types
        if not types or (index >= len(types) >= MAX_GID_ENTRIES):
            found["unknown"].append(str(dp))
        elif index >= len(types) or not types[index].strip():
            found["empty"].append(str(dp))
        elif "v2" in types[index].lower():
            found["v2"].append(str(dp))
        else:
            found["v1"].append(f"{dp} ({types[index]})")
    return found


def _judged(ctx: CheckContext, value: str, reads: Text, roce: list[DevicePort], found: dict[str, list[str]]) -> Iterator[Finding]:
    """error for empty entries and warning for RoCE v1 ones (both when both occur); ok when every other port has
    RoCE v2; skipped when no port's entry is shown."""
    empty, v1, v2, unknown = found["empty"], found["v1"], found["v2"], found["unknown"]
    if empty:
        yield make(ctx, RULE, AREA, Severity.error, WORDS("empty", var=VAR, value=value, reads=reads, ports=", ".join(empty)),
                   remedy=WORDS("remedy", var=VAR), observed=value, expected=WORDS("expected"), links=[NCCL_ENV_DOC])
    if v1:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("v1", var=VAR, value=value, reads=reads, ports=", ".join(v1)),
                   remedy=WORDS("remedy", var=VAR), observed=value, expected=WORDS("expected"), links=[NCCL_ENV_DOC])
    if v2 and not empty and not v1:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("v2", var=VAR, value=value, reads=reads, ports=", ".join(v2)), observed=value)
    if unknown and not (empty or v1 or v2):
        capped = any(len(dp.port.gid_types) >= MAX_GID_ENTRIES for dp in roce)
        yield make(ctx, RULE, AREA, Severity.skipped,
                   WORDS("types-not-shown", var=VAR, value=value, reads=reads, ports=", ".join(unknown),
                         capped=WORDS("up-to-index") if capped else _NOTHING),
                   observed=value)
