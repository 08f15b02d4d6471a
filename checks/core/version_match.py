"""Comparing an installed Python package version with the version a release published.

Uses :mod:`packaging` (PEP 440): ``2.1`` equals ``2.1.0``; ``2.7.1.8+nv25.3``
is compared with its local label; ``2.8.0a0+5228986c39.nv25.06`` and its
normalised form ``...nv25.6`` are equal.  A published version without a
local label matches an installed one with any local label
(``2.7.2`` ~ ``2.7.2+cu128``), as a ``==`` specifier does.  Strings that are
not PEP 440 versions fall back to a case-insensitive text comparison.

Examples:
    >>> same_version("2.1", "2.1.0")
    True
    >>> same_version("2.7.1.8+nv25.3", "2.7.1")
    False
    >>> same_version("15.0.50-git", "15.0.50-git")
    True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from packaging.version import Version

__all__ = ["parse_version", "same_version", "has_local"]


def parse_version(text: Optional[str]) -> Optional[Version]:
    """A PEP 440 Version or None (never raises; each distinct text is parsed once)."""
    if not isinstance(text, str):
        return None
    return _parse(text.strip())


@lru_cache(maxsize=None)
def _parse(text: str) -> Optional[Version]:
    try:
        return Version(text)
    except ValueError:  # InvalidVersion, or a number past int()'s 4,300-digit limit in a hostile input
        return None


def has_local(text: Optional[str]) -> bool:
    """Whether the version carries a local label (``+nv25.3``, ``+ali``, ``+32f93b1``)."""
    v = parse_version(text)
    return bool(v and v.local)


def same_version(published: Optional[str], installed: Optional[str]) -> Optional[bool]:
    """True/False when comparable, None when either side is missing or unreadable as anything."""
    if not isinstance(published, str) or not isinstance(installed, str) or not published.strip() or not installed.strip():
        return None
    pub, inst = parse_version(published), parse_version(installed)
    if pub is None or inst is None:
        if pub is None and inst is None:
            return published.strip().lower() == installed.strip().lower()
        return None
    if pub.local:
        return pub == inst
    return Version(inst.public) == pub
