"""env.nccl-socket-ifname-pod-size: the image's rule eth0 (1/2/4/8 GPUs per pod) / hpn0 (all 16 GPUs of a machine)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.carried import quoted_note, usage_note_for
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make
from lingjun.checks.rules._words import Words

RULE = "env.nccl-socket-ifname-pod-size"
AREA = "environment"

#: GPUs per pod -> interface, as the release notes' usage note states it
_EXPECTED = {1: "eth0", 2: "eth0", 4: "eth0", 8: "eth0", 16: "hpn0"}

WORDS = Words({
    # a carried note says which releases state it: "the release asks" would claim this release's page says so
    "asks-carried": ("the family's release notes ask ({provenance})", "本系列发布说明（{provenance}）"),
    "asks-own": ("the release asks", "发布说明"),
    # the warning quotes the note with its provenance, so its own sentence does not repeat it
    "said-carried": ("the family's release notes ask", "本系列发布说明"),
    "said-own": ("the release asks", "发布说明"),
    "from-option": ("--gpus-per-pod", "--gpus-per-pod 指定"),
    "from-visible": ("visible GPUs", "可见 GPU 数"),
    "count-unknown": (
        "The pod's GPU count is unknown (no GPU visible); pass --gpus-per-pod.", "无法得知 Pod 的 GPU 数量（看不到 GPU），请使用 --gpus-per-pod 指定。",
    ),
    "count-not-named": (
        "The release notes name an interface for pods of 1, 2, 4, 8 or 16 GPUs; this pod has {count} ({source}).",
        "发布说明只针对 1、2、4、8 或 16 卡的 Pod 给出网卡建议；当前 Pod 为 {count} 卡（{source}）。",
    ),
    "not-checked": (
        "NCCL_SOCKET_IFNAME was not checked: {reason}. With {count} GPU(s) per pod ({source}) {asks} for {expected}.",
        "未检查 NCCL_SOCKET_IFNAME：{reason}。每 Pod {count} 卡（{source}）时{asks}要求设为 {expected}。",
    ),
    "ok": (
        "NCCL_SOCKET_IFNAME={value} as {asks} for {count} GPU(s) per pod.",
        "NCCL_SOCKET_IFNAME={value}，符合{asks}对每 Pod {count} 卡的要求。",
    ),
    "have-set": ("{value}", "当前为 {value}"),
    "have-unset": ("unset", "未设置"),
    "missing": (" ({expected} is not among this container's interfaces: {have})", "（本容器网卡中没有 {expected}，现有：{have}）"),
    "mismatch": (
        "NCCL_SOCKET_IFNAME is {value}, but with {count} GPU(s) per pod ({source}) {said} for {expected}{missing}. {quote}",
        "NCCL_SOCKET_IFNAME {value}，而每 Pod {count} 卡（{source}）时{said}要求设为 {expected}{missing}。{quote}",
    ),
    "remedy-export": ("export NCCL_SOCKET_IFNAME={expected}", "export NCCL_SOCKET_IFNAME={expected}"),
    "remedy-absent": (
        "{expected} does not exist in this container; check the pod's network configuration before setting "
        "NCCL_SOCKET_IFNAME={expected}.",
        "本容器中没有 {expected}；设置 NCCL_SOCKET_IFNAME={expected} 之前请先检查 Pod 的网络配置。",
    ),
    # interface -> how a pod gets it, told instead of ``export`` when the container lacks it (the usage note: hpn0
    # when a pod takes all 16 GPUs of a machine and can use the HPN network; eth0 is the pod's default)
    "remedy-absent-hpn0": (
        "A pod gets the HPN high-performance network interface hpn0 only when it requests all 16 GPUs of a machine: "
        "request 16 GPUs in the pod spec (and check --gpus-per-pod), and name hpn0 in NCCL_SOCKET_IFNAME once the pod has it. "
        "Until hpn0 exists, do not set it: a name that matches no interface makes NCCL fail.",
        "只有单个 Pod 申请整机全部 16 张卡时才会获得 HPN 高性能网络网卡 hpn0：请在 Pod 规格中申请 16 张卡（并核对 --gpus-per-pod），"
        "待 Pod 中出现 hpn0 后再把 NCCL_SOCKET_IFNAME 设为 hpn0。hpn0 出现之前不要设置它：匹配不到网卡的名称会使 NCCL 失败。",
    ),
    "remedy-absent-eth0": (
        "eth0 is the pod's default network interface and is missing here: check the pod's network configuration "
        "and point NCCL_SOCKET_IFNAME at the interface that carries the pod network (see env.nccl-socket-ifname).",
        "eth0 是 Pod 的默认网卡，本容器中却没有：请检查 Pod 的网络配置，并把 NCCL_SOCKET_IFNAME 设为承载 Pod 网络的网卡"
        "（见 env.nccl-socket-ifname）。",
    ),
})


@rule(RULE, AREA, "NCCL interface fits the pod size", "NCCL 网卡与 Pod GPU 数匹配", order=220)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """Only for records whose usage notes carry this rule (stated, or carried from the family's earlier releases:
    :func:`lingjun.checks.knowledge.carried.usage_note_for`, quoted with its provenance): warning when NCCL_SOCKET_IFNAME is not the interface the
    note names for the pod's GPU count (``--gpus-per-pod``, else the visible GPUs); ok when it is."""
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    if note is None:
        return
    count = ctx.options.gpus_per_pod if ctx.options.gpus_per_pod else len(ctx.facts.gpus)
    source = WORDS("from-option" if ctx.options.gpus_per_pod else "from-visible")
    if not count:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("count-unknown"))
        return
    expected = _EXPECTED.get(count)
    if expected is None:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("count-not-named", count=count, source=source), observed=str(count))
        return
    asks = WORDS("asks-carried", provenance=Text(carried.provenance_en, carried.provenance_zh)) if carried else WORDS("asks-own")
    value = ctx.facts.env.get("NCCL_SOCKET_IFNAME")
    if value is None and not env_known(ctx.facts, "NCCL_SOCKET_IFNAME"):
        yield make(ctx, RULE, AREA, Severity.skipped,
                   WORDS("not-checked", reason=unavailable_reason(ctx.facts, ["env"]), count=count, source=source, asks=asks,
                         expected=expected),
                   expected=expected)
        return
    have = [i.name for i in ctx.facts.network]
    # interfaces not probed (a collect_env paste): the name cannot be checked, the note is all there is
    absent = bool(have) and expected not in have
    if value is not None and value.strip() == expected and not absent:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", value=value, asks=asks, count=count), observed=value, expected=expected)
        return
    yield make(ctx, RULE, AREA, Severity.warning,
               WORDS("mismatch", value=WORDS("have-set", value=value) if value is not None else WORDS("have-unset"),
                     count=count, source=source, said=WORDS("said-carried" if carried else "said-own"), expected=expected,
                     missing=WORDS("missing", expected=expected, have=", ".join(have)) if absent else Text("", ""),
                     quote=Text(*quoted_note(note, carried))),
               remedy=_remedy(expected, absent), observed=value if value is not None else UNSET, expected=expected)


def _remedy(expected: str, absent: bool) -> Text:
    """``export`` the interface the note names; where the container lacks it, how a pod gets it instead."""
    if not absent:
        return WORDS("remedy-export", expected=expected)
    if f"remedy-absent-{expected}" in WORDS:
        return WORDS(f"remedy-absent-{expected}")
    return WORDS("remedy-absent", expected=expected)
