"""Ordering of component versions as published.

Versions are compared with :mod:`packaging` (PEP 440).  Published strings
that are not PEP 440 (``15.0.50.20240403-git``) still need a place in a
timeline: they sort after every PEP 440 version of the same component by
their numeric fields, then as text, and a comparison involving them is
reported as ``None`` (unknown) rather than guessed.
"""

from __future__ import annotations

import re
from typing import Optional

from packaging.version import Version

from lingjun.checks.core.version_match import parse_version

__all__ = ["parse_version", "compare_versions", "version_sort_key"]


def compare_versions(old: str, new: str) -> Optional[int]:
    """-1, 0 or 1 comparing ``old`` with ``new``; None when either is not PEP 440.

    Equal strings compare 0 even when not PEP 440.
    """
    if old == new:
        return 0
    a, b = parse_version(old), parse_version(new)
    if a is None or b is None:
        return None
    return (a > b) - (a < b)


_NUM = re.compile(r"\d+")


def version_sort_key(text: str) -> tuple:
    """A total order: PEP 440 versions first by :class:`Version`, others after by numbers then text."""
    parsed = parse_version(text)
    if parsed is not None:
        return (0, parsed, ())
    return (1, Version("0"), (tuple(int(n) for n in _NUM.findall(text)), text))
