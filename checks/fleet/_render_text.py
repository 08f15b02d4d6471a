"""The fleet report as text for a terminal: a short summary, then one section per fact that differs.

Reads the dict of :func:`lingjun.checks.fleet._model.fleet_dict`.  A list of
more than :data:`SHOWN_NAMES` node names is shortened to that many and a
count ("… and 1990 more"); the JSON report has them all.  Every string from
the input (node names, values, messages, input names) is made inert
(:func:`lingjun.checks.core.inert_text.inert`).  English or Simplified Chinese.
"""

from __future__ import annotations

from typing import Any

from lingjun.checks.core.inert_text import NAME_LIMIT, inert
from lingjun.checks.report.findings import Text

__all__ = ["render_text", "SHOWN_NAMES", "names_line"]

#: node names listed before the rest are counted
SHOWN_NAMES = 10

_T = {
    "title": Text("lingjun-check fleet: {nodes}, exit code {exit}", "lingjun-check fleet：{nodes}，退出码 {exit}"),
    "expected": Text("{n} expected (--expect)", "预期 {n}（--expect）"),
    "errors": Text("errors on {n}, warnings on {w}", "{n}有错误，{w}有警告"),
    "facts": Text("{d} of {c} compared facts differ", "比较的 {c} 项事实中有 {d} 项不一致"),
    "problems_line": Text("{n} with problems (see below)", "{n}有问题（见下）"),
    "checked": Text("snapshots checked: {n} (nodes with the same snapshot share one); rules run: {r}, results reused: {u}",
                    "检查的快照：{n} 份（快照相同的节点共用一次检查）；规则运行 {r} 次，复用结果 {u} 次"),
    "problems": Text("Inputs with problems", "有问题的输入"),
    "warnings": Text("Warnings about the inputs (the exit code is unchanged)", "关于输入的警告（不影响退出码）"),
    "notes": Text("Notes (the exit code is unchanged)", "说明（不影响退出码）"),
    "differ": Text("Facts that differ", "不一致的事实"),
    "none_differ": Text("All compared facts agree (where known).", "所有比较的事实一致（已知部分）。"),
    "agree": Text("Facts that agree", "一致的事实"),
    "unknown_all": Text("Facts not known on any node", "所有节点都未知的事实"),
    "unknown_all_line": Text("not known on any node", "所有节点都未知"),
    "majority": Text("majority {v} ({n})", "多数为 {v}（{n}）"),
    "tie": Text("no majority: {n} values share the most nodes", "无多数：{n} 个取值的节点数并列最多"),
    "outliers": Text("outliers", "异常节点"),
    "unknown": Text("not known", "未知"),
    "rules": Text("Findings by rule", "按规则汇总的发现"),
    "no_rules": Text("No error, warning or info findings on any node.", "所有节点都没有错误、警告或提示。"),
    "on": Text("{sev} on {n}", "{n}为{sev}"),
    "with_errors": Text("Nodes with errors", "有错误的节点"),
    "more": Text("… and {n} more", "… 另有 {n} 个"),
    "every": Text("every node", "全部节点"),
    "clusters": Text("Clusters ({n})", "集群（{n} 个）"),
    "cluster_line": Text("{c}: {nodes}, exit code {exit}, errors on {e}, warnings on {w}",
                         "{c}：{nodes}，退出码 {exit}，{e}有错误，{w}有警告"),
    "no_cluster": Text("(no cluster)", "（无集群）"),
    "between": Text("Facts that differ between clusters", "集群之间不一致的事实"),
    "none_between": Text("The clusters' majority values agree (where known).", "各集群的多数值一致（已知部分）。"),
    "cluster_value": Text("{v} ({n} of {of})", "{v}（{of} 个中 {n} 个）"),
    "cluster_tie": Text("no majority", "无多数"),
    "cluster_unknown": Text("not known", "未知"),

}
_SEVERITY = {"error": Text("error", "错误"), "warning": Text("warning", "警告"), "info": Text("info", "提示")}


