"""The shape of the release data the checker reads, declared once and checked when a bundle is loaded.

Rules read the bundle as plain JSON (dicts and lists).  A ``--data`` file of the right format but with
a value of another type (``"components": "x"``) used to reach a rule and end as "internal error in rule
...".  :func:`shape_problem` walks a bundle against :data:`BUNDLE_SHAPE` and names the first value
that does not fit (``releases[3].components: expected a list, got str``), so the whole file is refused
as unreadable release data before any rule runs.

The notation of a shape:

- ``str``, ``int``, ``bool``: a JSON string, integer (not true/false), true/false;
- ``[SHAPE]``: a list whose items have SHAPE;
- ``{"key": SHAPE, ...}``: an object; a listed key may be missing (rules read with ``.get``) unless
  its shape is wrapped in :class:`Required`; keys not listed are not read and not checked;
- :class:`Optional_` (``Opt(SHAPE)``): SHAPE or null;
- :class:`MapOf`: an object with any keys, every value of the given shape.

Only fields that the checker (rules, identification, reports) reads are listed; the layout follows
:mod:`lingjun.schema.models` as the bundle dumps it.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

__all__ = ["BUNDLE_SHAPE", "Opt", "MapOf", "Required", "shape_problem", "shape_paths"]


class Opt:
    """The inner shape, or null."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner


class MapOf:
    """An object with any keys whose values all have the inner shape."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner


class Required:
    """A key that must be present, with the inner shape."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner


#: text in both languages ({"en": ..., "zh": ...})
TEXT = {"en": str, "zh": str}
_SOURCES = [{"url": str, "title": Opt(str), "language": str}]
#: the NVIDIA documents a reference table cites (rules link to them)
_REFERENCE_SOURCES = [{"id": str, "url": str}]  # rules read the url (a description may be text in both languages)
_ENV_CLAUSE = {"name": Required(str), "equals": Opt(str), "not_equals": Opt(str), "unset": Opt(bool)}
#: a test of one fact (``value``: a number, a word, true/false or a list of them, by the fact's kind)
_FACT_CLAUSE = {"fact": Required(str), "op": Required(str), "value": object}
_CONDITION = {"components": MapOf(str), "gpu_models": [str], "served_models": [str], "env": [_ENV_CLAUSE],
              "architectures": [str], "facts": [_FACT_CLAUSE]}
_REMEDIES = {"docker": Opt(TEXT), "kubernetes": Opt(TEXT), "acs": Opt(TEXT), "image": Opt(TEXT)}

_COMPONENTS = [{"id": Required(str), "name": str, "version": Required(str), "architectures": [str],
                "introduced": bool}]
_IMAGE_TAGS = [{"tag": Required(str), "reference": str, "architectures": [str], "products": [str],
                "not_for": [str], "digest": Opt(str)}]
#: a framework runtime of an image (its own Python environment under ``path``)
_RUNTIME = {"id": Required(str), "name": str, "path": Opt(str), "python": Opt(str), "component_list": Opt(str),
            "components": _COMPONENTS}

BUNDLE_SHAPE = {
    "format": Required(str),
    "site_url": Opt(str),  # null: no published site; held to the site URL rules too (lingjun.checks.core.site_url)
    "families": [{
        "id": Required(str), "role": str, "title": TEXT, "vendor": str, "image_name": str, "homepage": Opt(str),
        "public_registry_pattern": str, "vpc_registry_pattern": Opt(str), "vpc_note": Opt(TEXT),
        # releases the pages name without a record: where they are named, nothing else is known
        "unrecorded_releases": [{"version": Required(str), "image_tags": [str], "named_in": [str]}],
    }],
    "components": [{
        "id": Required(str), "name": str, "homepage": Opt(str), "release_notes_url": Opt(str), "pypi": [str],
        "published_names": [str], "torch_extension": bool, "vendor_build": bool,
        "probe": {"kind": str, "executable": Opt(str), "version_regex": Opt(str)},
    }],
    "releases": [{
        "family": Required(str), "version": Required(str), "kind": str, "status": str, "python": Opt(str),
        "cuda": Opt(str), "ppu_sdk": Opt(str), "architectures": [str], "release_date": Opt(str),
        "component_list": str,
        "components": _COMPONENTS,
        "presence_unknown": [str],
        "order_key": Opt([int]),  # [year, month, day]; day 0 for a YY.MM month (lingjun.checks.core.release_order)
        "variants": [{
            "id": Required(str), "title": TEXT, "image_tags": _IMAGE_TAGS, "architectures": [str], "cuda": Opt(str),
            "ppu_sdk": Opt(str), "python": Opt(str), "component_list": Opt(str), "components": _COMPONENTS,
            "presence_unknown": [str], "runtimes": [_RUNTIME],
        }],
        "runtimes": [_RUNTIME],
        "driver": Opt({  # null: the record states no driver requirement (training-xpu-pytorch 2026-10-20)
            "vendor": str, "minimum": str, "recommended": Opt(str), "stated_as": Opt(str), "text_truncated": bool,
            "must_upgrade_branches": [int],
            "forward_compatibility": [{"branch": int, "minimum": str}],
            "branch_resolutions": [{"branch": int, "decision": str, "reason": TEXT}],
        }),
        "gpu_support": Opt({"models": [str], "architectures": [str], "compute_capabilities": [str], "list_state": str}),
        "image_tags": _IMAGE_TAGS,
        "features": [{"id": str, "body": TEXT}],
        "known_issues": [str],
        "usage_notes": [{"id": str, "rule": Opt(str), "text": TEXT}],
        "quick_start": [{"commands": [str]}],
        "not_captured": [str],  # sections of the official page the record's copy does not show
        "sources": _SOURCES,
    }],
    "known_issues": [{
        "id": Required(str), "kind": str, "status": str, "severity": str, "title": TEXT, "description": TEXT,
        "workaround": TEXT, "fixed_in": [str],
        "affects": {"families": [str], "releases": [str], "components": MapOf(str), "gpu_models": [str],
                    "served_models": [str]},
        "condition": _CONDITION,
        "upstream": [{"kind": str, "project": str, "number": Opt(int), "title": Opt(str), "url": str}],
        "sources": _SOURCES,
    }],
    "signatures": [{
        "id": Required(str), "printed_by": str, "severity": str, "title": TEXT, "explanation": TEXT,
        "patterns": [{"literal": Required(str), "regex": Opt(str)}],
        "causes": [{"id": Required(str), "title": TEXT, "condition": Opt(_CONDITION), "severity": Opt(str), "remedies": _REMEDIES,
                    "rules": [str]}],
        "rules": [str], "components": [str], "known_issues": [str],
        "sources": [{"url": str, "title": str}],
    }],
    "cuda_drivers": Opt({
        "toolkit_min_driver": [{"cuda": str, "toolkit": str, "release": str, "linux_min_driver": str,
                                "windows_min_driver": Opt(str), "source": str}],
        "toolkit_branch": [{"cuda": str, "branch": int, "source": str}],
        "minor_version_compat": [{"cuda_major": int, "min_branch": int, "max_branch_exclusive": Opt(int),
                                  "min_driver": str}],
        "forward_compat_images": [{"image_cuda": str, "branches": [int], "source": str}],
        "forward_compat_scope": Opt(TEXT),
        "sources": _REFERENCE_SOURCES,
    }),
    "gpus": Opt({
        "gpus": [{"name": str, "compute_capability": str, "data_center": bool}],
        "sources": _REFERENCE_SOURCES,
    }),
    "torch_wheels": Opt({
        "wheels": [{"releases": [str], "cuda": [str], "source": str}],
        "sources": _REFERENCE_SOURCES,
    }),
    "driver_branches": Opt({
        "branches": [{"branch": int, "type": Opt(str), "eol": Opt(str), "eol_undated": Opt(str), "end_of_life": Opt(bool),
                      "max_cuda_major_without_compat": Opt(int), "note": Opt(TEXT), "source": str}],
        "sources": _REFERENCE_SOURCES,
    }),
}

