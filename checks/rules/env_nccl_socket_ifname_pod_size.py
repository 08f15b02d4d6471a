"""env.nccl-socket-ifname-pod-size: the image's rule eth0 (1/2/4/8 GPUs per pod) / hpn0 (all 16 GPUs of a machine)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.findings import Finding, Severity
from lingjun.checks.record_view import usage_note
from lingjun.checks.registry import rule
from lingjun.checks.rules._finding import make

RULE = "env.nccl-socket-ifname-pod-size"
AREA = "environment"

#: GPUs per pod -> interface, as the release notes' usage note states it
_EXPECTED = {1: "eth0", 2: "eth0", 4: "eth0", 8: "eth0", 16: "hpn0"}


@rule(RULE, AREA, "NCCL interface fits the pod size", "NCCL 网卡与 Pod GPU 数匹配")
def check(ctx: CheckContext) -> Iterator[Finding]:
    """Only for records whose usage notes carry this rule: warning when NCCL_SOCKET_IFNAME is not the interface the
    note names for the pod's GPU count (``--gpus-per-pod``, else the visible GPUs); ok when it is."""
    note = usage_note(ctx.record, RULE)
    if note is None:
        return
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
    text = (note.get("text") or {})
    if value is not None and value.strip() == expected:
        yield make(ctx, RULE, AREA, Severity.ok, f"NCCL_SOCKET_IFNAME={value} as the release asks for {count} GPU(s) per pod.",
                   f"NCCL_SOCKET_IFNAME={value}，符合发布说明对每 Pod {count} 卡的要求。", observed=value, expected=expected)
        return
    have = [i.name for i in ctx.facts.network]
    missing_en = f" ({expected} is not among this container's interfaces: {', '.join(have)})" if have and expected not in have else ""
    missing_zh = f"（本容器网卡中没有 {expected}：{', '.join(have)}）" if have and expected not in have else ""
    shown = value if value is not None else "unset"
    yield make(
        ctx, RULE, AREA, Severity.warning,
        f"NCCL_SOCKET_IFNAME is {shown}, but with {count} GPU(s) per pod ({src_en}) the release asks for {expected}{missing_en}. "
        f"Release note: \"{text.get('en', '')}\"",
        f"NCCL_SOCKET_IFNAME 当前为 {shown if value is not None else '未设置'}，而每 Pod {count} 卡（{src_zh}）时发布说明要求设为 {expected}{missing_zh}。"
        f"发布说明：“{text.get('zh', '')}”",
        remedy=(f"export NCCL_SOCKET_IFNAME={expected}", f"export NCCL_SOCKET_IFNAME={expected}"),
        observed=shown, expected=expected,
    )
