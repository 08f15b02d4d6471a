"""Name the nodes of a fleet: each record's node name, and what to do when two inputs give the same one.

A record's name is, in order: the ``"node"`` of the snapshot or report
(``--node-name`` or ``NODE_NAME`` when it was written), the pod of a
``kubectl logs --prefix`` line, the host name (present only with
``--include-ids``), and else the input's own name (with the line number for a
stream).  The source is kept: ``option``, ``NODE_NAME``, ``hostname``, ``pod``
or ``input``.  ``--include-ids`` is never needed to tell nodes apart.

Two records with the same name are both kept and both reported, each shown as
``NAME (input[:line])``, with one :class:`~lingjun.checks.fleet._inputs.InputProblem`
naming the inputs: the same node checked twice and two nodes misnamed look the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lingjun.checks.core.node_name import clean_node_name
from lingjun.checks.fleet._inputs import InputProblem, Record

__all__ = ["NamedRecord", "name_records"]


@dataclass
class NamedRecord:
    """A :class:`Record` with its node ``name`` (unique in the fleet) and the ``source`` of the name."""

    record: Record
    name: str
    source: str


def _own_name(record: Record) -> "tuple[Optional[str], Optional[str]]":
    node = record.data.get("node")
    if isinstance(node, dict):
        name = clean_node_name(node.get("name"))
        if name:
            source = node.get("source")
            return name, source if source in ("option", "NODE_NAME", "hostname") else "option"
    if record.pod:
        return clean_node_name(record.pod), "pod"
    host = record.data.get("host")
    if isinstance(host, dict):
        name = clean_node_name(host.get("hostname"))
        if name:
            return name, "hostname"
    return None, None


def name_records(records: "list[Record]") -> "tuple[list[NamedRecord], list[InputProblem]]":
    """The records named (see the module docstring), in input order, and one problem per repeated name."""
    named: list[NamedRecord] = []
    for record in records:
        name, source = _own_name(record)
        if name is None:
            name, source = record.where, "input"
        named.append(NamedRecord(record, name, source or "input"))
    by_name: dict[str, list[NamedRecord]] = {}
    for item in named:
        by_name.setdefault(item.name, []).append(item)
    problems: list[InputProblem] = []
    for name, items in by_name.items():
        if len(items) < 2:
            continue
        wheres = [item.record.where for item in items]
        shown = ", ".join(wheres[:5]) + (f" and {len(wheres) - 5} more" if len(wheres) > 5 else "")
        problems.append(InputProblem(items[0].record.where, None,
                                     f"node name {name!r} is given by {len(items)} inputs ({shown}); each is reported as "
                                     f"'{name} (input)': the same node checked twice, or nodes named alike"))
        for item in items:
            item.name = f"{name} ({item.record.where})"
    return named, problems
