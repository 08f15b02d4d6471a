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
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, hca_filtered, ports, usable

RULE = "container.nccl-ib-hca"
AREA = "container"
VAR = "NCCL_IB_HCA"


WORDS = Words({
    "one-of": ("one of {names}", "{names} 之一"),
    "none": ("none", "无"),
    "remedy": (
        "Set {var} to devices the container has ({names}): a plain name is a prefix, '=' asks "
        "for exact names, ':N' picks a port, '^' excludes; or unset it to let NCCL use every ACTIVE port.",
        "请把 {var} 设为容器中存在的设备（{names}）：直接写名称为前缀匹配，'=' 为精确匹配，"
        "':N' 指定端口，'^' 为排除；或取消设置，让 NCCL 使用所有 ACTIVE 端口。",
    ),
    "no-port": (
        "{var}={value} is set but the container shows no RDMA device port: NCCL falls back to TCP sockets.",
        "设置了 {var}={value}，但容器中看不到任何 RDMA 设备端口：NCCL 会回退到 TCP 套接字。",
    ),
    "matches-unusable": (
        "it matches {ports}, none of them usable (no verbs node or not ACTIVE)",
        "它匹配到 {ports}，但均不可用（没有 verbs 节点或端口不是 ACTIVE）",
    ),
    "matches-nothing": ("it matches no device port", "它匹配不到任何设备端口"),
    "matches-nothing-space": (
        "it matches no device port; NCCL keeps spaces as part of the names, so a name with a space matches no device",
        "它匹配不到任何设备端口；NCCL 会把空格当作名称的一部分，带空格的名称匹配不到任何设备",
    ),
    "leaves-none": (
        "{var}={value} leaves NCCL no RDMA port ({why}; devices: {names}): NCCL falls back to TCP sockets without an error.",
        "{var}={value} 没有给 NCCL 留下可用的 RDMA 端口（{why}；现有设备：{names}）：NCCL 会不报错地回退到 TCP 套接字。",
    ),
    "missing": (
        "{var}={value} names {missing}, which the container does not have (devices: {names}); NCCL uses only {chosen}.",
        "{var}={value} 中的 {missing} 在容器中不存在（现有设备：{names}）；NCCL 只会使用 {chosen}。",
    ),
    "ok": ("{var}={value} gives NCCL {chosen}.", "{var}={value} 为 NCCL 选中 {chosen}。"),
})


def _listed(items: list) -> str:
    return ", ".join(str(item) for item in items)


@rule(RULE, AREA, "NCCL_IB_HCA names usable RDMA devices", "NCCL_IB_HCA 指向可用的 RDMA 设备", order=285, needs=("env", "rdma"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when NCCL_IB_HCA leaves no usable RDMA port (NCCL falls back to sockets) or names devices that do not
    exist; ok when every entry matches and a usable port remains; nothing when it is unset."""
    value = ctx.facts.env.get(VAR)
    if not value:
        return
    every = ports(ctx.facts)
    names = _listed([d.name for d in ctx.facts.rdma.devices])
    remedy = WORDS("remedy", var=VAR, names=Text(names, names) if names else WORDS("none"))
    if not every:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("no-port", var=VAR, value=value),
                   remedy=remedy, observed=value, links=[NCCL_ENV_DOC])
        return
    pattern = nccl_ib_hca.parse(value)
    chosen = hca_filtered(ctx.facts, usable(ctx.facts))
    expected = WORDS("one-of", names=_listed(every))
    if not chosen:
        matched = hca_filtered(ctx.facts, every)
        if matched:
            why = WORDS("matches-unusable", ports=_listed(matched))
        else:
            why = WORDS("matches-nothing-space" if "space" in pattern.notes else "matches-nothing")
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("leaves-none", var=VAR, value=value, why=why, names=names),
                   remedy=remedy, observed=repr(value) if "space" in pattern.notes else value, expected=expected, links=[NCCL_ENV_DOC])
        return
    missing = [] if pattern.exclude else nccl_ib_hca.unmatched(pattern, [dp.key for dp in every])
    if missing:
        yield make(ctx, RULE, AREA, Severity.warning,
                   WORDS("missing", var=VAR, value=value, missing=_listed(missing), names=names, chosen=_listed(chosen)),
                   remedy=remedy, observed=value, expected=expected, links=[NCCL_ENV_DOC])
        return
    yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", var=VAR, value=value, chosen=_listed(chosen)), observed=value)
