"""Numbers read from input text, bounded: a run of digits too long to be a version part, index or code is not a number.

Python refuses to convert a decimal string of more than 4,300 digits
(``ValueError``, the guard against quadratic-time conversion); a parser that
matched ``\\d+`` and called ``int()`` on it turned a hostile snapshot or
collect_env paste into an internal error.  :func:`small_int` reads at most
:data:`MAX_DIGITS` ASCII digits and says None for anything else, so callers
treat an oversized number like any other unreadable value.

Examples:
    >>> small_int("570"), small_int(" 12 "), small_int("9" * 5000), small_int("５"), small_int("-1")
    (570, 12, None, None, None)
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["MAX_DIGITS", "small_int"]

#: the most digits a number from input may have (versions, GPU indices, packed version codes need under 10)
MAX_DIGITS = 18

_DIGITS = re.compile(rf"\s*([0-9]{{1,{MAX_DIGITS}}})\s*")


def small_int(text: object) -> Optional[int]:
    """The value of ``text`` when it is 1 to :data:`MAX_DIGITS` ASCII digits (surrounding whitespace allowed), else None.

    Never raises: not a string, a sign, a Unicode digit or a longer run all give None.
    """
    if not isinstance(text, str):
        return None
    match = _DIGITS.fullmatch(text)
    return int(match.group(1)) if match else None
