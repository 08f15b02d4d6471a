"""Name the nodes of a fleet: each record's node name, and what to do when two inputs give the same one.

A record's name is, in order: the ``"node"`` of the snapshot or report
(``--node-name`` or ``NODE_NAME`` when it was written), the pod of a
``kubectl logs --prefix`` line, the host name (present only with
``--include-ids``), and else the input's own name (with the line number for a
stream).  The source is kept: ``option``, ``NODE_NAME``, ``hostname``, ``pod``
or ``input``.  ``--include-ids`` is never needed to tell nodes apart.

Two nodes with the same name are both kept and both reported, each shown as
``NAME (input[:line])``, with one :class:`~lingjun.checks.fleet._inputs.InputProblem`
naming the inputs (:func:`disambiguate`): the same node checked twice and two
nodes misnamed look the same.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from lingjun.checks.core.node_name import clean_node_name
from lingjun.checks.fleet._inputs import InputProblem, Record

__all__ = ["own_name", "disambiguate"]

_NODE_OBJECT = re.compile(r'"node"\s*:\s*(\{[^{}]*\})')
_HOSTNAME = re.compile(r'"hostname"\s*:\s*("(?:[^"\\]|\\.)*")')
_SOURCES = ("option", "NODE_NAME", "hostname")


def _from_text(text: str) -> "tuple[Any, Any]":
    """``(node object, host name)`` found in a snapshot's JSON text without parsing all of it; ``(None, None)``
    when the text has neither (the writer puts ``"node"`` last, so the last occurrence is searched)."""
    node = None
    at = text.rfind('"node"')
    if at >= 0:
        match = _NODE_OBJECT.match(text, at)
        if match:
            try:
                node = json.loads(match.group(1))
            except ValueError:
                node = None
    host = None
    match = _HOSTNAME.search(text)
    if match:
        try:
            host = json.loads(match.group(1))
        except ValueError:
            host = None
    return node, host


def own_name(record: Record) -> "tuple[str, str]":
    """``(name, source)`` of a record (see the module docstring)."""
    if record.data is not None:
        node = record.data.get("node")
        host = record.data.get("host").get("hostname") if isinstance(record.data.get("host"), dict) else None
    else:
        node, host = _from_text(record.text or "")
    name: Optional[str] = None
    if isinstance(node, dict):
        name = clean_node_name(node.get("name"))
        if name:
            return name, node.get("source") if node.get("source") in _SOURCES else "option"
    if record.pod:
        name = clean_node_name(record.pod)
        if name:
            return name, "pod"
    name = clean_node_name(host)
    if name:
        return name, "hostname"
    return record.where, "input"


def disambiguate(nodes: "list[Any]") -> "list[InputProblem]":
    """Rename nodes (objects with ``name`` and ``input``) that share a name to ``NAME (input)``; one problem per name."""
    by_name: dict[str, list[Any]] = {}
    for node in nodes:
        by_name.setdefault(node.name, []).append(node)
    problems: list[InputProblem] = []
    for name, items in by_name.items():
        if len(items) < 2:
            continue
        wheres = [item.input for item in items]
        shown = ", ".join(wheres[:5]) + (f" and {len(wheres) - 5} more" if len(wheres) > 5 else "")
        problems.append(InputProblem(wheres[0], None,
                                     f"node name {name!r} is given by {len(items)} inputs ({shown}); each is reported as "
                                     f"'{name} (input)': the same node checked twice, or nodes named alike"))
        for item in items:
            item.name = f"{name} ({item.input})"
    return problems
