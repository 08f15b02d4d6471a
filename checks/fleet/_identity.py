"""Name the nodes of a fleet: each record's node name, and what to do when two inputs give the same one.

A record's name is, in order: the ``"node"`` of the snapshot or report
(``--node-name`` or ``NODE_NAME`` when it was written), the pod of a
``kubectl logs --prefix`` line, the host name (present only with
``--include-ids``), and else the input's own name (with the line number for a
stream).  The source is kept: ``option``, ``NODE_NAME``, ``hostname``, ``pod``
or ``input``.  ``--include-ids`` is never needed to tell nodes apart.

Node names are unique within one cluster: a record's cluster is its ``"node"``'s ``cluster``
(``lingjun-check --cluster`` or ``LINGJUN_CLUSTER`` when it was written; :func:`own_cluster`), else
``fleet --cluster``, else none, and the names below are settled per cluster.

Two inputs with the same name and the same facts are one node checked twice (a
retried pod): counted once, with a note naming both.  Two with the same name and
different facts are both kept and both reported, each shown as
``NAME (input[:line])``, with one :class:`~lingjun.checks.fleet._inputs.InputProblem`
naming the inputs (:func:`disambiguate`).

What the nodes claim about their cluster can be wrong without being unreadable: a cluster still named
``my-cluster``, the placeholder of the manifests, and two inputs that claim one cluster and give one node name
with different facts (two clusters recorded under one name).  :func:`cluster_warnings` says each in one line
naming the inputs, as a warning (no effect on the exit code), in the report's language.
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.core.cluster_name import CLUSTER_LIMIT, CLUSTER_VARIABLE, PLACEHOLDER_CLUSTER, cluster_problem
from lingjun.checks.core.inert_text import NAME_LIMIT, inert
from lingjun.checks.core.node_name import given_node_name
from lingjun.checks.fleet._inputs import InputProblem, Record, _where
from lingjun.checks.report.findings import Text

__all__ = ["own_name", "own_cluster", "qualify", "disambiguate", "cluster_warnings", "NOT_FOUND"]

_SOURCES = ("option", "NODE_NAME", "hostname")
#: ``own_name``'s ``node`` when the record's ``"node"`` is not known without parsing it
NOT_FOUND = object()


def _named(node: Any, pod: Optional[str]) -> bool:
    return bool(isinstance(node, dict) and given_node_name(node.get("name")) or pod and given_node_name(pod))


def own_name(record: Record, node: Any = NOT_FOUND) -> "tuple[str, str]":
    """``(name, source)`` of a record (see the module docstring).

    ``node``: the value of the snapshot's ``"node"`` member when it was read from its text without parsing it
    (:meth:`lingjun.checks.fleet._check._Checked.node_in`; None: the snapshot has none).  A snapshot still held as
    text is parsed here only when ``node`` is not known or the host name is needed (no node name, no pod); a text
    that is not JSON is named by its input (the check then reports it).
    """
    if record.data is None and (node is NOT_FOUND or not _named(node, record.pod)):
        try:
            record.load()
        except ValueError:
            return record.where, "input"
    host = None
    if record.data is not None:
        node = record.data.get("node")
        host = record.data.get("host").get("hostname") if isinstance(record.data.get("host"), dict) else None
    name: Optional[str] = None
    if isinstance(node, dict):
        name = given_node_name(node.get("name"))
        if name:
            return name, node.get("source") if node.get("source") in _SOURCES else "option"
    if record.pod:
        name = given_node_name(record.pod)
        if name:
            return name, "pod"
    name = given_node_name(host)
    if name:
        return name, "hostname"
    return record.where, "input"


def own_cluster(node: Any, default: Optional[str] = None) -> "tuple[Optional[str], Optional[str]]":
    """``(cluster, problem)`` of a record from its ``"node"`` value (a snapshot's or a report's): its ``cluster``
    when that is a cluster name (:func:`~lingjun.checks.core.cluster_name.cluster_problem`), else ``default``
    (``fleet --cluster``; None: no cluster).  A value that is not one is kept apart as written (inert, at most
    63 characters), so two clusters never merge, and ``problem`` says why it is not one (one line)."""

    value = node.get("cluster") if isinstance(node, dict) else None
    if value is None:
        return default, None
    reason = cluster_problem(value)
    if reason is None:
        return value, None
    shown = inert(value if isinstance(value, str) else repr(value), CLUSTER_LIMIT)
    return shown, f"node.cluster {shown!r} is not a cluster name ({reason}); its nodes are kept apart under it as written"


def qualify(nodes: "list[Any]") -> int:
    """Set each node's ``label``: ``CLUSTER/NAME`` when the nodes come from more than one cluster (a node of no
    cluster keeps ``NAME``), else ``NAME``; returns how many clusters there are (nodes of no cluster counted as one)."""
    clusters = {node.cluster for node in nodes}
    for node in nodes:
        node.label = f"{node.cluster}/{node.name}" if len(clusters) > 1 and node.cluster is not None else node.name
    return len(clusters)


def disambiguate(nodes: "list[Any]") -> "list[InputProblem]":
    """Settle node names given by more than one input; ``nodes`` (objects with ``name``, ``input`` and ``key``, the
    fingerprint of what their findings come from) are changed in place.

    Inputs of one name with the same ``key`` are one node checked twice (a retried or preempted pod): the first is
    kept, the others are dropped from ``nodes``, and one note (:attr:`InputProblem.note`, no effect on the exit
    code) names them all.  When inputs of one name still differ in their facts, each is kept and shown as
    ``NAME (input)``, with one problem naming the inputs: two nodes named alike, or one node whose facts changed.
    Returns the notes and problems, in the order of the names' first inputs.
    """
    by_name: dict[tuple, list[Any]] = {}
    for node in nodes:  # node names are unique within one cluster only
        by_name.setdefault((getattr(node, "cluster", None), node.name), []).append(node)
    said: list[InputProblem] = []
    dropped: set[int] = set()
    for (cluster, name), items in by_name.items():
        where = f" of cluster {cluster!r}" if cluster is not None else ""
        if len(items) < 2:
            continue
        by_key: dict[str, list[Any]] = {}
        for item in items:
            by_key.setdefault(item.key or f"unkeyed:{id(item)}", []).append(item)
        kept = []
        for same in by_key.values():
            kept.append(same[0])
            if len(same) > 1:
                dropped.update(id(item) for item in same[1:])
                said.append(InputProblem(same[0].input, None, f"node {name!r}{where} is given {len(same)} times with the same facts "
                                         f"({_listed([item.input for item in same])}); counted once, as {same[0].input} "
                                         f"(a retried or rescheduled pod)", note=True))
        if len(kept) < 2:
            continue
        said.append(InputProblem(kept[0].input, None,
                                 f"node name {name!r}{where} is given by {len(kept)} inputs with different facts ({_listed([k.input for k in kept])}); "
                                 f"each is reported as '{name} (input)': nodes named alike, or one node whose facts changed"))
        for item in kept:
            item.name = f"{name} ({item.input})"
    if dropped:
        nodes[:] = [node for node in nodes if id(node) not in dropped]
    return said


def _listed(wheres: "list[str]") -> str:
    return ", ".join(wheres[:5]) + (f" and {len(wheres) - 5} more" if len(wheres) > 5 else "")


_WARNINGS = {
    "placeholder": Text(
        "cluster {cluster!r} of {nodes} is the placeholder {variable} of the manifests in deploy/kubernetes/, not a "
        "cluster's name: set {variable} to this cluster's name (or the UID of its kube-system namespace) before the "
        "next sweep, or the nodes of two clusters that both keep it are compared as one cluster",
        "{nodes}的集群 {cluster!r} 是 deploy/kubernetes/ 中清单的占位值 {variable}，不是集群的名字：下次检查前请把 "
        "{variable} 设为本集群的名字（或其 kube-system 命名空间的 UID），否则两个都保留该值的集群的节点会被当作同一个集群比较"),
    "clash": Text(
        "{inputs} inputs claim cluster {cluster!r} and give {names} with different facts ({shown}): two clusters "
        "recorded under one name? give each cluster its own {variable}; these nodes are reported as 'NAME (input)'",
        "{inputs} 个输入都声明属于集群 {cluster!r}，其中{names}的事实不同（{shown}）：是否把两个集群记在了同一个名字下？"
        "请为每个集群设置各自的 {variable}；这些节点以 'NAME (input)' 列出"),
}


def _counted(n: int, en: str, zh: str, lang: str) -> str:
    """"1 node", "3 nodes", " 3 个节点" (``en``: the singular noun; ``zh``: the measure and noun)."""
    return f" {n} {zh}" if lang == "zh" else f"{n} {en}" + ("" if n == 1 else "s")


def _warning(inputs: "list[str]", message: str) -> InputProblem:
    """A warning about ``inputs`` (each masked as every name shown is: :func:`~lingjun.checks.fleet._inputs._where`)."""
    shown = tuple(_where(name, None, None) for name in dict.fromkeys(inputs))
    return InputProblem(_listed(list(shown)), None, message, warning=True, inputs=shown)


def cluster_warnings(nodes: "list[Any]", lang: str = "en") -> "list[InputProblem]":
    """Warnings about the clusters the ``nodes`` claim (objects with ``name``, ``cluster``, ``key``, ``file`` and
    ``origin``; read before :func:`disambiguate` renames and drops them), in ``lang``:

    * nodes whose cluster is :data:`~lingjun.checks.core.cluster_name.PLACEHOLDER_CLUSTER`, the value the manifests
      ship: one warning naming the inputs they came from;
    * per cluster name, the node names given with different facts by two or more files: one warning naming the
      inputs (the command-line inputs when they are two or more, else the files) and the first three names.  The
      same name with different facts in one file is a node whose facts changed between runs, not two clusters.
    """
    said: list[InputProblem] = []
    placeholder = [node for node in nodes if getattr(node, "cluster", None) == PLACEHOLDER_CLUSTER]
    if placeholder:
        said.append(_warning([node.origin or node.file for node in placeholder], _WARNINGS["placeholder"].get(lang).format(
            cluster=PLACEHOLDER_CLUSTER, nodes=_counted(len(placeholder), "node", "个节点", lang).lstrip(),
            variable=CLUSTER_VARIABLE)))
    by_cluster: dict[str, dict[str, list[Any]]] = {}
    for node in nodes:
        if getattr(node, "cluster", None) is not None:
            by_cluster.setdefault(node.cluster, {}).setdefault(node.name, []).append(node)
    for cluster, by_name in by_cluster.items():
        clashing: list[tuple[str, list[Any]]] = []
        for name, items in by_name.items():
            if len({item.key or f"unkeyed:{id(item)}" for item in items}) > 1 and len({item.file for item in items}) > 1:
                clashing.append((name, items))
        if not clashing:
            continue
        members = [item for _, items in clashing for item in items]
        origins = list(dict.fromkeys(item.origin or item.file for item in members))
        inputs = origins if len(origins) > 1 else list(dict.fromkeys(item.file for item in members))
        shown = ", ".join(repr(inert(name, NAME_LIMIT)) for name, _ in clashing[:3])
        if len(clashing) > 3:
            shown += f" … (+{len(clashing) - 3})"
        names = _counted(len(clashing), "node name", "个节点名", lang)
        said.append(_warning(inputs, _WARNINGS["clash"].get(lang).format(
            inputs=len(inputs), cluster=cluster, names=names, shown=shown, variable=CLUSTER_VARIABLE)))
    return said
