"""Positions: the node (and so the line:col) that a pydantic field location names in a document."""

from __future__ import annotations

import functools
import os
import typing
import weakref
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

import yaml
from pydantic import BaseModel
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from lingjun.schema.loader._documents import _mark_pos
from lingjun.schema.loader._read import read_text
from lingjun.schema.loader._yaml import compose
from lingjun.schema.models import DOCUMENT_MODELS
from lingjun.schema.problems import LocPart, field_path

def _walk(root: Node, loc: Sequence[LocPart]) -> tuple[Node, list[LocPart], bool]:
    """Follow ``loc`` from ``root``.

    Returns ``(node, shown_loc, complete)``: the deepest node reached (a key
    node for pydantic's ``[key]`` marker), the loc parts that exist in the
    document (pydantic's union-member names are dropped), and whether every
    mapping key and index was found.
    """
    node, shown, complete, _ = _walk_marked(root, loc)
    return node, shown, complete


def _walk_marked(root: Node, loc: Sequence[LocPart]) -> tuple[Node, list[LocPart], bool, Node]:
    """:func:`_walk`, plus the node whose position to report.

    That is the node reached, except behind an alias: libyaml gives ``*name``
    the very node of its ``&name`` anchor, whose position is the anchor's.
    Entering a node that starts before its key (or its sequence) means an
    alias was followed; from there on the position reported is that key's (or
    that sequence's), the place where the alias is written.
    """
    node = root
    shown: list[LocPart] = []
    key_node: Optional[Node] = None
    complete = True
    alias_at: Optional[Node] = None

    def where(reached: Node) -> Node:
        return alias_at if alias_at is not None else reached

    for index, part in enumerate(loc):
        if part == "[key]":
            if key_node is not None:
                node = key_node
            continue
        key_node = None
        if isinstance(node, MappingNode) and isinstance(part, str):
            for k, v in node.value:
                if isinstance(k, ScalarNode) and k.value == part:
                    if alias_at is None and v.start_mark.index < k.start_mark.index:
                        alias_at = k
                    key_node, node = k, v
                    shown.append(part)
                    break
            else:
                if part in _model_field_names_any():
                    shown.append(part)
                    shown.extend(p for p in loc[index + 1:] if p != "[key]")
                    return node, shown, False, where(node)
                continue  # a union member name: not part of the document
        elif isinstance(node, SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                item = node.value[part]
                if alias_at is None and item.start_mark.index < node.start_mark.index:
                    alias_at = node
                node = item
                shown.append(part)
            else:
                shown.extend(p for p in loc[index:] if p != "[key]")
                return node, shown, False, where(node)
        else:
            if isinstance(part, int) or part in _model_field_names_any():
                shown.extend(p for p in loc[index:] if p != "[key]")
                return node, shown, False, where(node)
            continue
    return node, shown, complete, where(node)


@functools.lru_cache(maxsize=1)
def _model_field_names_any() -> frozenset[str]:
    """Every field name of every model reachable from the document models."""
    names: set[str] = set()
    seen: set[type] = set()

    def visit(tp: Any) -> None:
        for sub in nested_types(tp):
            if isinstance(sub, type) and issubclass(sub, BaseModel) and sub not in seen:
                seen.add(sub)
                for name, info in sub.model_fields.items():
                    names.add(name)
                    visit(info.annotation)

    for model in DOCUMENT_MODELS.values():
        visit(model)
    return frozenset(names)


def nested_types(tp: Any) -> Iterable[Any]:
    """``tp`` and every type nested in its Annotated/Union/list/dict arguments."""
    yield tp
    for arg in typing.get_args(tp):
        if isinstance(arg, type) or typing.get_args(arg):
            yield from nested_types(arg)


#: absolute path -> the document last loaded from it, for as long as that
#: document lives (:class:`~lingjun.schema.loader.LoadedDocument` keeps its source text)
_DOCUMENTS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()


def remember(document: Any) -> None:
    """Record ``document`` (a :class:`~lingjun.schema.loader.LoadedDocument`) as the one loaded from its path, for :func:`locate`."""
    _DOCUMENTS[os.path.abspath(document.path)] = document


def locate_in(root: Node, loc: Sequence[LocPart]) -> tuple[int, int, str]:
    """Line, column (1-based) and dotted field path of ``loc`` in the node tree ``root``.

    When ``loc`` names a field the document leaves out, the position of the
    nearest enclosing node is returned.
    """
    _, shown, _, where = _walk_marked(root, loc)
    line, col = _mark_pos(where)
    return line, col, field_path(shown)


def locate(path: Union[str, Path], loc: Sequence[LocPart]) -> tuple[Optional[int], Optional[int], str]:
    """Line, column (1-based) and dotted field path of ``loc`` in the file ``path``.

    A file loaded through the loader is looked up in its document, which
    keeps the source text (no second read).  Any other file is read and composed once
    for this call.  ``(None, None, field path)`` when the file cannot be read
    or parsed.
    """
    document = _DOCUMENTS.get(os.path.abspath(path))
    root = document.tree() if document is not None else None
    if root is None:
        root = _compose_file(Path(path))
    if root is None:
        return None, None, field_path(loc)
    return locate_in(root, loc)


def _compose_file(path: Path) -> Optional[Node]:
    text, _ = read_text(path)
    if text is None:
        return None
    try:
        return compose(text)
    except yaml.YAMLError:
        return None
