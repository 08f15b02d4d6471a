"""Compare the nodes of a fleet: per fact the majority value, the outliers and the nodes where it is not known.

For each fact of :data:`~lingjun.checks.fleet._node_facts.FACTS`, then each
``NCCL_*`` variable any node sets, the nodes that show the fact are grouped by
value.  The majority is the value more nodes show than any other; a tie for
the most has no majority (no node is then called an outlier: the groups are
listed).  Outliers are the nodes of every other group.  Nodes that do not show
the fact are listed as not known, apart from both.

A fact's ``status`` is ``"agree"`` (one value), ``"differ"`` (a majority and
outliers), ``"tie"`` (several values, no majority) or ``"unknown"`` (no node
shows it).  Nodes are named by their ``label`` (``CLUSTER/NAME`` in a fleet of
several clusters).

Clusters are compared by their majorities (:func:`compare_clusters`): each
fact is compared within each cluster, and a fact differs between clusters when
two clusters have a majority value and those values differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from lingjun.checks.fleet._check import NodeResult
from lingjun.checks.fleet._node_facts import ENV_PREFIX, FACTS, UNKNOWN

__all__ = ["FactComparison", "compare", "differing", "compare_clusters", "between_clusters", "by_cluster"]


@dataclass
class FactComparison:
    """One fact across the fleet.

    ``groups``: ``[(value, [node names])]``, largest group first (then by value as text);
    ``majority``: the majority value (None is a value too: observed absent), meaningful only
    when ``has_majority``; ``outliers`` and ``unknown``: node names in input order.
    """

    id: str
    status: str
    groups: list
    has_majority: bool
    majority: Any
    outliers: list
    unknown: list


def _key(value: Any) -> str:
    """A grouping key that keeps 1, True and "1" apart."""
    return f"{type(value).__name__}:{value!r}"


def _compare_one(fact_id: str, values: "list[tuple[str, Any]]") -> FactComparison:
    groups: dict[str, tuple[Any, list[str]]] = {}
    unknown: list[str] = []
    for name, value in values:
        if value is UNKNOWN:
            unknown.append(name)
        else:
            groups.setdefault(_key(value), (value, []))[1].append(name)
    ordered = sorted(groups.values(), key=lambda g: (-len(g[1]), str(g[0])))
    if not ordered:
        return FactComparison(fact_id, "unknown", [], False, None, [], unknown)
    if len(ordered) == 1:
        return FactComparison(fact_id, "agree", ordered, True, ordered[0][0], [], unknown)
    if len(ordered[0][1]) == len(ordered[1][1]):
        return FactComparison(fact_id, "tie", ordered, False, None, [], unknown)
    majority = ordered[0]
    outliers = {n for _, names in ordered[1:] for n in names}
    return FactComparison(fact_id, "differ", ordered, True, majority[0], [n for n, _ in values if n in outliers], unknown)


def compare(nodes: "list[NodeResult]", variables: "Optional[list[str]]" = None) -> "list[FactComparison]":
    """Every fact compared across ``nodes`` (see the module docstring), in :data:`FACTS` order, then the
    ``NCCL_*`` variables by name (``variables``: these fact ids, default the variables any of ``nodes`` sets)."""
    out = [_compare_one(spec.id, [(n.label, n.values.get(spec.id, UNKNOWN)) for n in nodes]) for spec in FACTS]
    if variables is None:
        variables = sorted({k for n in nodes for k in n.values if k.startswith(ENV_PREFIX)})
    for fact_id in variables:
        column = []
        for n in nodes:
            if fact_id in n.values:
                column.append((n.label, n.values[fact_id]))
            else:  # not set there, when its input shows every NCCL_* variable
                column.append((n.label, None if n.env_shown else UNKNOWN))
        out.append(_compare_one(fact_id, column))
    return out


def differing(comparisons: "list[FactComparison]") -> "list[FactComparison]":
    """The comparisons whose nodes do not all agree (``differ`` or ``tie``)."""
    return [c for c in comparisons if c.status in ("differ", "tie")]



def by_cluster(nodes: "list[NodeResult]") -> "list[tuple[Any, list[NodeResult]]]":
    """``[(cluster, its nodes)]`` in the order of each cluster's first node (None: the nodes of no cluster)."""
    groups: dict[Any, list[NodeResult]] = {}
    for node in nodes:
        groups.setdefault(node.cluster, []).append(node)
    return list(groups.items())


def compare_clusters(nodes: "list[NodeResult]") -> "list[tuple[Any, list[FactComparison]]]":
    """``[(cluster, its comparisons)]``: :func:`compare` within each cluster of :func:`by_cluster`; the NCCL_*
    variables of any node are compared in every cluster."""
    variables = sorted({k for n in nodes for k in n.values if k.startswith(ENV_PREFIX)})
    return [(cluster, compare(members, variables)) for cluster, members in by_cluster(nodes)]


def between_clusters(per_cluster: "list[tuple[Any, list[FactComparison]]]") -> "list[str]":
    """The fact ids whose majority value differs between two clusters (:func:`compare_clusters`), in order."""
    values: dict[str, set] = {}
    order: list[str] = []
    for _, comparisons in per_cluster:
        for c in comparisons:
            if c.id not in values:
                values[c.id] = set()
                order.append(c.id)
            if c.has_majority:
                values[c.id].add(_key(c.majority))
    return [fact_id for fact_id in order if len(values[fact_id]) > 1]
