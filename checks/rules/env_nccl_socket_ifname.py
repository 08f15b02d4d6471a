"""env.nccl-socket-ifname: NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME resolved against the real interfaces."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core import nccl_ifname
from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make
from lingjun.checks.rules._words import Words

RULE = "env.nccl-socket-ifname"
AREA = "environment"
NCCL_ENV_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"


WORDS = Words({
    "one-of": ("one of {names}", "{names} 之一"),
    "no-ipv4": ("no IPv4", "无 IPv4"),
    "none-found": ("none found", "无"),
    "not-probed": (
        "Network interfaces were not probed; the interface variables were not resolved.", "未探测网卡列表，无法解析网卡相关环境变量。",
    ),
    "not-checked": ("NCCL_SOCKET_IFNAME was not checked: {why}.", "未检查 NCCL_SOCKET_IFNAME：{why}。"),
    "unset": (
        "NCCL_SOCKET_IFNAME is unset: NCCL prefers ib* interfaces, then any interface except docker* and lo (here: {chosen}).",
        "未设置 NCCL_SOCKET_IFNAME：NCCL 优先选 ib* 网卡，其次是除 docker* 和 lo 以外的网卡（此处为：{chosen}）。",
    ),
    "none": ("none", "无"),
    "doubled-prefix": (
        " The value starts with a doubled prefix; NCCL takes one '^' and one '=' only, so the rest is read as part of the name.",
        "取值开头的前缀重复了；NCCL 只识别一个 '^' 和一个 '='，多余的字符会被当作网卡名的一部分。",
    ),
    "no-match": (
        "NCCL_SOCKET_IFNAME={value} matches no interface, so NCCL has no bootstrap interface and fails at communicator "
        "creation. Available: {available}.{hint}",
        "NCCL_SOCKET_IFNAME={value} 匹配不到任何网卡，NCCL 没有可用的引导网卡，创建通信器时会失败。现有网卡：{available}。{hint}",
    ),
    "no-match-remedy": (
        "Set NCCL_SOCKET_IFNAME to the interface that carries the inter-node route (a plain name is a prefix match; "
        "'=name' is an exact match; '^a,b' excludes).",
        "请把 NCCL_SOCKET_IFNAME 设为承载节点间路由的网卡（直接写名称为前缀匹配；'=名称' 为精确匹配；'^a,b' 为排除）。",
    ),
    "no-address": (
        "NCCL_SOCKET_IFNAME={value} matches {matched}, but none of them has an IP address. Available: {available}.",
        "NCCL_SOCKET_IFNAME={value} 匹配到 {matched}，但它们都没有 IP 地址。现有网卡：{available}。",
    ),
    "no-address-remedy": (
        "Point NCCL_SOCKET_IFNAME at an interface with an address on the inter-node network.",
        "请让 NCCL_SOCKET_IFNAME 指向在节点间网络上有地址的网卡。",
    ),
    "exact-note": (
        " The '=' exact-match form needs an NCCL that has it (added by NVIDIA/nccl pull request #236); "
        "older builds read '=' as part of the name.",
        "'=' 精确匹配写法需要 NCCL 支持（由 NVIDIA/nccl PR #236 引入），更早的构建会把 '=' 当作名称的一部分。",
    ),
    "ok": ("NCCL_SOCKET_IFNAME={value} matches {matched}.{exact}", "NCCL_SOCKET_IFNAME={value} 匹配到 {matched}。{exact}"),
    "gloo-missing": (
        "GLOO_SOCKET_IFNAME={gloo} names interface(s) that do not exist: {missing} (Gloo wants exact names). "
        "Available: {available}.",
        "GLOO_SOCKET_IFNAME={gloo} 中的网卡不存在：{missing}（Gloo 需要精确的网卡名）。现有网卡：{available}。",
    ),
    "gloo-missing-remedy": ("Set GLOO_SOCKET_IFNAME to existing interface names.", "请把 GLOO_SOCKET_IFNAME 设为实际存在的网卡名。"),
    "gloo-ok": ("GLOO_SOCKET_IFNAME={gloo} names existing interfaces.", "GLOO_SOCKET_IFNAME={gloo} 中的网卡均存在。"),
})

#: no words: an empty clause in both languages
_NOTHING = Text("", "")


def _one_of(names: list[str]) -> Text:
    """The report's "expected" for a variable that must name existing interfaces."""
    return WORDS("one-of", names=", ".join(names))


