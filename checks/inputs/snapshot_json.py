"""The JSON reading of snapshots, one for every reader (``--from``, ``lingjun-check fleet``'s files, folders and
``kubectl logs`` lines): integers of any length and repeated keys are handled the same way everywhere.

* An integer of more than :data:`~lingjun.checks.core.small_int.MAX_DIGITS` digits is kept as a
  :class:`LongNumber` (text), so that the one field holding it is dropped with a short line; Python's ``int()``
  refuses more than 4,300 digits, which used to reject the whole snapshot (and, in a fleet, the node).
* A key repeated in one object raises :class:`DuplicateKeyError` naming it: which of the two values a pod meant
  cannot be known (``json.loads`` silently keeps the last).

Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

from lingjun.checks.core.inert_text import NAME_LIMIT, inert
from lingjun.checks.core.small_int import MAX_DIGITS

__all__ = ["LongNumber", "DuplicateKeyError", "DECODER", "loads"]


class LongNumber(str):
    """A JSON integer too long to be any value of a snapshot: kept as text so the field is dropped with a short line."""

    def __repr__(self) -> str:
        return f"a number of {len(self.lstrip('-'))} digits"


class DuplicateKeyError(ValueError):
    """A key appears twice in one JSON object; ``key`` is it (as decoded)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {inert(repr(key), NAME_LIMIT)} appears twice in one object")
        self.key = key


def _integer(text: str) -> "int | str":
    """``json``'s integer hook: at most ``MAX_DIGITS`` digits as an ``int``, else a :class:`LongNumber`."""
    return int(text) if len(text.lstrip("-")) <= MAX_DIGITS else LongNumber(text)


def _unique_object(pairs: list) -> dict:
    """``json``'s object hook: the members as a dict; raises :class:`DuplicateKeyError` on a repeated key."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return data


#: the decoder every snapshot reader uses (``raw_decode`` for a value inside a longer text)
DECODER = json.JSONDecoder(parse_int=_integer, object_pairs_hook=_unique_object)


def loads(text: str) -> Any:
    """The JSON value of ``text`` (a ``str``), as :func:`json.loads` with the two rules above.

    Raises:
        DuplicateKeyError: a key repeated in one object (a :class:`ValueError`).
        ValueError: not JSON (``json.JSONDecodeError``).
        RecursionError: nested too deeply.
    """
    return DECODER.decode(text)
