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
        "sources": [{"url": str}],
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
    "catalog_messages": [str],
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
    (empty for the top level).  A bundle that fits is walked once without naming a path (:func:`_fits`); one
    that does not is walked again down the parts that do not fit only, naming the first problem.
    """
    if shape is None:
        shape = BUNDLE_SHAPE
    return None if _fits(value, shape) else _problem(value, shape, where)


def _fits(value: Any, shape: Any) -> bool:
    """Whether ``value`` fits ``shape`` (:func:`shape_problem` would say None), without building a path."""
    found = _FITTERS.get(id(shape))
    if found is None or found[0] is not shape:
        found = _FITTERS[id(shape)] = (shape, _fitter(shape))
    return found[1](value)


#: id(shape) -> (shape, its test): the shape is kept so that its id is not reused
_FITTERS: dict = {}


def _fitter(shape: Any) -> Any:
    """A function telling whether a value fits ``shape``: the spec is read once, not at every value."""
    if isinstance(shape, Required):
        shape = shape.inner
    if isinstance(shape, Opt):
        inner = _fitter(shape.inner)
        return lambda value: value is None or inner(value)
    if shape is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if isinstance(shape, type):
        return lambda value: isinstance(value, shape)
    if isinstance(shape, list):
        item_shape = shape[0]
        if item_shape is str or item_shape is bool or item_shape is object:  # a list of words: no call per item
            return lambda value: isinstance(value, list) and all(isinstance(item, item_shape) for item in value)
        item = _fitter(item_shape)
        return lambda value: isinstance(value, list) and all(item(v) for v in value)
    if isinstance(shape, MapOf):
        inner = _fitter(shape.inner)
        return lambda value: isinstance(value, dict) and all(inner(v) for v in value.values())
    fields = [(key, _fitter(inner), isinstance(inner, Required)) for key, inner in shape.items()]

    def fits_object(value: Any) -> bool:
        if not isinstance(value, dict):
            return False
        for key, fits, required in fields:
            if key in value:
                if not fits(value[key]):
                    return False
            elif required:
                return False
        return True

    return fits_object


def _problem(value: Any, shape: Any, where: str) -> Optional[str]:
    """:func:`shape_problem` of a ``value`` that does not fit ``shape``: the first item or field that does not
    (:func:`_fits`) is named, or walked into."""
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
        if not isinstance(value, list):
            return f"{where or 'top level'}: expected a list, got {_kind(value)}"
        return next((_problem(item, shape[0], f"{where}[{i}]") for i, item in enumerate(value)
                     if not _fits(item, shape[0])), None)
    if not isinstance(value, dict):
        return f"{where or 'top level'}: expected an object, got {_kind(value)}"
    if isinstance(shape, MapOf):
        return next((_problem(item, shape.inner, f"{where}.{key}" if where else str(key)) for key, item in value.items()
                     if not _fits(item, shape.inner)), None)
    for key, inner in shape.items():
        path = f"{where}.{key}" if where else key
        if key not in value:
            if isinstance(inner, Required):
                return f"{path}: missing"
            continue
        if not _fits(value[key], inner):
            return _problem(value[key], inner, path)
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
