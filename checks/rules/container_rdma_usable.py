"""container.rdma-usable: the RDMA devices the node shows in sysfs can be used by NCCL inside the container.

NCCL's IB transport opens each device through its verbs node ``/dev/infiniband/uverbsN`` and uses only
ports whose state is ``ACTIVE``; a device it cannot open and a port that is down are skipped silently,
and with no port left NCCL falls back to TCP sockets, many times slower between nodes
(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/networking_troubleshooting.html,
"NIC-level diagnostics"; https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-disable).
A device shows up in ``/sys/class/infiniband`` whenever the host has it, even when the container was not
given its ``/dev/infiniband`` nodes.  Lingjun nodes bond their RoCE ports (``mlx5_bond_*``); Alibaba
Cloud's elastic RDMA shows up as ``erdma_*``: both are judged the same way.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import listing, make
from lingjun.checks.rules._words import Words, join
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, NCCL_NET_DOC, blocked, usable

RULE = "container.rdma-usable"
AREA = "container"

WORDS = Words({
    "remedy": (
        "Pass the RDMA devices into the container: request the node's RDMA device-plugin resource in the pod spec (or, with "
        "Docker, --device=/dev/infiniband/uverbsN for each device and --device=/dev/infiniband/rdma_cm) and bring the ports up "
        "(ibstat / ibv_devinfo on the node show their state). Check with NCCL_DEBUG=INFO that NCCL logs NET/IB, not NET/Socket.",
        "请把 RDMA 设备传入容器：在 Pod 规格中申请节点 RDMA 设备插件提供的资源（Docker 则为每个设备加 --device=/dev/infiniband/uverbsN，"
        "并加 --device=/dev/infiniband/rdma_cm），并确保端口处于 ACTIVE（在节点上用 ibstat / ibv_devinfo 查看）。"
        "可设置 NCCL_DEBUG=INFO，确认 NCCL 日志中是 NET/IB 而不是 NET/Socket。",
    ),
    "blocked": ("{device}: {why}", "{device}：{why}"),
    "no-active-port": ("{device}: no ACTIVE port ({ports})", "{device}：没有 ACTIVE 端口（{ports}）"),
    "port-state": ("port {port} {state}", "端口 {port} {state}"),
    "none-usable": (
        "The node has RDMA devices ({devices}) but none is usable in this container ({problems}): NCCL skips them "
        "without an error and falls back to TCP sockets, which is many times slower between nodes.",
        "节点上有 RDMA 设备（{devices}），但容器内都无法使用（{problems}）：NCCL 会不报错地跳过它们，回退到 TCP 套接字，"
        "节点间通信会慢很多倍。",
    ),
    "none-usable-brief": (
        "RDMA devices ({devices}) are not usable in this container: NCCL falls back to TCP sockets.",
        "RDMA 设备（{devices}）在容器内不可用：NCCL 会回退到 TCP 套接字。",
    ),
    "expected": (
        "a /dev/infiniband/uverbsN node and an ACTIVE port per device", "每个设备都有 /dev/infiniband/uverbsN 节点和一个 ACTIVE 端口",
    ),
    "some-skipped": ("NCCL can use {good}; it skips these: {problems}.", "NCCL 可以使用 {good}；以下设备会被跳过：{problems}。"),
    "no-known-port": ("none of the ports whose state is shown", "（已知状态的端口中）无"),
    "states-not-shown": (
        "Whether NCCL can use the RDMA devices was not judged: the port states of {devices} are not shown.",
        "未判断 NCCL 能否使用 RDMA 设备：看不到 {devices} 的端口状态。",
    ),
    "ok": ("RDMA ports usable by NCCL in this container: {ports}.", "容器内 NCCL 可用的 RDMA 端口：{ports}。"),
})


def _joined(texts: list[Text]) -> Text:
    """Problems listed: ``"; "`` between English ones, ``"；"`` between Chinese ones."""
    return Text("; ".join(t.en for t in texts), "；".join(t.zh for t in texts))


def _problems(ctx: CheckContext) -> tuple[list[Text], list[str]]:
    """``(why each unusable device is, devices whose port states are not shown)``."""
    problems, unknown = [], []
    for device in ctx.facts.rdma.devices:
        why = blocked(ctx.facts, device)
        if why is not None:
            problems.append(WORDS("blocked", device=device.name, why=why))
            continue
        states = [p for p in device.ports if p.state]
        if not states:
            unknown.append(device.name)
        elif not any(p.state.upper() == "ACTIVE" for p in states):
            described = [WORDS("port-state", port=p.port, state=p.state) for p in states]
            problems.append(WORDS("no-active-port", device=device.name, ports=join(described)))
    return problems, unknown


@rule(RULE, AREA, "RDMA devices usable in the container", "容器内 RDMA 设备可用", order=280, needs=("rdma",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when RDMA devices are in sysfs but none has an openable verbs node and an ACTIVE port (NCCL falls back to
    sockets); info when only some are unusable; ok when all are usable; skipped when no port state is shown; nothing
    when the container shows no RDMA device."""
    rdma = ctx.facts.rdma
    if not rdma.devices:
        return
    problems, unknown = _problems(ctx)
    good = ", ".join(str(dp) for dp in usable(ctx.facts))
    observed = _joined(problems) if problems else Text(good, good)
    if not good and problems and not unknown:
        all_names, short_en, short_zh = listing([d.name for d in rdma.devices])
        brief = WORDS("none-usable-brief", devices=Text(short_en, short_zh))
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("none-usable", devices=all_names, problems=_joined(problems)),
                   remedy=WORDS("remedy"), observed=observed, expected=WORDS("expected"),
                   links=[NCCL_NET_DOC, NCCL_ENV_DOC], brief=(brief.en, brief.zh))
    elif problems:
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("some-skipped", good=Text(good, good) if good else WORDS("no-known-port"), problems=_joined(problems)),
                   remedy=WORDS("remedy"), observed=observed, links=[NCCL_NET_DOC])
    elif not good:
        listed, _, _ = listing(unknown)
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("states-not-shown", devices=listed), observed=listed)
    else:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", ports=good), observed=observed)
