"""Finding every value of one type inside a validated document, with its location.

Used by rules that look at all prose (:class:`LocalizedText`) or all strings
of a record.  Which fields can hold the wanted type is worked out once per
model class from the annotations, so fields that cannot (versions, ids) are
never visited.
"""

from __future__ import annotations

import functools
from typing import Any, Iterator, Union

from pydantic import BaseModel

from lingjun.schema.loader import nested_types

__all__ = ["iter_instances", "iter_strings"]

Loc = tuple[Union[str, int], ...]


@functools.lru_cache(maxsize=None)
def _fields_holding(model: type[BaseModel], target: type) -> tuple[str, ...]:
    """Names of ``model``'s fields whose type can contain a ``target`` at any depth."""

    def can_hold(tp: Any, seen: frozenset) -> bool:
        for sub in nested_types(tp):
            if sub is target or (isinstance(sub, type) and issubclass(sub, target)):
                return True
            if isinstance(sub, type) and issubclass(sub, BaseModel) and sub not in seen:
                if any(can_hold(info.annotation, seen | {sub}) for info in sub.model_fields.values()):
                    return True
        return False

    return tuple(name for name, info in model.model_fields.items() if can_hold(info.annotation, frozenset({model})))


def iter_instances(value: Any, target: type, loc: Loc = ()) -> Iterator[tuple[Loc, Any]]:
    """Yield ``(loc, instance)`` for every ``target`` instance inside ``value`` (a model, list or dict).

    ``loc`` is the location as the data is written (``("highlights", 0, "text")``).
    """
    if isinstance(value, target):
        yield loc, value
        return
    if isinstance(value, BaseModel):
        for name in _fields_holding(type(value), target):
            child = getattr(value, name)
            if child is not None:
                yield from iter_instances(child, target, loc + (name,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from iter_instances(item, target, loc + (index,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from iter_instances(item, target, loc + (key,))


def iter_strings(value: Any, loc: Loc = ()) -> Iterator[tuple[Loc, str]]:
    """Yield ``(loc, text)`` for every string value inside ``value`` (enum members are skipped)."""
    for found_loc, text in iter_instances(value, str, loc):
        if type(text) is str:
            yield found_loc, text
