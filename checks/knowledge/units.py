"""Sizes and limits as a report shows them: ``64 MiB``, ``8 MiB``, ``unlimited``.

One concern: how a byte count or a limit is written (the container rules and the conditions share it).
"""

from __future__ import annotations

from lingjun.checks.report.findings import Text

__all__ = ["KIB", "MIB", "GIB", "size", "limit", "known_limit"]

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB


def known_limit(n: "int | None") -> "int | None":
    """A limit as read (-1 is ``RLIM_INFINITY``, unlimited) or None when it is not a limit at all (below -1).

    >>> known_limit(-1), known_limit(-5), known_limit(1024), known_limit(None)
    (-1, None, 1024, None)
    """
    return None if n is None or n < -1 else n


def size(n: int) -> str:
    """``n`` bytes in the largest binary unit that divides it, else with one decimal (``1.2 GiB``); from 16 GiB on, a
    size that is not a whole number of MiB is still shown in GiB.

    >>> size(67108864), size(8388608), size(3 * GIB // 2), size(1000), size(64 * GIB + 4096)
    ('64 MiB', '8 MiB', '1536 MiB', '1000 B', '64.0 GiB')
    """
    if n >= 16 * GIB and n % MIB != 0:
        return f"{n / GIB:.1f} GiB"
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if n >= unit:
            return f"{n / unit:.1f} {name}"
    return f"{n} B"


def limit(n: int, unit: str = "bytes") -> Text:
    """A resource limit: ``unlimited`` for -1 (``RLIM_INFINITY``), else :func:`size` (``unit="bytes"``) or the count.

    >>> limit(-1).en, limit(-1).zh, limit(8388608).en, limit(1024, "count").en
    ('unlimited', '不限', '8 MiB', '1024')
    """
    if n < 0:
        return Text("unlimited", "不限")
    text = size(n) if unit == "bytes" else str(n)
    return Text(text, text)
