"""The fleet report as one self-contained HTML file, to open in a browser or attach to a ticket.

Reads the dict of :func:`lingjun.checks.fleet._model.fleet_dict`.  The page has
its CSS inline, no script and no external reference (no font, image or link
loaded from elsewhere), so it renders the same offline.  Every string from the
input goes through :func:`html.escape` after the controls and bidi marks are
made visible (:func:`lingjun.checks.core.inert_text.inert`).  Node lists are
complete (but for a majority, which is every other node), long ones folded in a ``<details>`` element.  English or
Simplified Chinese (``<html lang>`` set accordingly).
"""

from __future__ import annotations

import html
from typing import Any

from lingjun.checks.core.inert_text import NAME_LIMIT, inert
from lingjun.checks.report.findings import Text

__all__ = ["render_html", "HTML_MARKER"]

#: in the first lines of every page written: how a previous fleet report is recognised before it is replaced
HTML_MARKER = '<meta name="generator" content="lingjun-check fleet">'

_CSS = """
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1b1f24}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.95em}
.error{color:#b42318;font-weight:600}.warning{color:#9a6700;font-weight:600}.info{color:#0969da}.ok{color:#1a7f37}
.muted{color:#57606a}ul.summary li{margin:.2em 0}details summary{cursor:pointer}
.wide{overflow-x:auto}th,td,code{overflow-wrap:anywhere}
""".strip()

_T = {
    "title": Text("lingjun-check fleet report", "lingjun-check 集群检查报告"),
    "nodes": Text("Nodes", "节点"),
    "exit": Text("Exit code", "退出码"),
    "generated": Text("Generated", "生成时间"),
    "with_errors": Text("Nodes with errors", "有错误的节点"),
    "with_warnings": Text("Nodes with warnings", "有警告的节点"),
    "differing": Text("Facts that differ", "不一致的事实"),
    "problems": Text("Inputs with problems", "有问题的输入"),
    "input": Text("Input", "输入"),
    "line": Text("Line", "行"),
    "problem": Text("Problem", "问题"),
    "warnings": Text("Warnings about the inputs (the exit code is unchanged)", "关于输入的警告（不影响退出码）"),
    "warning": Text("Warning", "警告"),
    "notes": Text("Notes (the exit code is unchanged)", "说明（不影响退出码）"),
    "note": Text("Note", "说明"),
    "expected": Text("Nodes expected (--expect)", "预期节点数（--expect）"),
    "fact": Text("Fact", "事实"),
    "majority": Text("Majority", "多数值"),
    "no_majority": Text("no majority (tie)", "无多数（并列）"),
    "value": Text("Value", "取值"),
    "count": Text("Nodes", "节点数"),
    "which": Text("Which nodes", "哪些节点"),
    "outliers": Text("Outliers", "异常节点"),
    "unknown": Text("not known from their input", "输入中未知"),
    "none_differ": Text("All compared facts agree (where known).", "所有比较的事实一致（已知部分）。"),
    "agree": Text("Facts that agree", "一致的事实"),
    "rules": Text("Findings by rule", "按规则汇总的发现"),
    "rule": Text("Rule", "规则"),
    "severity": Text("Severity", "严重程度"),
    "message": Text("Message (first node)", "消息（第一个节点）"),
    "no_rules": Text("No error, warning or info findings on any node.", "所有节点都没有错误、警告或提示。"),
    "all_nodes": Text("All nodes", "全部节点"),
    "name": Text("Node", "节点"),
    "source": Text("Named by", "名称来源"),
    "release": Text("Release", "发布版本"),
    "kind": Text("Input kind", "输入类型"),
    "summary": Text("Findings (error / warning / info)", "发现（错误 / 警告 / 提示）"),
    "show": Text("{n} nodes", "{n} 个节点"),
    "show_one": Text("1 node", "1 个节点"),
    "the_rest": Text("all other nodes (majority)", "其余所有节点（多数）"),
    "clusters": Text("Clusters", "集群"),
    "cluster": Text("Cluster", "集群"),
    "no_cluster": Text("(no cluster)", "（无集群）"),
    "between": Text("Facts that differ between clusters", "集群之间不一致的事实"),
    "none_between": Text("The clusters' majority values agree (where known).", "各集群的多数值一致（已知部分）。"),
    "cluster_tie": Text("no majority", "无多数"),
    "cluster_unknown": Text("not known", "未知"),
    "of": Text("{n} of {of}", "{of} 个中 {n} 个"),
}
_SEVERITY = {"error": Text("error", "错误"), "warning": Text("warning", "警告"), "info": Text("info", "提示")}


def _e(value: Any, limit: int = 4096) -> str:
    """Input text made inert, then escaped for HTML (quotes included)."""
    return html.escape(inert("" if value is None else value, limit), quote=True)


