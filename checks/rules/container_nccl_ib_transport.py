"""container.nccl-ib-transport: NCCL_IB_DISABLE and NCCL_NET agree with the RDMA devices the container can use.

From NCCL's environment-variable documentation
(https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html): ``NCCL_IB_DISABLE=1`` stops NCCL
from using the IB/RoCE transport, so it uses IP sockets instead; ``NCCL_NET`` forces one network
(``IB`` or ``Socket``, or a plugin's name), and NCCL fails when the forced network cannot be used
instead of falling back.  A usable port is one whose device has an openable verbs node and whose
state is ``ACTIVE``, narrowed by ``NCCL_IB_HCA`` when it is set.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._rdma import NCCL_ENV_DOC, hca_filtered, usable

RULE = "container.nccl-ib-transport"
AREA = "container"

WORDS = Words({
    "ib-and-disabled": ("NCCL_NET=IB forces the IB transport while NCCL_IB_DISABLE=1 disables it: NCCL cannot initialise its network.",
                        "NCCL_NET=IB 强制使用 IB 传输，而 NCCL_IB_DISABLE=1 又禁用了它：NCCL 无法初始化网络。"),
    "ib-and-disabled-remedy": ("Unset one of the two: NCCL_IB_DISABLE to use RDMA, NCCL_NET to let NCCL choose.",
                               "请取消其中一个：使用 RDMA 则取消 NCCL_IB_DISABLE，让 NCCL 自行选择则取消 NCCL_NET。"),
    "ib-unusable": ("NCCL_NET=IB forces the IB transport, but no RDMA port is usable in this container (devices: {names}); "
                    "NCCL fails at communicator creation instead of falling back to sockets.",
                    "NCCL_NET=IB 强制使用 IB 传输，但容器内没有可用的 RDMA 端口（现有设备：{names}）；NCCL 会在创建通信器时失败，而不会回退到套接字。"),
    "no-devices": ("none", "无"),
    "ib-unusable-remedy": ("Give the container its RDMA devices (see container.rdma-usable), or unset NCCL_NET.",
                           "请把 RDMA 设备传入容器（见 container.rdma-usable），或取消设置 NCCL_NET。"),
    "ib-unusable-expected": ("an ACTIVE port with a /dev/infiniband/uverbsN node", "一个带 /dev/infiniband/uverbsN 节点的 ACTIVE 端口"),
    "ib-ok": ("NCCL_NET=IB, and NCCL can use {ports}.", "NCCL_NET=IB，NCCL 可以使用 {ports}。"),
    "disabled": ("NCCL_IB_DISABLE=1 on a node whose container can use RDMA ({ports}): NCCL uses TCP sockets between nodes instead.",
                 "容器可以使用 RDMA（{ports}），但设置了 NCCL_IB_DISABLE=1：NCCL 在节点间改用 TCP 套接字。"),
    "disabled-remedy": ("Unset NCCL_IB_DISABLE unless sockets are wanted (for example while debugging the RDMA network).",
                        "除非有意使用套接字（例如排查 RDMA 网络时），请取消设置 NCCL_IB_DISABLE。"),
    "socket": ("NCCL_NET=Socket on a node whose container can use RDMA ({ports}): NCCL uses TCP sockets between nodes.",
               "容器可以使用 RDMA（{ports}），但设置了 NCCL_NET=Socket：NCCL 在节点间使用 TCP 套接字。"),
    "socket-remedy": ("Unset NCCL_NET unless sockets are wanted.", "除非有意使用套接字，请取消设置 NCCL_NET。"),
})


@rule(RULE, AREA, "NCCL's network choice matches the RDMA devices", "NCCL 的网络选择与 RDMA 设备一致", order=290, needs=("env", "rdma"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when NCCL_NET=IB while no RDMA port is usable (or NCCL_IB_DISABLE=1 too); info when NCCL_IB_DISABLE=1 or
    NCCL_NET=Socket on a node with usable RDMA; nothing when neither is set."""
    env = ctx.facts.env
    disabled = (env.get("NCCL_IB_DISABLE") or "").strip() == "1"
    net = (env.get("NCCL_NET") or "").strip()
    chosen = hca_filtered(ctx.facts, usable(ctx.facts))
    ports = ", ".join(str(dp) for dp in chosen)
    if net.upper() == "IB":
        yield _forced_ib(ctx, net, disabled, chosen, ports)
        return
    if not chosen:
        return
    if disabled:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("disabled", ports=ports), remedy=WORDS("disabled-remedy"),
                   observed="NCCL_IB_DISABLE=1", links=[NCCL_ENV_DOC])
    elif net.lower() == "socket":
        yield make(ctx, RULE, AREA, Severity.info, WORDS("socket", ports=ports), remedy=WORDS("socket-remedy"),
                   observed=f"NCCL_NET={net}", links=[NCCL_ENV_DOC])


def _forced_ib(ctx: CheckContext, net: str, disabled: bool, chosen: list, ports: str) -> Finding:
    """NCCL_NET=IB (``net`` as written): an error with NCCL_IB_DISABLE=1 or without a usable port, ok otherwise."""
    if disabled:
        return make(ctx, RULE, AREA, Severity.error, WORDS("ib-and-disabled"), remedy=WORDS("ib-and-disabled-remedy"),
                    observed="NCCL_NET=IB, NCCL_IB_DISABLE=1", links=[NCCL_ENV_DOC])
    if not chosen:
        names = ", ".join(d.name for d in ctx.facts.rdma.devices)
        return make(ctx, RULE, AREA, Severity.error, WORDS("ib-unusable", names=Text(names, names) if names else WORDS("no-devices")),
                    remedy=WORDS("ib-unusable-remedy"), observed=f"NCCL_NET={net}", expected=WORDS("ib-unusable-expected"),
                    links=[NCCL_ENV_DOC])
    return make(ctx, RULE, AREA, Severity.ok, WORDS("ib-ok", ports=ports), observed=f"NCCL_NET={net}")
