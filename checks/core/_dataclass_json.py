"""Dataclasses built from parsed JSON, each value checked against its field's type (for the checker's own data).

Two inputs use it: a snapshot (:meth:`lingjun.checks.facts.Facts.from_dict`) and the release data's records
(:func:`lingjun.checks.knowledge.release_record.release_from_dict`).  :func:`build` reads the annotations of a
dataclass once per class (``typing.get_type_hints`` is slow) and turns each JSON value into the field's type:

* ``Optional[X]``: null stays None, anything else is converted as ``X``;
* a dataclass: an object whose keys are the field names (or a field's ``metadata["json"]``, for a key that is a
  Python keyword such as ``from``; None: a field not read from the JSON); keys without a field are ignored,
  missing keys take the field's default (a field without a default must be there);
* ``list[X]``: a list, each item converted as ``X``; ``tuple[X, ...]``: the same, as a tuple;
* ``dict[...]``: an object, copied (its values are not checked);
* ``bool``, ``int`` (not true/false), ``float`` (an integer or a number, as a float), ``str``: checked;
  any other type (``Any``, ``object``) takes the value as it is.

Standard library only.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Callable

__all__ = ["build", "convert", "json_shown"]

#: a converter: (value, where) -> the field's value; raises ValueError
_Converter = Callable[[Any, str], Any]


def build(cls: type, data: Any, where: str, **extra: Any) -> Any:
    """An instance of the dataclass ``cls`` from the JSON object ``data``, with ``extra`` keyword arguments added.

    ``where`` names ``data`` in messages (``snapshot``, ``releases[3]``); a field adds ``.name``, a list item ``[i]``.

    Raises:
        ValueError: ``data`` is not an object, a field without a default is missing (``releases[3].family: missing``),
            or a value does not have its field's type (``snapshot.gpus[0].index: expected an integer, got '0'``).
    """
    convert = _converter(cls)
    if not extra:
        return convert(data, where)
    return cls(**convert.fields(data, where), **extra)  # type: ignore[attr-defined]


def convert(hint: Any, value: Any, where: str) -> Any:
    """``value`` as the type ``hint`` (one field's value; see the module docstring for the types).

    Raises:
        ValueError: ``value`` does not have that type (``where: expected a string, got 3``).
    """
    return _converter(hint)(value, where)


#: where a value is: the text given, or ``(where, key)`` for a field and ``(where, index)`` for a list item, spelled
#: out (:func:`_spelled`) only in a message: most values fit, and a path string per value cost most of the time
_Where = Any


def _spelled(where: _Where) -> str:
    parts: list[str] = []
    while isinstance(where, tuple):
        where, key = where
        parts.append(f"[{key}]" if isinstance(key, int) else f".{key}")
    return str(where) + "".join(reversed(parts))


#: hint -> its converter, made once (id-keyed entries keep the hint so that its id is not reused)
_CONVERTERS: dict[Any, tuple[Any, _Converter]] = {}


def _converter(hint: Any) -> _Converter:
    key = id(hint)
    found = _CONVERTERS.get(key)
    if found is None or found[0] is not hint:
        found = _CONVERTERS[key] = (hint, _make(hint))
    return found[1]


def _make(hint: Any) -> _Converter:
    """The converter of ``hint``; a dataclass's fields are read at its first object (a class may name itself)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union:
        inner = _converter([a for a in args if a is not type(None)][0])
        return lambda value, where: None if value is None else inner(value, where)
    if dataclasses.is_dataclass(hint):
        return _object_converter(hint)
    if origin is list or origin is tuple:
        item = _converter(args[0])
        as_tuple = origin is tuple

        def convert_list(value: Any, where: _Where) -> Any:
            if not isinstance(value, list):
                raise ValueError(f"{_spelled(where)}: expected a list, got {json_shown(value)}")
            items = [item(v, (where, i)) for i, v in enumerate(value)]
            return tuple(items) if as_tuple else items

        return convert_list
    if origin is dict:
        def convert_dict(value: Any, where: _Where) -> Any:
            if not isinstance(value, dict):
                raise ValueError(f"{_spelled(where)}: expected an object, got {json_shown(value)}")
            return dict(value)

        return convert_dict
    return _scalar_converter(hint)


def _object_converter(cls: type) -> _Converter:
    """The converter of a dataclass: its fields' converters, read from its annotations at its first object."""
    table: list[tuple[str, str, Any]] = []
    required: list[str] = []

    def fields(data: Any, where: _Where) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ValueError(f"{_spelled(where)}: expected an object, got {type(data).__name__}")
        if not table:
            hints = typing.get_type_hints(cls)
            read = [f for f in dataclasses.fields(cls) if f.metadata.get("json", f.name) is not None]
            required.extend(f.metadata.get("json", f.name) for f in read
                            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
            table.extend((f.name, f.metadata.get("json", f.name), _converter(hints[f.name])) for f in read)
        for key in required:
            if key not in data:
                raise ValueError(f"{_spelled((where, key))}: missing")
        return {name: convert(data[key], (where, key)) for name, key, convert in table if key in data}

    def convert(data: Any, where: _Where) -> Any:
        return cls(**fields(data, where))

    convert.fields = fields  # type: ignore[attr-defined]
    return convert


def _scalar_converter(hint: Any) -> _Converter:
    """A bool, int, float or str field's value, checked (a bool is not a number); any other hint takes it as it is."""
    if hint is bool:
        def convert_bool(value: Any, where: str) -> Any:
            if not isinstance(value, bool):
                raise ValueError(f"{_spelled(where)}: expected true/false, got {json_shown(value)}")
            return value

        return convert_bool
    if hint is int:
        def convert_int(value: Any, where: str) -> Any:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{_spelled(where)}: expected an integer, got {json_shown(value)}")
            return value

        return convert_int
    if hint is float:
        return _float
    if hint is str:
        def convert_str(value: Any, where: str) -> Any:
            if not isinstance(value, str):
                raise ValueError(f"{_spelled(where)}: expected a string, got {json_shown(value)}")
            return value

        return convert_str
    return lambda value, where: value


def _float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{_spelled(where)}: expected a number, got {json_shown(value)}")
    try:
        return float(value)
    except OverflowError:  # an integer beyond float's range (a 400-digit number) is unusable
        raise ValueError(f"{_spelled(where)}: number out of range ({len(str(abs(value)))} digits)") from None


def json_shown(value: Any) -> str:
    """A value as a reader of the JSON knows it: ``null``, ``true``, a quoted string (cut), a number, a list."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value[:60] + ("…" if len(value) > 60 else ""))
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = str(value)
    return text if len(text) <= 40 else f"a number of {len(text)} digits"
