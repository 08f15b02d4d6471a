"""Export the pydantic models as draft-07 JSON Schema files, ``schema/<kind>.schema.json``.

Editors (``# yaml-language-server: $schema=...`` at the top of each data
file) and other tools read these files; the site publishes them under
``api/v1/schema/``.  pydantic writes JSON Schema 2020-12 style (``$defs``);
draft-07 is what most YAML editors support, so definitions move to
``definitions``, references are rewritten, and a ``$ref`` with sibling
keywords (which draft-07 ignores) is wrapped in ``allOf``.  The output is
deterministic: same models, byte-identical files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lingjun.checks.core.atomic_write import atomic_write, check_output_file, read_prefix
from lingjun.schema.models import DOCUMENT_MODELS

__all__ = ["SCHEMA_DIR", "DRAFT_07", "SCHEMA_FILE_KIND", "schema_file_name", "json_schema", "render_schema",
           "is_previous_schema_file", "check_schema_targets", "write_schemas", "stale_schemas"]

#: the ``schema/`` folder of this checkout, where the exported files are committed
SCHEMA_DIR = Path(__file__).resolve().parent

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

#: keywords of JSON Schema 2019-09/2020-12 that draft-07 does not know
_NEWER_KEYWORDS = {"prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentRequired",
                   "dependentSchemas", "$anchor", "$dynamicRef", "$dynamicAnchor", "$defs"}


def schema_file_name(kind: str) -> str:
    """``release`` -> ``release.schema.json``."""
    return f"{kind}.schema.json"


def _to_draft07(node: Any) -> Any:
    """Rewrite one pydantic JSON Schema node (recursively) into draft-07 form."""
    if isinstance(node, list):
        return [_to_draft07(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$defs":
            out["definitions"] = {name: _to_draft07(sub) for name, sub in value.items()}
        elif key == "$ref" and isinstance(value, str):
            out["$ref"] = value.replace("#/$defs/", "#/definitions/")
        elif key in ("properties", "definitions", "patternProperties"):
            out[key] = {name: _to_draft07(sub) for name, sub in value.items()}
        else:
            out[key] = _to_draft07(value)
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out = {"allOf": [{"$ref": ref}], **out}
    return out


def _newer_keywords(node: Any, where: str = "#") -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in _NEWER_KEYWORDS:
                found.append(f"{where}/{key}")
            # names under properties/definitions are field names, not keywords
            if key in ("properties", "definitions", "patternProperties") and isinstance(value, dict):
                for name, sub in value.items():
                    found += _newer_keywords(sub, f"{where}/{key}/{name}")
            else:
                found += _newer_keywords(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found += _newer_keywords(item, f"{where}/{index}")
    return found


def json_schema(kind: str) -> dict[str, Any]:
    """The draft-07 JSON Schema of one document kind.

    Raises:
        KeyError: for an unknown kind.
        ValueError: when the models produce a keyword draft-07 does not have.
    """
    model = DOCUMENT_MODELS[kind]
    converted = _to_draft07(model.model_json_schema(mode="validation"))
    newer = _newer_keywords(converted)
    if newer:
        raise ValueError(f"{kind}: JSON Schema keywords draft-07 lacks: {', '.join(newer)}")
    return {"$schema": DRAFT_07, **converted}


def render_schema(kind: str) -> str:
    """The file content for one kind: indented JSON, UTF-8 characters kept, final newline."""
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


#: what :func:`is_previous_schema_file` recognises, for refusal messages
SCHEMA_FILE_KIND = "a JSON Schema file lingjun-kb schema wrote"

#: the largest schema file recognised (the exported ones are under 64 KiB)
_SCHEMA_FILE_LIMIT = 1 << 20


def is_previous_schema_file(path: str) -> bool:
    """True when the regular file ``path`` is a schema :func:`write_schemas` wrote (possibly for older models):
    it starts as :func:`render_schema` output does (``{"$schema": draft-07``) and its ``title`` is the
    title of one of the document models.  At most 1 MiB is read, never following a link."""
    data = read_prefix(path, _SCHEMA_FILE_LIMIT + 1)
    start = ('{\n  "$schema": ' + json.dumps(DRAFT_07) + ",\n").encode("ascii")
    if len(data) > _SCHEMA_FILE_LIMIT or not data.startswith(start):
        return False
    try:
        title = json.loads(data.decode("utf-8")).get("title")
    except (ValueError, AttributeError):
        return False
    return title in {model.__name__ for model in DOCUMENT_MODELS.values()} | {
        model.model_config.get("title") for model in DOCUMENT_MODELS.values()} - {None}


def check_schema_targets(out: Path) -> list[Path]:
    """The file of every kind in ``out``, each checked with
    :func:`~lingjun.checks.core.atomic_write.check_output_file` (:func:`is_previous_schema_file`).

    Raises:
        UnsafeOutputPath: the first target that may not be written (none has been written).
    """
    paths = [Path(out) / schema_file_name(kind) for kind in sorted(DOCUMENT_MODELS)]
    for path in paths:
        check_output_file(path, is_previous_schema_file, SCHEMA_FILE_KIND)
    return paths


def write_schemas(out: Path = SCHEMA_DIR) -> list[Path]:
    """Write every kind's schema into ``out`` (each file replaced atomically); returns the paths written.

    Every target is checked (:func:`check_schema_targets`) and every schema rendered before the
    first file is written.

    Raises:
        UnsafeOutputPath: a target is not a new file or a schema file written before; nothing is written.
        OSError: a file cannot be written (files already written stay, each whole).
    """
    paths = check_schema_targets(out)
    texts = [render_schema(kind) for kind in sorted(DOCUMENT_MODELS)]
    out.mkdir(parents=True, exist_ok=True)
    for path, text in zip(paths, texts):
        atomic_write(path, text, replaceable=is_previous_schema_file, ours=SCHEMA_FILE_KIND)
    return paths


def stale_schemas(out: Path = SCHEMA_DIR) -> list[str]:
    """File names in ``out`` that are missing or differ from what :func:`write_schemas` would write."""
    stale = []
    for kind in sorted(DOCUMENT_MODELS):
        path = out / schema_file_name(kind)
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            current = None
        if current != render_schema(kind):
            stale.append(path.name)
    return stale
