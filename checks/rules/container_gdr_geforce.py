"""container.gdr-geforce: GPUDirect RDMA asked for on GeForce GPUs, which do not support it.

Facts and the documents they come from:

* GPUDirect RDMA is available on data center (Tesla) and professional (Quadro / RTX) GPUs only, not on GeForce:
  NVIDIA's GPUDirect RDMA guide, https://docs.nvidia.com/cuda/gpudirect-rdma/ ("GPUDirect RDMA is available on both
  Tesla and Quadro GPUs").
* NCCL uses GPUDirect RDMA between a NIC and a GPU up to the distance ``NCCL_NET_GDR_LEVEL`` allows; ``LOC`` never uses
  it, so network traffic is staged through host memory:
  https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-net-gdr-level-formerly-nccl-ib-gdr-level .

Evidence (never a guess): GeForce GPUs, RDMA devices in the container, and either an NCCL setting that asks for GPUDirect
RDMA (``NCCL_NET_GDR_LEVEL`` other than ``LOC``/``0``, ``NCCL_NET_GDR_READ=1``) or a memory-registration error line.
"""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import GPU_CONSUMER, gpu_class
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "container.gdr-geforce"
AREA = "container"
GDR_DOC = "https://docs.nvidia.com/cuda/gpudirect-rdma/"
NCCL_GDR_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-net-gdr-level-formerly-nccl-ib-gdr-level"
_REG_FAIL = re.compile(r"ibv_reg_(?:dmabuf_)?mr|failed to register|nv_peer_mem|nvidia[-_]peermem|GDR.{0,30}(?:fail|error)", re.IGNORECASE)


WORDS = Words({
    "no-geforce": ("GeForce GPUs", "GeForce GPU"),
    "no-rdma": ("RDMA devices", "RDMA 设备"),
    "not-judged": ("GPUDirect RDMA on GeForce not judged: the input shows no {what}.",
                   "未判断 GeForce 上的 GPUDirect RDMA：输入中没有{what}。"),
    "off": ("GPUDirect RDMA is off (NCCL_NET_GDR_LEVEL={level}) on the GeForce GPUs ({gpus}).",
            "GeForce GPU（{gpus}）上已关闭 GPUDirect RDMA（NCCL_NET_GDR_LEVEL={level}）。"),
    "no-sign": ("GeForce GPUs ({gpus}) and RDMA devices ({devices}) are present, but neither an NCCL GPUDirect RDMA setting nor a "
                "registration failure is shown, so whether GPUDirect RDMA is attempted was not judged.",
                "存在 GeForce GPU（{gpus}）和 RDMA 设备（{devices}），但既没有 NCCL 的 GPUDirect RDMA 设置，也没有注册失败，未判断是否尝试了 GPUDirect RDMA。"),
    "remedy": ("Turn GPUDirect RDMA off so that NCCL stages network transfers through host memory: export NCCL_NET_GDR_LEVEL=LOC "
               "(and unset NCCL_NET_GDR_READ); expect lower inter-node bandwidth. For GPUDirect RDMA, use data center GPUs "
               "(A100, H100, H20, L40S).",
               "关闭 GPUDirect RDMA，让 NCCL 经主机内存中转网络传输：export NCCL_NET_GDR_LEVEL=LOC（并取消 NCCL_NET_GDR_READ）；"
               "跨节点带宽会降低。如需 GPUDirect RDMA，请使用数据中心 GPU（A100、H100、H20、L40S）。"),
    "failing": ("GPUDirect RDMA is asked for ({shown}) between the RDMA devices ({devices}) and GeForce GPUs ({gpus}), "
                "which do not support it (NVIDIA supports it on data center and professional GPUs only): the input shows the "
                "registration failing.",
                "在 RDMA 设备（{devices}）与 GeForce GPU（{gpus}）之间请求了 GPUDirect RDMA（{shown}），"
                "而 GeForce 不支持它（NVIDIA 只在数据中心与专业 GPU 上支持）：输入中已出现注册失败。"),
    "asked": ("GPUDirect RDMA is asked for ({shown}) between the RDMA devices ({devices}) and GeForce GPUs ({gpus}), "
              "which do not support it (NVIDIA supports it on data center and professional GPUs only): registering GPU memory "
              "with the NIC may fail, or NCCL falls back to host staging.",
              "在 RDMA 设备（{devices}）与 GeForce GPU（{gpus}）之间请求了 GPUDirect RDMA（{shown}），"
              "而 GeForce 不支持它（NVIDIA 只在数据中心与专业 GPU 上支持）：向网卡注册 GPU 内存可能失败，或 NCCL 回退为经主机内存中转。"),
})


def _asks_for_gdr(env: dict) -> list[str]:
    out = []
    level = env.get("NCCL_NET_GDR_LEVEL", env.get("NCCL_IB_GDR_LEVEL"))
    if level is not None and level.strip().upper() not in ("LOC", "0", ""):
        out.append(f"NCCL_NET_GDR_LEVEL={level}")
    if env.get("NCCL_NET_GDR_READ", "").strip() == "1":
        out.append("NCCL_NET_GDR_READ=1")
    return out


@rule(RULE, AREA, "No GPUDirect RDMA on GeForce GPUs", "消费级 GPU 上不使用 GPU 与网卡直连的 RDMA", order=297, needs=("rdma",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when GeForce GPUs and RDMA devices meet a registration failure, warning when only NCCL's GDR settings ask
    for it; ok with GPUDirect RDMA turned off (NCCL_NET_GDR_LEVEL=LOC); skipped without GeForce GPUs, RDMA devices or
    any sign of GPUDirect RDMA."""
    facts = ctx.facts
    geforce = sorted({g.name or f"GPU {g.index}" for g in facts.gpus if gpu_class(g.name, g.brand, ctx.data.gpus) == GPU_CONSUMER})
    if not geforce or not facts.rdma.devices:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-judged", what=WORDS("no-geforce" if not geforce else "no-rdma")))
        return
    settings = _asks_for_gdr(facts.env)
    failure = next((e[:200] for e in facts.symptoms.errors if _REG_FAIL.search(e)), None)
    level = facts.env.get("NCCL_NET_GDR_LEVEL", "").strip().upper()
    gpus = ", ".join(geforce[:3])
    devices = ", ".join(d.name for d in facts.rdma.devices[:4])
    if level in ("LOC", "0") and failure is None:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("off", level=level, gpus=gpus))
        return
    if not settings and failure is None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-sign", gpus=gpus, devices=devices))
        return
    shown = "; ".join(settings + ([f"\"{failure}\""] if failure else []))
    severity, key = (Severity.error, "failing") if failure else (Severity.warning, "asked")
    yield make(ctx, RULE, AREA, severity, WORDS(key, shown=shown, devices=devices, gpus=gpus), remedy=WORDS("remedy"),
               observed=Text(shown, shown), links=[GDR_DOC, NCCL_GDR_DOC])