def _t(key: str, lang: str, **values: Any) -> str:
    return _T[key].get(lang).format(**values)


def _count(n: int, what: str, lang: str) -> str:
    """"1 node", "3 nodes", "3 个节点" (``what``: "node" or "input")."""
    if lang == "zh":
        return f"{n} 个{'节点' if what == 'node' else '输入'}"
    return f"{n} {what}" + ("" if n == 1 else "s")


def names_line(names: "list[str]", lang: str, limit: int = SHOWN_NAMES) -> str:
    """The first ``limit`` names, comma-separated and inert, then "… and N more" when there are more."""
    shown = ", ".join(inert(n, NAME_LIMIT) for n in names[:limit])
    if len(names) > limit:
        shown += " " + _t("more", lang, n=len(names) - limit)
    return shown


def nodes_line(names: "list[str]", total: int, lang: str, limit: int = SHOWN_NAMES) -> str:
    """:func:`names_line`, or "every node" when ``names`` are all ``total`` nodes of the fleet (more than one)."""
    if total > 1 and len(names) == total:
        return _t("every", lang)
    return names_line(names, lang, limit)


def _where(problem: "dict[str, Any]") -> str:
    """Where a problem or note is: ``input``, ``input:line`` or ``pod/NAME (input:line)``, inert."""
    if problem.get("where"):
        return inert(problem["where"], 2 * NAME_LIMIT)
    return inert(problem["input"], NAME_LIMIT) + (f":{problem['line']}" if problem["line"] is not None else "")


def _bold(text: str, color: bool) -> str:
    return f"\x1b[1m{text}\x1b[0m" if color else text