def _describe(ctx: CheckContext) -> Text:
    """The interfaces as ``name (addresses; operstate)``."""
    parts = []
    for iface in ctx.facts.network:
        # a snapshot without --include-ids says only whether there is an address
        addr = Text(", ".join(iface.ipv4), ", ".join(iface.ipv4)) if iface.ipv4 else (
            Text("IPv4", "IPv4") if iface.carries_ipv4() else WORDS("no-ipv4"))
        parts.append(Text(f"{iface.name} ({addr.en}; {iface.operstate or '?'})", f"{iface.name} ({addr.zh}; {iface.operstate or '?'})"))
    if not parts:
        return WORDS("none-found")
    return Text("; ".join(p.en for p in parts), "; ".join(p.zh for p in parts))


@rule(RULE, AREA, "Socket interface names resolve", "通信网卡名可以匹配到网卡", order=210, needs=("env", "network"))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when NCCL_SOCKET_IFNAME (NCCL syntax) or GLOO_SOCKET_IFNAME (exact names) matches no interface;
    warning when the matches carry no IPv4 address; info when unset; ok otherwise."""
    env = ctx.facts.env
    names = [i.name for i in ctx.facts.network]
    if not names:
        if env.get("NCCL_SOCKET_IFNAME") or env.get("GLOO_SOCKET_IFNAME"):
            yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-probed"))
        return

    value = env.get("NCCL_SOCKET_IFNAME")
    if value is None and not env_known(ctx.facts, "NCCL_SOCKET_IFNAME"):
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-checked", why=unavailable_reason(ctx.facts, ["env"])))
        return
    available = _describe(ctx)
    if value is None:
        chosen = nccl_ifname.default_candidates(names)
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("unset", chosen=Text(", ".join(chosen), ", ".join(chosen)) if chosen else WORDS("none")),
                   observed=UNSET, links=[NCCL_ENV_DOC])
    else:
        yield _nccl(ctx, value, names, available)
    gloo = env.get("GLOO_SOCKET_IFNAME")
    if gloo:
        yield _gloo(ctx, gloo, names, available)


def _nccl(ctx: CheckContext, value: str, names: list[str], available: Text) -> Finding:
    """NCCL_SOCKET_IFNAME set: error when it matches no interface, warning when no match has an address, ok otherwise."""
    pattern = nccl_ifname.parse(value)
    matched = nccl_ifname.resolve(pattern, names)
    if not matched:
        hint = WORDS("doubled-prefix") if "doubled-prefix" in pattern.notes else _NOTHING
        return make(ctx, RULE, AREA, Severity.error, WORDS("no-match", value=value, available=available, hint=hint),
                    remedy=WORDS("no-match-remedy"), observed=value, expected=_one_of(names), links=[NCCL_ENV_DOC])
    with_ip = {i.name for i in ctx.facts.network if i.carries_address()}
    if not any(n in with_ip for n in matched):
        return make(ctx, RULE, AREA, Severity.warning,
                    WORDS("no-address", value=value, matched=", ".join(matched), available=available),
                    remedy=WORDS("no-address-remedy"), observed=value, links=[NCCL_ENV_DOC])
    return make(ctx, RULE, AREA, Severity.ok,
                WORDS("ok", value=value, matched=", ".join(matched), exact=WORDS("exact-note") if pattern.exact else _NOTHING),
                observed=value, links=[nccl_ifname.EXACT_MATCH_PR] if pattern.exact else [])


def _gloo(ctx: CheckContext, gloo: str, names: list[str], available: Text) -> Finding:
    """GLOO_SOCKET_IFNAME set: error when it names an interface that does not exist (exact names), ok otherwise."""
    _, missing = nccl_ifname.resolve_gloo(gloo, names)
    if missing:
        return make(ctx, RULE, AREA, Severity.error,
                    WORDS("gloo-missing", gloo=gloo, missing=", ".join(missing), available=available),
                    remedy=WORDS("gloo-missing-remedy"), observed=gloo, expected=_one_of(names))
    return make(ctx, RULE, AREA, Severity.ok, WORDS("gloo-ok", gloo=gloo), observed=gloo)
