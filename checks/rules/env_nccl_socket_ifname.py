"""env.nccl-socket-ifname: NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME resolved against the real interfaces."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core import nccl_ifname
from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make

RULE = "env.nccl-socket-ifname"
AREA = "environment"
NCCL_ENV_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"


def _one_of(names: list[str]) -> Text:
    """The report's "expected" for a variable that must name existing interfaces."""
    return Text(f"one of {', '.join(names)}", f"{', '.join(names)} 之一")


def _describe(ctx: CheckContext, lang: str = "en") -> str:
    """The interfaces as ``name (addresses; operstate)``, words in ``lang``."""
    zh = lang == "zh"
    parts = []
    for iface in ctx.facts.network:
        # a snapshot without --include-ids says only whether there is an address
        addr = ", ".join(iface.ipv4) or ("IPv4" if iface.carries_ipv4() else ("无 IPv4" if zh else "no IPv4"))
        parts.append(f"{iface.name} ({addr}; {iface.operstate or '?'})")
    return "; ".join(parts) or ("无" if zh else "none found")


@rule(RULE, AREA, "Socket interface names resolve", "通信网卡名可以匹配到网卡", order=210, needs=("env", "network"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when NCCL_SOCKET_IFNAME (NCCL syntax) or GLOO_SOCKET_IFNAME (exact names) matches no interface;
    warning when the matches carry no IPv4 address; info when unset; ok otherwise."""
    env = ctx.facts.env
    names = [i.name for i in ctx.facts.network]
    if not names:
        if env.get("NCCL_SOCKET_IFNAME") or env.get("GLOO_SOCKET_IFNAME"):
            yield make(ctx, RULE, AREA, Severity.skipped, "Network interfaces were not probed; the interface variables were not resolved.",
                       "未探测网卡列表，无法解析网卡相关环境变量。")
        return
    available, available_zh = _describe(ctx), _describe(ctx, "zh")
    value = env.get("NCCL_SOCKET_IFNAME")
    from lingjun.checks.coverage import env_known, unavailable_reason

    if value is None and not env_known(ctx.facts, "NCCL_SOCKET_IFNAME"):
        why = unavailable_reason(ctx.facts, ["env"])
        yield make(ctx, RULE, AREA, Severity.skipped, f"NCCL_SOCKET_IFNAME was not checked: {why.en}.",
                   f"未检查 NCCL_SOCKET_IFNAME：{why.zh}。")
        return
    if value is None:
        chosen = nccl_ifname.default_candidates(names)
        yield make(ctx, RULE, AREA, Severity.info,
                   f"NCCL_SOCKET_IFNAME is unset: NCCL prefers ib* interfaces, then any interface except docker* and lo "
                   f"(here: {', '.join(chosen) or 'none'}).",
                   f"未设置 NCCL_SOCKET_IFNAME：NCCL 优先选 ib* 网卡，其次是除 docker* 和 lo 以外的网卡（此处为：{', '.join(chosen) or '无'}）。",
                   observed=UNSET, links=[NCCL_ENV_DOC])
    else:
        pattern = nccl_ifname.parse(value)
        matched = nccl_ifname.resolve(pattern, names)
        hint_en = hint_zh = ""
        if "doubled-prefix" in pattern.notes:
            hint_en = " The value starts with a doubled prefix; NCCL takes one '^' and one '=' only, so the rest is read as part of the name."
            hint_zh = "取值开头的前缀重复了；NCCL 只识别一个 '^' 和一个 '='，多余的字符会被当作网卡名的一部分。"
        if not matched:
            yield make(
                ctx, RULE, AREA, Severity.error,
                f"NCCL_SOCKET_IFNAME={value} matches no interface, so NCCL has no bootstrap interface and fails at communicator "
                f"creation. Available: {available}.{hint_en}",
                f"NCCL_SOCKET_IFNAME={value} 匹配不到任何网卡，NCCL 没有可用的引导网卡，创建通信器时会失败。现有网卡：{available_zh}。{hint_zh}",
                remedy=("Set NCCL_SOCKET_IFNAME to the interface that carries the inter-node route (a plain name is a prefix match; "
                        "'=name' is an exact match; '^a,b' excludes).",
                        "请把 NCCL_SOCKET_IFNAME 设为承载节点间路由的网卡（直接写名称为前缀匹配；'=名称' 为精确匹配；'^a,b' 为排除）。"),
                observed=value, expected=_one_of(names), links=[NCCL_ENV_DOC],
            )
        else:
            with_ip = {i.name for i in ctx.facts.network if i.carries_address()}
            no_ip = [n for n in matched if n not in with_ip]
            if len(no_ip) == len(matched):
                yield make(
                    ctx, RULE, AREA, Severity.warning,
                    f"NCCL_SOCKET_IFNAME={value} matches {', '.join(matched)}, but none of them has an IP address. Available: {available}.",
                    f"NCCL_SOCKET_IFNAME={value} 匹配到 {', '.join(matched)}，但它们都没有 IP 地址。现有网卡：{available_zh}。",
                    remedy=("Point NCCL_SOCKET_IFNAME at an interface with an address on the inter-node network.",
                            "请让 NCCL_SOCKET_IFNAME 指向在节点间网络上有地址的网卡。"),
                    observed=value, links=[NCCL_ENV_DOC],
                )
            else:
                exact_en = (" The '=' exact-match form needs an NCCL that has it (added by NVIDIA/nccl pull request #236); "
                            "older builds read '=' as part of the name." if pattern.exact else "")
                exact_zh = ("'=' 精确匹配写法需要 NCCL 支持（由 NVIDIA/nccl PR #236 引入），更早的构建会把 '=' 当作名称的一部分。"
                            if pattern.exact else "")
                yield make(ctx, RULE, AREA, Severity.ok,
                           f"NCCL_SOCKET_IFNAME={value} matches {', '.join(matched)}.{exact_en}",
                           f"NCCL_SOCKET_IFNAME={value} 匹配到 {', '.join(matched)}。{exact_zh}",
                           observed=value, links=[nccl_ifname.EXACT_MATCH_PR] if pattern.exact else [])
    gloo = env.get("GLOO_SOCKET_IFNAME")
    if gloo:
        found, missing = nccl_ifname.resolve_gloo(gloo, names)
        if missing:
            yield make(
                ctx, RULE, AREA, Severity.error,
                f"GLOO_SOCKET_IFNAME={gloo} names interface(s) that do not exist: {', '.join(missing)} (Gloo wants exact names). "
                f"Available: {available}.",
                f"GLOO_SOCKET_IFNAME={gloo} 中的网卡不存在：{', '.join(missing)}（Gloo 需要精确的网卡名）。现有网卡：{available_zh}。",
                remedy=("Set GLOO_SOCKET_IFNAME to existing interface names.", "请把 GLOO_SOCKET_IFNAME 设为实际存在的网卡名。"),
                observed=gloo, expected=_one_of(names),
            )
        else:
            yield make(ctx, RULE, AREA, Severity.ok, f"GLOO_SOCKET_IFNAME={gloo} names existing interfaces.",
                       f"GLOO_SOCKET_IFNAME={gloo} 中的网卡均存在。", observed=gloo)