def _names(names: "list[str]", lang: str) -> str:
    items = ", ".join(f"<code>{_e(n, NAME_LIMIT)}</code>" for n in names)
    if len(names) <= 10:
        return items
    return f"<details><summary>{_e(_show(len(names), lang))}</summary>{items}</details>"


def _show(n: int, lang: str) -> str:
    """"1 node", "12 nodes", "12 个节点"."""
    return _T["show_one"].get(lang) if n == 1 else _T["show"].get(lang).format(n=n)


def _problem_rows(items: "list[dict[str, Any]]") -> "list[str]":
    rows = []
    for p in items:
        line = "" if p["line"] is None else str(int(p["line"]))
        rows.append(f"<tr><td><code>{_e(p.get('where') or p['input'], 2 * NAME_LIMIT)}</code></td><td>{line}</td><td>{_e(p['message'])}</td></tr>")
    return rows


def _cluster_html(report: "dict[str, Any]", lang: str) -> "list[str]":
    """The clusters' table and the facts whose majority differs between clusters (one column per cluster)."""

    def t(key: str) -> str:
        return html.escape(_T[key].get(lang))

    def name(value: Any) -> str:
        return f"<code>{_e(value, NAME_LIMIT)}</code>" if value is not None else t("no_cluster")

    clusters = report["clusters"]
    out = [f"<h2>{t('clusters')}</h2>",
           f"<table><tr><th>{t('cluster')}</th><th>{t('nodes')}</th><th>{t('exit')}</th><th>{t('with_errors')}</th>"
           f"<th>{t('with_warnings')}</th></tr>"]
    for c in clusters:
        out.append(f"<tr><td>{name(c['name'])}</td><td>{int(c['nodes'])}</td><td>{int(c['exit_code'])}</td>"
                   f"<td class=\"error\">{int(c['nodes_with_errors'])}</td><td class=\"warning\">{int(c['nodes_with_warnings'])}</td></tr>")
    out += ["</table>", f"<h2>{t('between')}</h2>"]
    between = report.get("facts_between_clusters") or []
    if not between:
        return out + [f"<p class=\"ok\">{t('none_between')}</p>"]
    size = {c["name"]: c["nodes"] for c in clusters}
    out.append(f"<table><tr><th>{t('fact')}</th>" + "".join(f"<th>{name(c['name'])}</th>" for c in clusters) + "</tr>")
    for fact in between:
        cells = []
        for entry in fact["clusters"]:
            majority = entry["majority"]
            if majority is None:
                cells.append(f"<td class=\"muted\">{t('cluster_tie' if entry['status'] == 'tie' else 'cluster_unknown')}</td>")
            else:
                of = html.escape(_T["of"].get(lang).format(n=int(majority["count"]), of=int(size.get(entry["cluster"], 0))))
                cells.append(f"<td><code>{_e(majority['display'])}</code> ({of})</td>")
        out.append(f"<tr><td>{_e(fact['label'])} <code class=\"muted\">{_e(fact['id'])}</code></td>{''.join(cells)}</tr>")
    out.append("</table>")
    return out


