"""Name the nodes of a fleet: each record's node name, and what to do when two inputs give the same one.

A record's name is, in order: the ``"node"`` of the snapshot or report
(``--node-name`` or ``NODE_NAME`` when it was written), the pod of a
``kubectl logs --prefix`` line, the host name (present only with
``--include-ids``), and else the input's own name (with the line number for a
stream).  The source is kept: ``option``, ``NODE_NAME``, ``hostname``, ``pod``
or ``input``.  ``--include-ids`` is never needed to tell nodes apart.

Two inputs with the same name and the same facts are one node checked twice (a
retried pod): counted once, with a note naming both.  Two with the same name and
different facts are both kept and both reported, each shown as
``NAME (input[:line])``, with one :class:`~lingjun.checks.fleet._inputs.InputProblem`
naming the inputs (:func:`disambiguate`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from lingjun.checks.core.node_name import clean_node_name
from lingjun.checks.fleet._inputs import InputProblem, Record

__all__ = ["own_name", "disambiguate"]

_NODE_KEY = re.compile(r'"node"\s*:\s*')
_DECODER = json.JSONDecoder()
_SOURCES = ("option", "NODE_NAME", "hostname")
_NOT_FOUND = object()


def _node_from_text(text: str) -> Any:
    """The value of the top-level ``"node"`` member read from a snapshot's JSON text without parsing all of it, or
    ``_NOT_FOUND`` when the text does not end with that member (then the caller parses the whole text).

    The writer puts ``"node"`` last.  The last ``"node"`` followed by a colon is decoded with the JSON decoder
    (braces and quotes inside the name are read correctly) and accepted only when nothing but the closing brace of
    the whole object follows its value: a key ``"node"`` of a nested object would be followed by more closing
    brackets, and a string that merely contains ``node`` cannot be followed by ``:``."""
    at = text.rfind('"node"')
    while at >= 0:
        match = _NODE_KEY.match(text, at)
        if match:
            try:
                value, end = _DECODER.raw_decode(text, match.end())
            except (ValueError, RecursionError):
                return _NOT_FOUND
            return value if text[end:].strip() == "}" else _NOT_FOUND
        at = text.rfind('"node"', 0, at)
    return _NOT_FOUND


def own_name(record: Record) -> "tuple[str, str]":
    """``(name, source)`` of a record (see the module docstring).

    A snapshot still held as text is parsed here only when its name cannot be read from the end of its text or
    the host name is needed (no node name, no pod); a text that is not JSON is named by its input (the check then
    reports it).
    """
    node: Any = None
    if record.data is None:
        node = _node_from_text(record.text or "")
    if record.data is None and (node is _NOT_FOUND or not (isinstance(node, dict) and clean_node_name(node.get("name")))
                                and not (record.pod and clean_node_name(record.pod))):
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
    """Settle node names given by more than one input; ``nodes`` (objects with ``name``, ``input`` and ``key``, the
    fingerprint of what their findings come from) are changed in place.

    Inputs of one name with the same ``key`` are one node checked twice (a retried or preempted pod): the first is
    kept, the others are dropped from ``nodes``, and one note (:attr:`InputProblem.note`, no effect on the exit
    code) names them all.  When inputs of one name still differ in their facts, each is kept and shown as
    ``NAME (input)``, with one problem naming the inputs: two nodes named alike, or one node whose facts changed.
    Returns the notes and problems, in the order of the names' first inputs.
    """
    by_name: dict[str, list[Any]] = {}
    for node in nodes:
        by_name.setdefault(node.name, []).append(node)
    said: list[InputProblem] = []
    dropped: set[int] = set()
    for name, items in by_name.items():
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
                said.append(InputProblem(same[0].input, None, f"node {name!r} is given {len(same)} times with the same facts "
                                         f"({_listed([item.input for item in same])}); counted once, as {same[0].input} "
                                         f"(a retried or rescheduled pod)", note=True))
        if len(kept) < 2:
            continue
        said.append(InputProblem(kept[0].input, None,
                                 f"node name {name!r} is given by {len(kept)} inputs with different facts ({_listed([k.input for k in kept])}); "
                                 f"each is reported as '{name} (input)': nodes named alike, or one node whose facts changed"))
        for item in kept:
            item.name = f"{name} ({item.input})"
    if dropped:
        nodes[:] = [node for node in nodes if id(node) not in dropped]
    return said


def _listed(wheres: "list[str]") -> str:
    return ", ".join(wheres[:5]) + (f" and {len(wheres) - 5} more" if len(wheres) > 5 else "")
