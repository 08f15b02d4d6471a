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
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, NCCL_NET_DOC, blocked, usable

RULE = "container.rdma-usable"
AREA = "container"

_REMEDY = (
    "Pass the RDMA devices into the container: request the node's RDMA device-plugin resource in the pod spec (or, with "
    "Docker, --device=/dev/infiniband/uverbsN for each device and --device=/dev/infiniband/rdma_cm) and bring the ports up "
    "(ibstat / ibv_devinfo on the node show their state). Check with NCCL_DEBUG=INFO that NCCL logs NET/IB, not NET/Socket.",
    "请把 RDMA 设备传入容器：在 Pod 规格中申请节点 RDMA 设备插件提供的资源（Docker 则为每个设备加 --device=/dev/infiniband/uverbsN，"
    "并加 --device=/dev/infiniband/rdma_cm），并确保端口处于 ACTIVE（在节点上用 ibstat / ibv_devinfo 查看）。"
    "可设置 NCCL_DEBUG=INFO，确认 NCCL 日志中是 NET/IB 而不是 NET/Socket。",
)


@rule(RULE, AREA, "RDMA devices usable in the container", "容器内 RDMA 设备可用", order=280, needs=("rdma",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when RDMA devices are in sysfs but none has an openable verbs node and an ACTIVE port (NCCL falls back to
    sockets); info when only some are unusable; ok when all are usable; skipped when no port state is shown; nothing
    when the container shows no RDMA device."""
    rdma = ctx.facts.rdma
    if not rdma.devices:
        return
    problems_en, problems_zh, unknown = [], [], []
    for device in rdma.devices:
        why = blocked(ctx.facts, device)
        if why is not None:
            problems_en.append(f"{device.name}: {why.en}")
            problems_zh.append(f"{device.name}：{why.zh}")
            continue
        states = [p for p in device.ports if p.state]
        if not states:
            unknown.append(device.name)
        elif not any(p.state.upper() == "ACTIVE" for p in states):
            described = ", ".join(f"port {p.port} {p.state}" for p in states)
            problems_en.append(f"{device.name}: no ACTIVE port ({described})")
            described_zh = "，".join(f"端口 {p.port} {p.state}" for p in states)
            problems_zh.append(f"{device.name}：没有 ACTIVE 端口（{described_zh}）")
    good = usable(ctx.facts)
    names = [d.name for d in rdma.devices]
    all_names, short_en, short_zh = listing(names)
    good_text = ", ".join(str(dp) for dp in good)
    observed = Text("; ".join(problems_en) or good_text, "；".join(problems_zh) or good_text)
    if not good and problems_en and not unknown:
        full_en, full_zh = "; ".join(problems_en), "；".join(problems_zh)
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"The node has RDMA devices ({all_names}) but none is usable in this container ({full_en}): NCCL skips them "
            f"without an error and falls back to TCP sockets, which is many times slower between nodes.",
            f"节点上有 RDMA 设备（{all_names}），但容器内都无法使用（{full_zh}）：NCCL 会不报错地跳过它们，回退到 TCP 套接字，"
            f"节点间通信会慢很多倍。",
            remedy=_REMEDY, observed=observed, expected=Text("a /dev/infiniband/uverbsN node and an ACTIVE port per device",
                                                          "每个设备都有 /dev/infiniband/uverbsN 节点和一个 ACTIVE 端口"),
            links=[NCCL_NET_DOC, NCCL_ENV_DOC],
            brief=(f"RDMA devices ({short_en}) are not usable in this container: NCCL falls back to TCP sockets.",
                   f"RDMA 设备（{short_zh}）在容器内不可用：NCCL 会回退到 TCP 套接字。"),
        )
        return
    if problems_en:
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"NCCL can use {', '.join(str(dp) for dp in good) or 'none of the ports whose state is shown'}; "
            f"it skips these: {'; '.join(problems_en)}.",
            f"NCCL 可以使用 {', '.join(str(dp) for dp in good) or '（已知状态的端口中）无'}；以下设备会被跳过：{'；'.join(problems_zh)}。",
            remedy=_REMEDY, observed=observed, links=[NCCL_NET_DOC],
        )
        return
    if not good:
        listed, _, _ = listing(unknown)
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"Whether NCCL can use the RDMA devices was not judged: the port states of {listed} are not shown.",
                   f"未判断 NCCL 能否使用 RDMA 设备：看不到 {listed} 的端口状态。", observed=listed)
        return
    ports = ", ".join(str(dp) for dp in good)
    yield make(ctx, RULE, AREA, Severity.ok, f"RDMA ports usable by NCCL in this container: {ports}.",
               f"容器内 NCCL 可用的 RDMA 端口：{ports}。", observed=observed)