_NAMES = {str: "a string", int: "an integer", bool: "true or false", object: "a value"}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", int: "integer", float: "number", str: "string", list: "list", dict: "object"}.get(
        type(value), type(value).__name__)


def shape_problem(value: Any, shape: Any = None, where: str = "") -> Optional[str]:
    """The first place where ``value`` does not fit ``shape`` (default :data:`BUNDLE_SHAPE`), or None.

    Returns ``"PATH: expected ..., got KIND"`` with PATH like ``releases[3].components[0].version``
    (empty for the top level).  Iterative over lists, recursive over the (shallow) nesting of the spec.
    """
    if shape is None:
        shape = BUNDLE_SHAPE
    if isinstance(shape, Required):
        shape = shape.inner
    if isinstance(shape, Opt):
        if value is None:
            return None
        shape = shape.inner
    if isinstance(shape, type):
        ok = isinstance(value, shape) and not (shape is int and isinstance(value, bool))
        return None if ok else f"{where or 'top level'}: expected {_NAMES[shape]}, got {_kind(value)}"
    if isinstance(shape, list):
        return _list_problem(value, shape[0], where)
    if not isinstance(value, dict):
        return f"{where or 'top level'}: expected an object, got {_kind(value)}"
    if isinstance(shape, MapOf):
        return _first(shape_problem(item, shape.inner, f"{where}.{key}" if where else str(key)) for key, item in value.items())
    return _object_problem(value, shape, where)


def _first(problems: Iterator[Optional[str]]) -> Optional[str]:
    """The first problem of a lazy sequence (the rest are not computed), or None."""
    return next((problem for problem in problems if problem), None)


def _list_problem(value: Any, item_shape: Any, where: str) -> Optional[str]:
    if not isinstance(value, list):
        return f"{where or 'top level'}: expected a list, got {_kind(value)}"
    return _first(shape_problem(item, item_shape, f"{where}[{i}]") for i, item in enumerate(value))


def _object_problem(value: dict, shape: dict, where: str) -> Optional[str]:
    """The first field of an object spec that is missing (where :class:`Required`) or does not fit."""
    for key, inner in shape.items():
        path = f"{where}.{key}" if where else key
        if key not in value:
            if isinstance(inner, Required):
                return f"{path}: missing"
            continue
        problem = shape_problem(value[key], inner, path)
        if problem:
            return problem
    return None


def shape_paths(shape: Any = None, where: str = "") -> Iterator[tuple[str, Any]]:
    """Every ``(path, shape)`` the spec lists, lists as ``[]`` (``releases[].components[].version``); for tests."""
    if shape is None:
        shape = BUNDLE_SHAPE
    for wrapper in (Required, Opt):
        if isinstance(shape, wrapper):
            shape = shape.inner
    if isinstance(shape, list):
        yield from shape_paths(shape[0], f"{where}[]")
    elif isinstance(shape, MapOf):
        yield from shape_paths(shape.inner, f"{where}.*")
    elif isinstance(shape, dict):
        for key, inner in shape.items():
            path = f"{where}.{key}" if where else key
            yield path, inner
            yield from shape_paths(inner, path)