def render_html(report: "dict[str, Any]") -> str:
    """The HTML page of a :func:`~lingjun.checks.fleet._model.fleet_dict` (see the module docstring)."""
    lang = report["lang"]

    def t(key: str) -> str:
        return html.escape(_T[key].get(lang))

    s = report["summary"]
    out = ["<!DOCTYPE html>", f'<html lang="{"zh-CN" if lang == "zh" else "en"}">', "<head>", '<meta charset="utf-8">', HTML_MARKER,
           '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<title>{t('title')}</title>",
           f"<style>{_CSS}</style>", "</head>", "<body>", f"<h1>{t('title')}</h1>", '<ul class="summary">',
           f"<li>{t('nodes')}: <strong>{s['nodes']}</strong></li>",
           f"<li>{t('exit')}: <strong>{report['exit_code']}</strong></li>",
           f"<li>{t('with_errors')}: <span class=\"error\">{s['nodes_with_errors']}</span></li>",
           f"<li>{t('with_warnings')}: <span class=\"warning\">{s['nodes_with_warnings']}</span></li>",
           f"<li>{t('differing')}: {s['facts_differing']} / {s['facts_compared']}</li>",
           *([f"<li>{t('expected')}: {int(s['expected'])}</li>"] if s.get("expected") is not None else []),
           f"<li>{t('problems')}: {s['inputs_with_problems']}</li>",
           f"<li class=\"muted\">{t('generated')}: {_e(report['generated_at'])}, lingjun-check {_e(report['tool']['version'])}</li>", "</ul>"]
    if len(report.get("clusters") or []) > 1:
        out += _cluster_html(report, lang)
    if report["problems"]:
        out += [f"<h2>{t('problems')}</h2>", f"<table><tr><th>{t('input')}</th><th>{t('line')}</th><th>{t('problem')}</th></tr>"]
        out += _problem_rows(report["problems"])
        out.append("</table>")
    if report.get("warnings"):
        out += [f"<h2>{t('warnings')}</h2>", f"<table><tr><th>{t('input')}</th><th>{t('line')}</th><th>{t('warning')}</th></tr>"]
        out += _problem_rows(report["warnings"])
        out.append("</table>")
    if report.get("notes"):
        out += [f"<h2>{t('notes')}</h2>", f"<table><tr><th>{t('input')}</th><th>{t('line')}</th><th>{t('note')}</th></tr>"]
        out += _problem_rows(report["notes"])
        out.append("</table>")
    out.append(f"<h2>{t('differing')}</h2>")
    differing = [f for f in report["facts"] if f["status"] in ("differ", "tie")]
    if not differing:
        out.append(f"<p class=\"ok\">{t('none_differ')}</p>")
    for fact in differing:
        out.append(f'<h3 id="fact-{_e(fact["id"])}">{_e(fact["label"])} <code class="muted">{_e(fact["id"])}</code></h3>')
        if fact["status"] == "differ":
            out.append(f"<p>{t('majority')}: <strong>{_e(fact['majority']['display'])}</strong> "
                       f"({html.escape(_show(fact['majority']['count'], lang))}). "
                       f"{t('outliers')} ({len(fact['outliers'])}): {_names(fact['outliers'], lang)}</p>")
        else:
            out.append(f"<p class=\"warning\">{t('no_majority')}</p>")
        out.append(f"<table><tr><th>{t('value')}</th><th>{t('count')}</th><th>{t('which')}</th></tr>")
        for i, group in enumerate(fact["groups"]):
            # the majority's nodes are every other node: counted here, listed in the JSON report
            which = t("the_rest") if i == 0 and fact["status"] == "differ" else _names(group["nodes"], lang)
            out.append(f"<tr><td><code>{_e(group['display'])}</code></td><td>{group['count']}</td><td>{which}</td></tr>")
        if fact["unknown"]:
            out.append(f"<tr><td class=\"muted\">{t('unknown')}</td><td>{len(fact['unknown'])}</td><td>{_names(fact['unknown'], lang)}</td></tr>")
        out.append("</table>")
    agree = [f for f in report["facts"] if f["status"] == "agree"]
    if agree:
        out += [f"<h2>{t('agree')}</h2>", f"<table><tr><th>{t('fact')}</th><th>{t('value')}</th><th>{t('unknown')}</th></tr>"]
        for fact in agree:
            out.append(f"<tr><td>{_e(fact['label'])}</td><td><code>{_e(fact['majority']['display'])}</code></td>"
                       f"<td>{len(fact['unknown']) or ''}</td></tr>")
        out.append("</table>")
    out.append(f"<h2>{t('rules')}</h2>")
    if not report["rules"]:
        out.append(f"<p class=\"ok\">{t('no_rules')}</p>")
    else:
        out.append(f"<table><tr><th>{t('rule')}</th><th>{t('severity')}</th><th>{t('count')}</th><th>{t('which')}</th><th>{t('message')}</th></tr>")
        for group in report["rules"]:
            sev = group["severity"]
            out.append(f"<tr><td><code>{_e(group['rule'], 120)}</code></td><td class=\"{_e(sev)}\">{html.escape(_SEVERITY[sev].get(lang))}</td>"
                       f"<td>{group['count']}</td><td>{_names(group['nodes'], lang)}</td><td>{_e(group['message'], 300)}</td></tr>")
        out.append("</table>")
    several = len(report.get("clusters") or []) > 1
    out += [f"<h2>{t('all_nodes')}</h2>",
            f"<table><tr>{'<th>' + t('cluster') + '</th>' if several else ''}<th>{t('name')}</th><th>{t('source')}</th><th>{t('input')}</th><th>{t('kind')}</th><th>{t('release')}</th>"
            f"<th>{t('exit')}</th><th>{t('summary')}</th></tr>"]
    for node in report["nodes"]:
        c = node["summary"]
        cluster = f"<td><code>{_e(node.get('cluster') or '')}</code></td>" if several else ""
        out.append(f"<tr>{cluster}<td><code>{_e(node['name'], NAME_LIMIT)}</code></td><td>{_e(node['name_source'])}</td><td><code>{_e(node['input'], NAME_LIMIT)}</code></td>"
                   f"<td>{_e(node['kind'])}</td><td>{_e(node['release'] or '')}</td><td>{int(node['exit_code'])}</td>"
                   f"<td>{int(c.get('error', 0))} / {int(c.get('warning', 0))} / {int(c.get('info', 0))}</td></tr>")
    out += ["</table>", "</body>", "</html>"]
    # every table scrolls inside its own box on a narrow screen, never the page (only our markup has "<table")
    return "\n".join(out).replace("<table>", '<div class="wide"><table>').replace("</table>", "</table></div>") + "\n"
