"""cuda.p2p-topology: a multi-GPU job on GPUs linked only through PCIe host bridges or across CPU sockets, P2P left on.

NCCL's P2P transport moves data directly between GPUs over NVLink or PCIe.  Between GPUs that
``nvidia-smi topo -m`` shows as ``PHB`` (through a PCIe host bridge), ``NODE`` (between host bridges of one
NUMA node) or ``SYS`` (across the CPU sockets' interconnect), the peer-to-peer PCIe messages go through the
CPU's root complex, where PCI Access Control Services (ACS), the IOMMU or a virtual machine's configuration
redirect or block them: NCCL's troubleshooting guide names this as a cause of hangs and of very low bandwidth
(https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2262/user-guide/docs/troubleshooting.html#pci-access-control-services-acs).
An all-reduce then "hangs" (it runs many times slower, or not at all) until ``NCCL_P2P_DISABLE=1`` makes NCCL
use shared host memory instead (NVIDIA/nccl#199, #667).  ``NCCL_P2P_LEVEL`` bounds the distance at which P2P is
used (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-level).

A multi-GPU job is judged by: more than 2 GPUs in the matrix, ``--gpus-per-pod`` above 1, or ``LOCAL_WORLD_SIZE``
(torchrun's ranks on this node) above 1; the GPUs it uses are those ``CUDA_VISIBLE_DEVICES`` names by index,
else every GPU of the matrix.
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, not_shown
from lingjun.checks.facts import GpuLinkFacts
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._pod import env_int
from lingjun.checks.rules._words import Words

RULE = "cuda.p2p-topology"
AREA = "cuda"
NCCL_ACS_DOC = "https://docs.nvidia.com/deeplearning/nccl/archives/nccl_2262/user-guide/docs/troubleshooting.html#pci-access-control-services-acs"
NCCL_P2P_DISABLE_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-disable"
NCCL_P2P_LEVEL_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-level"
_P2P_VARS = ("NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL")
#: links through the CPU: a PCIe host bridge, host bridges of one NUMA node, the sockets' interconnect
HOST_LINKS = ("PHB", "NODE", "SYS")
#: NCCL_P2P_LEVEL values that keep P2P off the host paths (names, and the integer levels of NCCL's env docs)
_SAFE_LEVELS = frozenset({"LOC", "NVL", "PIX", "PXB", "0", "1", "2"})

WORDS = Words({
    "remedy": (
        "Set NCCL_P2P_DISABLE=1 for the job (docker run -e NCCL_P2P_DISABLE=1; in a pod spec, env: - name: NCCL_P2P_DISABLE, "
        "value: \"1\"): NCCL then passes GPU-to-GPU traffic through shared host memory, which does not hang but costs "
        "bandwidth (every transfer is copied through host memory and the CPU's memory bus). NCCL_P2P_LEVEL=PXB instead keeps "
        "P2P between GPUs behind the same PCIe switches and uses host memory only for pairs further apart. Where you control "
        "the host, disabling PCI ACS (BIOS or setpci) or the IOMMU for peer traffic, as NCCL's troubleshooting guide "
        "describes, restores direct P2P.",
        "为作业设置 NCCL_P2P_DISABLE=1（docker run -e NCCL_P2P_DISABLE=1；Pod 规格中 env: - name: NCCL_P2P_DISABLE，value: \"1\"）："
        "NCCL 会改用共享主机内存传递 GPU 之间的数据，不会卡住，但带宽下降（每次传输都经主机内存和 CPU 内存总线复制）。"
        "也可设置 NCCL_P2P_LEVEL=PXB，仅在同一 PCIe 交换芯片下的 GPU 之间使用 P2P，距离更远的 GPU 对改走主机内存。"
        "若能管理宿主机，按 NCCL 故障排查文档在 BIOS 或用 setpci 关闭 PCI ACS，或为对等传输关闭 IOMMU，即可恢复直接 P2P。"),
    "gpus": ("{count} GPUs", "{count} 块 GPU"),
    "no-matrix": ("How the GPUs are connected was not judged: nvidia-smi topo -m is not shown ({why}).",
                  "未判断 GPU 之间的互连方式：看不到 nvidia-smi topo -m 的输出（{why}）。"),
    "no-links": (
        "How the GPUs are connected was not judged: the matrix of nvidia-smi topo -m lists no link between "
        "the GPUs the job uses.",
        "未判断 GPU 之间的互连方式：nvidia-smi topo -m 的矩阵中没有作业所用 GPU 之间的连接。"),
    "vars-subject": ("whether NCCL_P2P_DISABLE or NCCL_P2P_LEVEL is set", "是否设置了 NCCL_P2P_DISABLE 或 NCCL_P2P_LEVEL"),
    "vars-not-shown": ("NCCL's P2P path was not judged: {reason}.", "未判断 NCCL 的 P2P 路径：{reason}。"),
    "nvlink": ("The GPUs the job uses ({why}) are connected through NVLink: {pairs}.",
               "作业所用的 GPU（{why}）之间通过 NVLink 连接：{pairs}。"),
    "limited": ("NCCL's P2P transport is limited for these PCIe-linked GPUs ({pairs}): {shown}.",
                "已为这些经 PCIe 连接的 GPU（{pairs}）限制 NCCL 的 P2P 传输：{shown}。"),
    "unset": ("NCCL_P2P_DISABLE and NCCL_P2P_LEVEL are unset", "未设置 NCCL_P2P_DISABLE 和 NCCL_P2P_LEVEL"),
    "still-allows": ("{vars} still allows P2P through the CPU", "{vars} 仍允许经 CPU 的 P2P"),
    "still-allow": ("{vars} still allow P2P through the CPU", "{vars} 仍允许经 CPU 的 P2P"),
    "through-host": (
        "The job uses several GPUs ({why}) that have no NVLink and are linked through the CPU ({host}) while "
        "{state}: on such PCIe paths NCCL's P2P transport can hang or run "
        "very slowly when PCI ACS or the IOMMU redirects peer traffic (tensor-parallel jobs then stop at their "
        "first all-reduce).",
        "作业使用多块 GPU（{why}），它们之间没有 NVLink，经 CPU 连接（{host}），且{state}："
        "在这类 PCIe 路径上，若 PCI ACS 或 IOMMU 重定向对等传输，NCCL 的 P2P 传输可能卡住或极慢"
        "（张量并行作业会停在第一次 all-reduce）。"),
    "through-host-expected": ("NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=PXB", "NCCL_P2P_DISABLE=1 或 NCCL_P2P_LEVEL=PXB"),
    "through-host-brief": ("GPUs without NVLink linked through the CPU, NCCL P2P on: NCCL may hang; set NCCL_P2P_DISABLE=1.",
                           "GPU 之间无 NVLink、经 CPU 连接且 NCCL P2P 开启：NCCL 可能卡住；请设置 NCCL_P2P_DISABLE=1。"),
    "switches": (
        "The GPUs the job uses ({why}) are linked through PCIe switches ({pairs}), without NVLink: "
        "NCCL uses P2P over them; if the job hangs at its first collective, PCI ACS on the switches is the usual "
        "cause (NCCL_P2P_DISABLE=1 works around it at a bandwidth cost).",
        "作业所用的 GPU（{why}）经 PCIe 交换芯片连接（{pairs}），没有 NVLink：NCCL 会在其上使用 P2P；"
        "若作业卡在第一次集合通信，通常是交换芯片上开启了 PCI ACS（可用 NCCL_P2P_DISABLE=1 绕过，但带宽下降）。"),
})


def _used_gpus(ctx: CheckContext, gpus: list[int]) -> list[int]:
    """The GPUs of the matrix the job uses: those ``CUDA_VISIBLE_DEVICES`` names by index, else all of them."""
    value = ctx.facts.env.get("CUDA_VISIBLE_DEVICES")
    if value is None or not value.strip():
        return gpus
    picked: list[int] = []
    for entry in value.split(","):
        entry = entry.strip()
        if not entry.isdigit() or int(entry) not in gpus:
            return gpus  # UUIDs, MIG names or an index the matrix lacks: not resolved here (cuda.visible-devices judges it)
        if int(entry) not in picked:
            picked.append(int(entry))
    return picked


def _multi_gpu(ctx: CheckContext, used: list[int]) -> Optional[Text]:
    """Why the job counts as multi-GPU ("3 GPUs", "--gpus-per-pod 2", "LOCAL_WORLD_SIZE=2"), or None."""
    if len(used) > 2:
        return WORDS("gpus", count=len(used))
    if ctx.options.gpus_per_pod and ctx.options.gpus_per_pod > 1 and len(used) > 1:
        return Text(f"--gpus-per-pod {ctx.options.gpus_per_pod}", f"--gpus-per-pod {ctx.options.gpus_per_pod}")
    local = env_int(ctx.facts, "LOCAL_WORLD_SIZE", minimum=0)
    if local is not None and local > 1 and len(used) > 1:
        return Text(f"LOCAL_WORLD_SIZE={local}", f"LOCAL_WORLD_SIZE={local}")
    return None


def _p2p_state(set_vars: list[str]) -> Text:
    """"NCCL_P2P_DISABLE and NCCL_P2P_LEVEL are unset", or the values set that still allow P2P over the CPU."""
    if not set_vars:
        return WORDS("unset")
    return WORDS("still-allows" if len(set_vars) == 1 else "still-allow", vars=Text(", ".join(set_vars), "、".join(set_vars)))


def _pairs(links: list[GpuLinkFacts]) -> str:
    """``GPU0-GPU1 PHB, GPU0-GPU2 SYS`` (at most 6 pairs, then the count of the rest)."""
    shown = [f"GPU{l.gpu_a}-GPU{l.gpu_b} {l.link}" for l in links[:6]]
    rest = len(links) - len(shown)
    return ", ".join(shown) + (f" (+{rest})" if rest else "")


def _judge(ctx: CheckContext, links: list[GpuLinkFacts], why_multi: Text) -> Optional[Finding]:
    """The used GPUs' links against NCCL's P2P variables (both shown); None with NVLink between only some of them."""
    env = ctx.facts.env
    pairs = _pairs(links)
    set_vars = [f"{name}={env[name]}" for name in _P2P_VARS if name in env]
    limited = env.get("NCCL_P2P_DISABLE", "").strip() == "1" or env.get("NCCL_P2P_LEVEL", "").strip().upper() in _SAFE_LEVELS
    if all(l.link.startswith("NV") for l in links):
        return make(ctx, RULE, AREA, Severity.ok, WORDS("nvlink", why=why_multi, pairs=pairs), observed=pairs)
    if limited:
        shown = ", ".join(set_vars)
        return make(ctx, RULE, AREA, Severity.ok, WORDS("limited", pairs=pairs, shown=shown), observed=shown)
    if any(l.link.startswith("NV") for l in links):
        return None  # NVLink between some of them: NCCL routes its rings over NVLink; not judged further here
    through_host = [l for l in links if l.link in HOST_LINKS]
    if not through_host:
        return make(ctx, RULE, AREA, Severity.info, WORDS("switches", why=why_multi, pairs=pairs), observed=pairs,
                    links=[NCCL_ACS_DOC])
    return make(ctx, RULE, AREA, Severity.warning,
                WORDS("through-host", why=why_multi, host=_pairs(through_host), state=_p2p_state(set_vars)),
                remedy=WORDS("remedy"), observed=pairs, expected=WORDS("through-host-expected"),
                links=[NCCL_ACS_DOC, NCCL_P2P_DISABLE_DOC, NCCL_P2P_LEVEL_DOC], brief=WORDS["through-host-brief"])


@rule(RULE, AREA, "GPU peer-to-peer path safe for NCCL", "GPU 之间的 P2P 路径适合 NCCL", needs_gpu=True, order=112,
      needs=("gpu-topology", "env"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when a multi-GPU job's GPUs have no NVLink and some pair is linked through a host bridge or across
    sockets (PHB/NODE/SYS) with NCCL_P2P_DISABLE and NCCL_P2P_LEVEL unset; info when only PCIe switches (PIX/PXB) link
    them; ok with NVLink, or when one of the variables is set; nothing for a single-GPU job; skipped when the matrix or
    the variables are not shown."""
    facts = ctx.facts
    topology = facts.gpu_topology
    if not topology.available or not topology.gpus:
        why = topology.error or "not read"
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-matrix", why=why), observed=why)
        return
    used = _used_gpus(ctx, topology.gpus)
    why_multi = _multi_gpu(ctx, used)
    if why_multi is None:
        return
    links = [l for l in topology.links if l.gpu_a in used and l.gpu_b in used]
    if not links:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-links"))
        return
    if not all(env_known(facts, name) for name in _P2P_VARS):
        reason = not_shown(facts, WORDS("vars-subject"))
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("vars-not-shown", reason=reason), observed=_pairs(links))
        return
    finding = _judge(ctx, links, why_multi)
    if finding is not None:
        yield finding
