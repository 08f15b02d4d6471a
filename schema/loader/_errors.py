"""Step 3: schema validation, with pydantic errors turned into positioned problems."""

from __future__ import annotations

import difflib
import typing
from pathlib import Path
from typing import Any, Optional, Sequence

import pydantic
from pydantic import BaseModel
from yaml.nodes import MappingNode, Node, ScalarNode

from lingjun.schema.loader._documents import LoadedDocument, _mark_pos, _problem
from lingjun.schema.loader._positions import _walk, _walk_marked, nested_types, remember
from lingjun.schema.loader._yaml import BOOL, NULL, STR, TIMESTAMP, _TYPE_WORDS
from lingjun.schema.models import DOCUMENT_MODELS
from lingjun.schema.problems import LocPart, Problem, Severity, field_path

#: hints added to pattern errors of the constrained string types in :mod:`lingjun.schema.fields`
_PATTERN_HINTS = {
    r"^[a-z0-9][a-z0-9._-]{0,63}$": "an id is lower-case letters, digits, '.', '_' and '-' (at most 64)",
    r"^20\d{2}-(0[1-9]|1[0-2])$": 'a month is YYYY-MM, e.g. "2026-08"',
    r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$": "a version is letters, digits and . + _ - as published (no spaces)",
}


def _unwrap(tp: Any, part: LocPart) -> Any:
    """The type found one step into ``tp`` at ``part`` (a field, an index or a dict key)."""
    for candidate in nested_types(tp):
        if isinstance(part, str) and isinstance(candidate, type) and issubclass(candidate, BaseModel):
            info = candidate.model_fields.get(part)
            if info is not None:
                return info.annotation
        origin = typing.get_origin(candidate)
        if isinstance(part, int) and origin is list:
            return typing.get_args(candidate)[0]
        if isinstance(part, str) and origin is dict:
            return typing.get_args(candidate)[1]
    return None


def _allowed_fields(model: type[BaseModel], loc: Sequence[LocPart]) -> list[str]:
    """Field names of the model found at ``loc`` inside ``model`` (empty when none)."""
    tp: Any = model
    for part in loc:
        if part == "[key]":
            continue
        nxt = _unwrap(tp, part)
        if nxt is not None:
            tp = nxt
    for candidate in nested_types(tp):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return list(candidate.model_fields)
    return []


