"""Release identifiers and the order of releases within a family.

Most families name a release ``YY.MM`` (``25.07``).  Newer pages name releases
differently: the PPU training image of 20 October 2026 is "2026-10-20"
(https://help.aliyun.com/zh/document_detail/3172892.html) and
``inference-xpu-pytorch-opt`` names its release by its image tag
(``sglang0.5.4.post3-250105``, https://help.aliyun.com/zh/document_detail/3014531.html).
Releases are therefore ordered by date, never by comparing identifiers as text:

* ``YY.MM`` -> ``(20YY, MM, 0)``: a month, placed before any dated release of that month;
* ``YYYY-MM-DD`` -> that day;
* any other identifier -> the record's ``release_date`` when it states one, else no key (the
  release cannot be placed; the gate rule ``data.release-order`` reports it when the family has
  other releases).

Standard library only: this module ships in ``lingjun-check.pyz``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Optional, Union

__all__ = ["YEAR_MONTH", "DATED", "IDENTIFIER", "is_year_month", "identifier_date", "release_order_key"]

#: ``YY.MM`` with a month 01-12 (ASCII digits only)
YEAR_MONTH = re.compile(r"^[0-9]{2}\.(0[1-9]|1[0-2])$")
#: ``YYYY-MM-DD`` (a date-stamped release such as ``2026-10-20``)
DATED = re.compile(r"^(20[0-9]{2})-(0[1-9]|1[0-2])-([0-3][0-9])$")
#: every release identifier: lower-case letters, digits, ``.``, ``_`` and ``-``, starting with a letter or digit
#: (it is also the record's file name and part of the site's address, so no ``/``, ``:`` or upper case)
IDENTIFIER = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")

#: an order key: (year, month, day); day 0 for a ``YY.MM`` month
OrderKey = tuple[int, int, int]


def is_year_month(version: str) -> bool:
    """True for a ``YY.MM`` identifier (``25.07``)."""
    return bool(YEAR_MONTH.match(version))


def identifier_date(version: str) -> Optional[dt.date]:
    """The day a ``YYYY-MM-DD`` identifier names, or None (any other identifier, or no such day)."""
    found = DATED.match(version)
    if not found:
        return None
    try:
        return dt.date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    except ValueError:  # 2026-02-30
        return None


def release_order_key(version: str, release_date: Union[dt.date, str, None] = None) -> Optional[OrderKey]:
    """Where a release falls in its family's order, or None when neither identifier nor date places it.

    Args:
        version: the release identifier (``25.07``, ``2026-10-20``, ``sglang0.5.4.post3-250105``).
        release_date: the record's ``release_date`` (a date or ``YYYY-MM-DD`` text), used only for an
            identifier that is neither ``YY.MM`` nor ``YYYY-MM-DD``.

    Returns:
        ``(year, month, day)``; day 0 for a ``YY.MM`` month.  Keys of one family compare as tuples.
    """
    if YEAR_MONTH.match(version):
        year, month = version.split(".")
        return (2000 + int(year), int(month), 0)
    day = identifier_date(version)
    if day is None and release_date is not None:
        if isinstance(release_date, str):
            try:
                day = dt.date.fromisoformat(release_date)
            except ValueError:
                return None
        else:
            day = release_date
    return (day.year, day.month, day.day) if day is not None else None
