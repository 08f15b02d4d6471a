"""Dataclasses built from parsed JSON, each value checked against its field's type (for the checker's own data).

Two inputs use it: a snapshot (:meth:`lingjun.checks.facts.Facts.from_dict`) and the release data's records
(:func:`lingjun.checks.knowledge.release_record.release_from_dict`).  :func:`build` reads the annotations of a
dataclass once per class (``typing.get_type_hints`` is slow) and turns each JSON value into the field's type:

* ``Optional[X]``: null stays None, anything else is converted as ``X``;
* a dataclass: an object whose keys are the field names (or a field's ``metadata["json"]``, for a key that is a
  Python keyword such as ``from``); keys without a field are ignored, missing keys take the field's default;
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
        ValueError: ``data`` is not an object, or a value does not have its field's type
            (``snapshot.gpus[0].index: expected an integer, got '0'``).
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


#: hint -> its converter, made once (id-keyed entries keep the hint so that its id is not reused)
_CONVERTERS: dict[Any, tuple[Any, _Converter]] = {}


def _converter(hint: Any) -> _Converter:
    key = id(hint)
    found = _CONVERTERS.get(key)
    if found is None or found[0] is not hint:
        found = _CONVERTERS[key] = (hint, _make(hint))
    return found[1]


def _make(hint: Any) -> _Converter:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union:
        inner = _LazyConverter([a for a in args if a is not type(None)][0])
        return lambda value, where: None if value is None else inner(value, where)
    if dataclasses.is_dataclass(hint):
        return _object_converter(hint)
    if origin is list or origin is tuple:
        item = _LazyConverter(args[0])
        as_tuple = origin is tuple

        def convert_list(value: Any, where: str) -> Any:
            if not isinstance(value, list):
                raise ValueError(f"{where}: expected a list, got {json_shown(value)}")
            items = [item(v, f"{where}[{i}]") for i, v in enumerate(value)]
            return tuple(items) if as_tuple else items

        return convert_list
    if origin is dict:
        def convert_dict(value: Any, where: str) -> Any:
            if not isinstance(value, dict):
                raise ValueError(f"{where}: expected an object, got {json_shown(value)}")
            return dict(value)

        return convert_dict
    return _scalar_converter(hint)


class _LazyConverter:
    """The converter of a hint, looked up at first use (a dataclass may name itself, or one defined later)."""

    __slots__ = ("hint", "convert")

    def __init__(self, hint: Any) -> None:
        self.hint = hint
        self.convert: Any = None

    def __call__(self, value: Any, where: str) -> Any:
        if self.convert is None:
            self.convert = _converter(self.hint)
        return self.convert(value, where)


def _object_converter(cls: type) -> _Converter:
    """The converter of a dataclass: its fields' converters, read from its annotations at first use."""
    table: list[tuple[str, str, Any]] = []

    def fields(data: Any, where: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
        if not table:
            hints = typing.get_type_hints(cls)
            table.extend((f.name, f.metadata.get("json", f.name), _LazyConverter(hints[f.name]))
                         for f in dataclasses.fields(cls))
        return {name: convert(data[key], f"{where}.{key}") for name, key, convert in table if key in data}

    def convert(data: Any, where: str) -> Any:
        return cls(**fields(data, where))

    convert.fields = fields  # type: ignore[attr-defined]
    return convert


def _scalar_converter(hint: Any) -> _Converter:
    """A bool, int, float or str field's value, checked (a bool is not a number); any other hint takes it as it is."""
    if hint is bool:
        def convert_bool(value: Any, where: str) -> Any:
            if not isinstance(value, bool):
                raise ValueError(f"{where}: expected true/false, got {json_shown(value)}")
            return value

        return convert_bool
    if hint is int:
        def convert_int(value: Any, where: str) -> Any:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{where}: expected an integer, got {json_shown(value)}")
            return value

        return convert_int
    if hint is float:
        return _float
    if hint is str:
        def convert_str(value: Any, where: str) -> Any:
            if not isinstance(value, str):
                raise ValueError(f"{where}: expected a string, got {json_shown(value)}")
            return value

        return convert_str
    return lambda value, where: value


def _float(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where}: expected a number, got {json_shown(value)}")
    try:
        return float(value)
    except OverflowError:  # an integer beyond float's range (a 400-digit number) is unusable
        raise ValueError(f"{where}: number out of range ({len(str(abs(value)))} digits)") from None


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
