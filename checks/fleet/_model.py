"""The fleet report as one JSON-ready dict, schema ``lingjun-check/fleet/1`` (``checks/fleet.schema.json``).

Every renderer (text, JSON, HTML) reads this dict, so they cannot disagree.  Layout::

    {
      "schema": "lingjun-check/fleet/1",
      "tool": {"name": "lingjun-check", "version": "0.1.0"},
      "generated_at": "2025-08-01T10:00:00Z",
      "lang": "en", "strict": false, "exit_code": 1,
      "summary": {"nodes": 2000, "inputs_with_problems": 1, "nodes_with_errors": 3, "nodes_with_warnings": 5,
                  "nodes_by_exit_code": {"0": 1992, "1": 3, "2": 0},
                  "findings": {"error": 3, "warning": 5, ...},   // summed over nodes
                  "facts_compared": 17, "facts_differing": 2, "checked": 4}, // checked: rule runs (distinct facts)
      "problems": [{"input": "logs.txt", "line": 7, "message": "..."}],
      "notes": [{"input": "a.json", "line": null, "message": "snapshot field shm.size_bytes: -1 is out of range ...; ignored"}],
      "warnings": [{"input": "a.log, b.log", "line": null, "inputs": ["a.log", "b.log"], "message": "cluster 'my-cluster' ..."}],
      "facts": [{"id": "driver.version", "label": "...", "status": "differ",     // agree | differ | tie | unknown
                 "majority": {"value": "570.124.06", "display": "570.124.06", "count": 1997},  // null without one
                 "groups": [{"value": ..., "display": "...", "count": 3, "nodes": [...]}],
                 "outliers": [...], "unknown": [...]}],
      "rules": [{"rule": "driver.minimum", "severity": "error", "count": 3, "nodes": [...], "message": "..."}],
      "clusters": [{"name": "prod-a", "nodes": 1000, "exit_code": 1, "nodes_with_errors": 3, "nodes_with_warnings": 5,
                    "nodes_by_exit_code": {...}, "facts": {"driver.version": {"status": "differ",
                    "majority": {"value": "570.124.06", "display": "570.124.06", "count": 997}}, ...}}],  // name null: no cluster
      "facts_between_clusters": [{"id": "driver.version", "label": "...",
                                  "clusters": [{"cluster": "prod-a", "status": "differ", "majority": {...}}, ...]}],
      "nodes": [{"name": "...", "cluster": "prod-a", "label": "prod-a/...", "name_source": "NODE_NAME", "input": "a.json",
                 "kind": "snapshot", "release": "...", "exit_code": 0, "summary": {...}, "findings": [{"rule", "severity", "message"}]}]
    }

Node names in lists (``facts``, ``rules``) are the nodes' ``label``: ``CLUSTER/NAME`` when the nodes come from
more than one cluster, else the name.  ``clusters`` has one entry per cluster (one for a fleet of one cluster);
``facts_between_clusters`` the facts whose majority value differs between two clusters (empty with one).
``summary.rule_runs`` counts the rules run, ``summary.rule_results_reused`` the rule results taken from another
node with the same facts sections (:mod:`lingjun.checks.fleet._shared_runs`).

``value`` is a JSON scalar; ``null`` means observed absent (``display`` says it in words).  Lists of
nodes are complete here (the text report shortens them).  Every string is at most
:data:`~lingjun.checks.core.inert_text.ECHO_LIMIT` characters (``… (N more characters)``), so the
report can be serialised with the fast standard encoder (:func:`render_json`).  Additions within version 1 are new keys
only.  ``message`` of a rule group is the message of its first node (messages may name values that
differ per node).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Optional

from lingjun.checks.core.inert_text import capped, escape_json_text
from lingjun.checks.fleet._check import SHOWN_SEVERITIES, NodeResult
from lingjun.checks.fleet._compare import FactComparison, between_clusters, by_cluster, compare_clusters
from lingjun.checks.fleet._inputs import InputProblem
from lingjun.checks.fleet._node_facts import display, fact_label
from lingjun.checks.report.findings import SEVERITY_ORDER

__all__ = ["FLEET_SCHEMA", "fleet_dict", "fleet_exit_code", "render_json", "EXIT_NO_NODES"]

FLEET_SCHEMA = "lingjun-check/fleet/1"
#: no input could be read as a node (usage errors exit 3 too)
EXIT_NO_NODES = 3


def fleet_exit_code(nodes: "list[NodeResult]", problems: "list[InputProblem]", strict: bool) -> int:
    """1 when a node has errors or an input has a problem (a node could not be checked or told apart);
    else 2 when a node exits 2 (it has warnings and ``strict`` was given, here or recorded in its own snapshot); else 0.
    3 when there is no node at all."""
    if not nodes:
        return EXIT_NO_NODES
    if any(p.is_problem for p in problems) or any(n.exit_code == 1 for n in nodes):
        return 1
    if any(n.exit_code == 2 for n in nodes):  # only with strict: fleet's, or the node's own recorded --strict
        return 2
    return 0


def _cap(value: Any) -> Any:
    """``value`` with every string (and key) shortened to ECHO_LIMIT characters (:func:`capped`)."""
    if isinstance(value, str):
        return capped(value)
    if isinstance(value, dict):
        return {capped(k) if isinstance(k, str) else k: _cap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cap(v) for v in value]
    return value


def render_json(report: "dict[str, Any]") -> str:
    """The report as one line of JSON and a newline; the characters :func:`json.dumps` leaves raw that could
    rewrite a terminal (C1 controls, bidi marks, U+2028/U+2029) are ``\\uNNNN`` escapes."""
    return escape_json_text(json.dumps(report, ensure_ascii=False, separators=(",", ":"))) + "\n"


def _fact(c: FactComparison, lang: str) -> "dict[str, Any]":
    groups = [{"value": value, "display": display(c.id, value, lang), "count": len(names), "nodes": list(names)} for value, names in c.groups]
    majority: Optional[dict] = None
    if c.has_majority and groups:
        majority = {"value": c.majority, "display": groups[0]["display"], "count": groups[0]["count"]}
    return {"id": c.id, "label": fact_label(c.id).get(lang), "status": c.status, "majority": majority, "groups": groups,
            "outliers": list(c.outliers), "unknown": list(c.unknown)}


def _rules(nodes: "list[NodeResult]") -> "list[dict[str, Any]]":
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for node in nodes:
        seen = set()
        for rule, severity, message in node.findings:
            key = (rule, severity)
            if key in seen:
                continue
            seen.add(key)
            group = groups.get(key)
            if group is None:
                group = groups[key] = {"rule": rule, "severity": severity, "count": 0, "nodes": [], "message": message}
            group["count"] += 1
            group["nodes"].append(node.label)
    rank = {s: i for i, s in enumerate(SHOWN_SEVERITIES)}
    return sorted(groups.values(), key=lambda g: (rank[g["severity"]], -g["count"], g["rule"]))


def _problem(p: "InputProblem") -> "dict[str, Any]":
    item = {"input": p.input, "line": p.line, "pod": p.pod, "where": p.where, "message": p.reason}
    if p.warning:
        item["inputs"] = list(p.inputs)
    return item


def _majority(c: FactComparison, lang: str) -> "Optional[dict[str, Any]]":
    if not c.has_majority or not c.groups:
        return None
    return {"value": c.majority, "display": display(c.id, c.majority, lang), "count": len(c.groups[0][1])}


def _by_exit(nodes: "list[NodeResult]") -> "dict[str, int]":
    by_exit = {"0": 0, "1": 0, "2": 0}
    for node in nodes:
        by_exit[str(node.exit_code)] += 1
    return by_exit


def _clusters(nodes: "list[NodeResult]", lang: str) -> "tuple[list, list]":
    """``(clusters, facts_between_clusters)`` of the report (see the module docstring)."""
    per_cluster = compare_clusters(nodes)
    members = dict(by_cluster(nodes))
    clusters = []
    for cluster, comparisons in per_cluster:
        mine = members[cluster]
        by_exit = _by_exit(mine)
        clusters.append({"name": cluster, "nodes": len(mine), "exit_code": 1 if by_exit["1"] else 2 if by_exit["2"] else 0,
                         "nodes_with_errors": sum(1 for n in mine if n.counts.get("error", 0) or n.exit_code == 1),
                         "nodes_with_warnings": sum(1 for n in mine if n.counts.get("warning", 0)), "nodes_by_exit_code": by_exit,
                         "facts": {c.id: {"status": c.status, "majority": _majority(c, lang)} for c in comparisons}})
    between = []
    for fact_id in between_clusters(per_cluster) if len(per_cluster) > 1 else []:
        between.append({"id": fact_id, "label": fact_label(fact_id).get(lang),
                        "clusters": [{"cluster": entry["name"], **entry["facts"][fact_id]} for entry in clusters]})
    return clusters, between


def fleet_dict(nodes: "list[NodeResult]", comparisons: "list[FactComparison]", problems: "list[InputProblem]",
               lang: str = "en", strict: bool = False, version: str = "", checked: int = 0,
               expected: Optional[int] = None, rule_runs: "tuple[int, int]" = (0, 0)) -> "dict[str, Any]":
    """The fleet report (see the module docstring); ``checked`` is how many distinct sets of facts the rules ran on;
    ``expected`` the node count of ``--expect`` (None: not given).  Notes (:attr:`InputProblem.note`) go to ``notes``,
    warnings (:attr:`InputProblem.warning`) to ``warnings``; neither changes the exit code."""
    totals = {s.value: 0 for s in SEVERITY_ORDER}
    by_exit = {"0": 0, "1": 0, "2": 0}
    for node in nodes:
        for severity, count in node.counts.items():
            totals[severity] = totals.get(severity, 0) + count
        by_exit[str(node.exit_code)] += 1
    facts = [_fact(c, lang) for c in comparisons]
    clusters, between = _clusters(nodes, lang)
    return {
        "schema": FLEET_SCHEMA,
        "tool": {"name": "lingjun-check", "version": version},
        "generated_at": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "lang": lang,
        "strict": strict,
        "exit_code": fleet_exit_code(nodes, problems, strict),
        "summary": {
            "nodes": len(nodes),
            "inputs_with_problems": len({p.input for p in problems if p.is_problem}),
            "nodes_with_errors": sum(1 for n in nodes if n.counts.get("error", 0) or n.exit_code == 1),
            "nodes_with_warnings": sum(1 for n in nodes if n.counts.get("warning", 0)),
            "nodes_by_exit_code": by_exit,
            "findings": totals,
            "facts_compared": len(facts),
            "facts_differing": sum(1 for f in facts if f["status"] in ("differ", "tie")),
            "checked": checked,
            "expected": expected,
            "clusters": len(clusters),
            "rule_runs": rule_runs[0],
            "rule_results_reused": rule_runs[1],
        },
        "problems": _cap([_problem(p) for p in problems if p.is_problem]),
        "warnings": _cap([_problem(p) for p in problems if p.warning]),
        "notes": _cap([_problem(p) for p in problems if p.note]),
        "facts": _cap(facts),
        "rules": _cap(_rules(nodes)),
        "clusters": _cap(clusters),
        "facts_between_clusters": _cap(between),
        # names, inputs and findings are shortened where they are made (node_name, _inputs, _check)
        "nodes": [
            {"name": n.name, "cluster": n.cluster, "label": n.label, "name_source": n.source, "input": n.input, "kind": n.kind,
             "release": capped(n.release) if n.release else None, "exit_code": n.exit_code,
             "summary": n.counts, "findings": n.findings_json}
            for n in nodes
        ],
    }