def render_text(report: "dict[str, Any]", color: bool = False) -> str:
    """The text report of a :func:`~lingjun.checks.fleet._model.fleet_dict` (ends with a newline)."""
    lang = report["lang"]
    s = report["summary"]
    lines = [_bold(_t("title", lang, nodes=_count(s["nodes"], "node", lang), exit=report["exit_code"]), color),
             "  " + _t("errors", lang, n=_count(s["nodes_with_errors"], "node", lang), w=_count(s["nodes_with_warnings"], "node", lang)),
             "  " + _t("facts", lang, d=s["facts_differing"], c=s["facts_compared"])]
    if s.get("expected") is not None:
        lines.append("  " + _t("expected", lang, n=_count(s["expected"], "node", lang)))
    if report["problems"]:
        lines.append("  " + _t("problems_line", lang, n=_count(s["inputs_with_problems"], "input", lang)))
    lines.append("  " + _t("checked", lang, n=s["checked"], r=s.get("rule_runs", 0), u=s.get("rule_results_reused", 0)))
    clusters = report.get("clusters") or []
    if len(clusters) > 1:
        lines += _cluster_lines(report, lang, color)
    if report["problems"]:
        lines += ["", _bold(_t("problems", lang) + f" ({len(report['problems'])})", color)]
        for p in report["problems"]:
            lines.append(f"  {_where(p)}: {inert(p['message'])}")
    if report.get("warnings"):
        lines += ["", _bold(_t("warnings", lang) + f" ({len(report['warnings'])})", color)]
        for p in report["warnings"]:
            lines.append(f"  {_where(p)}: {inert(p['message'])}")
    if report.get("notes"):
        lines += ["", _bold(_t("notes", lang) + f" ({len(report['notes'])})", color)]
        for p in report["notes"]:
            lines.append(f"  {_where(p)}: {inert(p['message'])}")
    differing = [f for f in report["facts"] if f["status"] in ("differ", "tie")]
    lines += ["", _bold(_t("differ", lang), color)]
    if not differing:
        lines.append("  " + _t("none_differ", lang))
    for fact in differing:
        label = inert(fact["label"])
        if fact["status"] == "differ":
            head = _t("majority", lang, v=inert(fact["majority"]["display"]), n=_count(fact["majority"]["count"], "node", lang))
            lines.append(f"  {label} [{inert(fact['id'], 200)}]: {head}")
            groups = fact["groups"][1:]
            if len(groups) > 1:  # with one other value its group line below names the same nodes
                lines.append(f"    {_t('outliers', lang)} ({len(fact['outliers'])}): {names_line(fact['outliers'], lang)}")
        else:
            lines.append(f"  {label} [{inert(fact['id'], 200)}]: {_t('tie', lang, n=sum(1 for g in fact['groups'] if g['count'] == fact['groups'][0]['count']))}")
            groups = fact["groups"]
        for group in groups:
            lines.append(f"    {inert(group['display'])}: {_count(group['count'], 'node', lang)}: {names_line(group['nodes'], lang)}")
        if fact["unknown"]:
            lines.append(f"    {_t('unknown', lang)} ({len(fact['unknown'])}): {names_line(fact['unknown'], lang)}")
    agree = [f for f in report["facts"] if f["status"] == "agree"]
    if agree:
        lines += ["", _bold(_t("agree", lang), color)]
        for fact in agree:
            extra = f"; {_t('unknown', lang)} ({len(fact['unknown'])})" if fact["unknown"] else ""
            lines.append(f"  {inert(fact['label'])}: {inert(fact['majority']['display'])}{extra}")
    not_known = [f for f in report["facts"] if f["status"] == "unknown"]
    if not_known:  # the inputs show none of them: said, never left out
        lines += ["", _bold(_t("unknown_all", lang), color)]
        for fact in not_known:
            lines.append(f"  {inert(fact['label'])}: {_t('unknown_all_line', lang)}")
    lines += ["", _bold(_t("rules", lang), color)]
    if not report["rules"]:
        lines.append("  " + _t("no_rules", lang))
    for group in report["rules"]:
        on = _t("on", lang, sev=_SEVERITY[group["severity"]].get(lang), n=_count(group["count"], "node", lang))
        lines.append(f"  {inert(group['rule'], 120)}: {on}: {nodes_line(group['nodes'], s['nodes'], lang)}")
        if group["message"]:
            lines.append(f"    {inert(group['message'], 300)}")
    with_errors = [n.get("label") or n["name"] for n in report["nodes"] if n["exit_code"] == 1]  # CLUSTER/NAME with clusters
    if with_errors:
        lines += ["", _bold(_t("with_errors", lang) + f" ({len(with_errors)})", color), "  " + nodes_line(with_errors, s["nodes"], lang, 50)]
    return "\n".join(lines) + "\n"


def _cluster_name(name: Any, lang: str) -> str:
    return inert(name, NAME_LIMIT) if name is not None else _t("no_cluster", lang)


def _cluster_lines(report: "dict[str, Any]", lang: str, color: bool) -> "list[str]":
    """The clusters, one line each, then the facts whose majority differs between them (each cluster's value)."""
    clusters = report["clusters"]
    lines = ["", _bold(_t("clusters", lang, n=len(clusters)), color)]
    for c in clusters:
        lines.append("  " + _t("cluster_line", lang, c=_cluster_name(c["name"], lang), nodes=_count(c["nodes"], "node", lang),
                               exit=int(c["exit_code"]), e=_count(c["nodes_with_errors"], "node", lang),
                               w=_count(c["nodes_with_warnings"], "node", lang)))
    lines += ["", _bold(_t("between", lang), color)]
    between = report.get("facts_between_clusters") or []
    if not between:
        lines.append("  " + _t("none_between", lang))
    size = {c["name"]: c["nodes"] for c in clusters}
    for fact in between:
        lines.append(f"  {inert(fact['label'])} [{inert(fact['id'], 200)}]:")
        for entry in fact["clusters"]:
            majority = entry["majority"]
            if majority is not None:
                shown = _t("cluster_value", lang, v=inert(majority["display"]), n=majority["count"], of=size.get(entry["cluster"], 0))
            else:
                shown = _t("cluster_tie" if entry["status"] == "tie" else "cluster_unknown", lang)
            lines.append(f"    {_cluster_name(entry['cluster'], lang)}: {shown}")
    return lines