def _describe_input(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _error_problem(path: Path, root: Node, model: type[BaseModel], error: dict[str, Any]) -> Problem:
    """Turn one pydantic error into a positioned problem."""
    loc = tuple(error["loc"])
    kind = error["type"]
    node, shown, complete, where = _walk_marked(root, loc)
    reached = node
    fpath = field_path(shown)
    rule = "schema.type"
    message = error["msg"]
    if kind == "missing":
        rule, message = "schema.missing", f"required field `{loc[-1]}` is missing"
    elif kind == "extra_forbidden":
        name = str(loc[-1])
        rule, message = "schema.unknown-field", f"unknown field `{name}`"
        key_node = _walk(root, loc + ("[key]",))[0]
        node = key_node
        allowed = _allowed_fields(model, loc[:-1])
        close = difflib.get_close_matches(name, allowed, n=1)
        if close:
            message += f"; did you mean `{close[0]}`?"
        elif allowed:
            message += f"; allowed here: {', '.join(allowed)}"
    elif kind in ("string_type", "str_type") and isinstance(node, ScalarNode) and node.tag != STR and complete:
        rule = "yaml.unquoted-string"
        text = node.value
        if node.tag == NULL and text in ("", "~"):
            rule, message = "schema.missing", "no value given; write the text (quoted where it looks like a number)"
        else:
            message = (f"{text} is read by YAML as {_TYPE_WORDS.get(node.tag, node.tag)} "
                       f"({_describe_input(error.get('input'))}), not text; quote it: write \"{text}\"")
    elif complete and isinstance(node, ScalarNode) and node.tag == NULL and error.get("input") is None:
        # `status:` / `status: ~` / `branch: null` where a value is needed
        rule = "schema.missing"
        expected = (error.get("ctx") or {}).get("expected")
        shown = "no value given" if node.value in ("", "~") else f"{node.value} is read by YAML as null (no value)"
        message = f"{shown}; expected {expected}" if expected else f"{shown} ({message})"
    elif kind in ("enum", "literal_error"):
        rule = "schema.enum"
        expected = (error.get("ctx") or {}).get("expected", "")
        message = f"{_describe_input(error.get('input'))} is not allowed here; expected {expected}"
    elif kind == "string_pattern_mismatch":
        rule = "schema.pattern"
        pattern = (error.get("ctx") or {}).get("pattern", "")
        hint = _PATTERN_HINTS.get(pattern, f"it must match {pattern}")
        message = f"{_describe_input(error.get('input'))} has the wrong form: {hint}"
    elif kind == "value_error":
        rule = "schema.value"
        message = message.removeprefix("Value error, ")
        # model validators name the field first ("minimum: ..."): point at it
        head, sep, rest = message.partition(": ")
        if sep and head.isidentifier() and isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, ScalarNode) and key_node.value == head:
                    node, fpath, message = value_node, field_path(list(shown) + [head]), rest
                    break
    elif kind.startswith("date") or kind.startswith("datetime"):
        rule = "schema.date"
        shown = repr(node.value) if complete and isinstance(node, ScalarNode) else _describe_input(error.get("input"))
        message = f"{shown} is not a date; write YYYY-MM-DD, e.g. 2025-07-31"
    elif complete and isinstance(node, ScalarNode) and node.tag in (BOOL, TIMESTAMP):
        # `branch: yes` fails a number check: say how YAML read it
        message = (f"{node.value} is read by YAML as {_TYPE_WORDS[node.tag]} "
                   f"({_describe_input(error.get('input'))}): {message}")
    elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        rule = "schema.length"
    line, col = _mark_pos(where if node is reached else node)
    return Problem(str(path), line, col, fpath, message, Severity.error, rule)


def validate_document(path: Path, data: Any, root: Node, source: Optional[str] = None) -> tuple[Optional[LoadedDocument], list[Problem]]:
    """Validate parsed ``data`` (composed as ``root`` from the text ``source``) against the model its ``kind`` names.

    Returns ``(document, problems)``; ``document`` is None when there are errors.
    """
    kinds = ", ".join(sorted(DOCUMENT_MODELS))
    kind = data.get("kind")
    if kind is None:
        guess = _guess_kind(path)
        hint = f"; this file looks like `kind: {guess}`" if guess else ""
        return None, [_problem(path, 1, 1, f"required field `kind` is missing (one of: {kinds}){hint}",
                               "schema.missing", field="kind")]
    model = DOCUMENT_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        node, _, _ = _walk(root, ("kind",))
        line, col = _mark_pos(node)
        return None, [_problem(path, line, col, f"unknown kind {_describe_input(kind)}; expected one of: {kinds}",
                               "schema.enum", field="kind")]
    try:
        document = model.model_validate(data)
    except pydantic.ValidationError as exc:
        return None, [_error_problem(path, root, model, err) for err in exc.errors(include_url=False)]
    loaded = LoadedDocument(path=path, kind=kind, model=document,
                            source=source.encode("utf-8") if source is not None else None)
    remember(loaded)
    return loaded, []


def _guess_kind(path: Path) -> Optional[str]:
    name = path.name
    if path.parent.name == "known-issues":
        return "known-issue"
    if path.parent.name == "troubleshooting":
        return "error-signature"
    if path.parent.name == "errors":
        return {"xid": "xid-catalog", "cuda-errors": "cuda-error-catalog",
                "nccl-warnings": "nccl-warning-catalog",
                "nvidia-container-cli": "container-cli-error-catalog"}.get(path.stem)
    for kind in ("families", "components", "cuda-drivers", "driver-branches", "gpus", "torch-wheels"):
        if name.startswith(kind + "."):
            return kind
    if path.stem[:2].isdigit():
        return "release"
    return None
