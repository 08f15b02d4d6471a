"""env.nccl-socket-ifname-pod-size: the image's rule eth0 (1/2/4/8 GPUs per pod) / hpn0 (all 16 GPUs of a machine)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.carried import quoted_note, usage_note_for
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make

RULE = "env.nccl-socket-ifname-pod-size"
AREA = "environment"

#: GPUs per pod -> interface, as the release notes' usage note states it
_EXPECTED = {1: "eth0", 2: "eth0", 4: "eth0", 8: "eth0", 16: "hpn0"}

#: interface -> (en, zh): how a pod gets it, told instead of ``export`` when the container lacks it
#: (the usage note: hpn0 when a pod takes all 16 GPUs of a machine and can use the HPN network; eth0 is the pod's default)
_HOW_TO_GET = {
    "hpn0": ("A pod gets the HPN high-performance network interface hpn0 only when it requests all 16 GPUs of a machine: "
             "request 16 GPUs in the pod spec (and check --gpus-per-pod), and name hpn0 in NCCL_SOCKET_IFNAME once the pod has it. "
             "Until hpn0 exists, do not set it: a name that matches no interface makes NCCL fail.",
             "只有单个 Pod 申请整机全部 16 张卡时才会获得 HPN 高性能网络网卡 hpn0：请在 Pod 规格中申请 16 张卡（并核对 --gpus-per-pod），"
             "待 Pod 中出现 hpn0 后再把 NCCL_SOCKET_IFNAME 设为 hpn0。hpn0 出现之前不要设置它：匹配不到网卡的名称会使 NCCL 失败。"),
    "eth0": ("eth0 is the pod's default network interface and is missing here: check the pod's network configuration "
             "and point NCCL_SOCKET_IFNAME at the interface that carries the pod network (see env.nccl-socket-ifname).",
             "eth0 是 Pod 的默认网卡，本容器中却没有：请检查 Pod 的网络配置，并把 NCCL_SOCKET_IFNAME 设为承载 Pod 网络的网卡"
             "（见 env.nccl-socket-ifname）。"),
}


@rule(RULE, AREA, "NCCL interface fits the pod size", "NCCL 网卡与 Pod GPU 数匹配", order=220)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """Only for records whose usage notes carry this rule (stated, or carried from the family's earlier releases:
    :func:`lingjun.checks.knowledge.carried.usage_note_for`, quoted with its provenance): warning when NCCL_SOCKET_IFNAME is not the interface the
    note names for the pod's GPU count (``--gpus-per-pod``, else the visible GPUs); ok when it is."""
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    if note is None:
        return
    # a carried note says which releases state it: "the release asks" would claim this release's page says so
    asks_en = f"the family's release notes ask ({carried.provenance_en})" if carried else "the release asks"
    notes_zh = f"本系列发布说明（{carried.provenance_zh}）" if carried else "发布说明"
    # the warning quotes the note with its provenance, so its own sentence does not repeat it
    said_en, said_zh = ("the family's release notes ask", "本系列发布说明") if carried else ("the release asks", "发布说明")
    count = ctx.options.gpus_per_pod if ctx.options.gpus_per_pod else len(ctx.facts.gpus)
    src_en = "--gpus-per-pod" if ctx.options.gpus_per_pod else "visible GPUs"
    src_zh = "--gpus-per-pod 指定" if ctx.options.gpus_per_pod else "可见 GPU 数"
    if not count:
        yield make(ctx, RULE, AREA, Severity.skipped, "The pod's GPU count is unknown (no GPU visible); pass --gpus-per-pod.",
                   "无法得知 Pod 的 GPU 数量（看不到 GPU），请使用 --gpus-per-pod 指定。")
        return
    expected = _EXPECTED.get(count)
    if expected is None:
        yield make(ctx, RULE, AREA, Severity.info,
                   f"The release notes name an interface for pods of 1, 2, 4, 8 or 16 GPUs; this pod has {count} ({src_en}).",
                   f"发布说明只针对 1、2、4、8 或 16 卡的 Pod 给出网卡建议；当前 Pod 为 {count} 卡（{src_zh}）。", observed=str(count))
        return
    value = ctx.facts.env.get("NCCL_SOCKET_IFNAME")
    if value is None and not env_known(ctx.facts, "NCCL_SOCKET_IFNAME"):
        reason = unavailable_reason(ctx.facts, ["env"])
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"NCCL_SOCKET_IFNAME was not checked: {reason.en}. With {count} GPU(s) per pod ({src_en}) {asks_en} for {expected}.",
                   f"未检查 NCCL_SOCKET_IFNAME：{reason.zh}。每 Pod {count} 卡（{src_zh}）时{notes_zh}要求设为 {expected}。",
                   expected=expected)
        return
    quote_en, quote_zh = quoted_note(note, carried)
    have = [i.name for i in ctx.facts.network]
    # interfaces not probed (a collect_env paste): the name cannot be checked, the note is all there is
    absent = bool(have) and expected not in have
    if value is not None and value.strip() == expected and not absent:
        yield make(ctx, RULE, AREA, Severity.ok, f"NCCL_SOCKET_IFNAME={value} as {asks_en} for {count} GPU(s) per pod.",
                   f"NCCL_SOCKET_IFNAME={value}，符合{notes_zh}对每 Pod {count} 卡的要求。", observed=value, expected=expected)
        return
    missing_en = f" ({expected} is not among this container's interfaces: {', '.join(have)})" if absent else ""
    missing_zh = f"（本容器网卡中没有 {expected}，现有：{', '.join(have)}）" if absent else ""
    if absent and expected in _HOW_TO_GET:
        remedy = _HOW_TO_GET[expected]
    elif absent:
        remedy = (f"{expected} does not exist in this container; check the pod's network configuration before setting "
                  f"NCCL_SOCKET_IFNAME={expected}.",
                  f"本容器中没有 {expected}；设置 NCCL_SOCKET_IFNAME={expected} 之前请先检查 Pod 的网络配置。")
    else:
        remedy = (f"export NCCL_SOCKET_IFNAME={expected}", f"export NCCL_SOCKET_IFNAME={expected}")
    shown = value if value is not None else UNSET
    yield make(
        ctx, RULE, AREA, Severity.warning,
        f"NCCL_SOCKET_IFNAME is {value if value is not None else 'unset'}, but with {count} GPU(s) per pod ({src_en}) {said_en} for {expected}{missing_en}. "
        f"{quote_en}",
        f"NCCL_SOCKET_IFNAME {'当前为 ' + value if value is not None else '未设置'}，而每 Pod {count} 卡（{src_zh}）时{said_zh}要求设为 {expected}{missing_zh}。"
        f"{quote_zh}",
        remedy=remedy,
        observed=shown, expected=expected,
    )
