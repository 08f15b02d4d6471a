"""Integer NCCL variables as NCCL reads them: ``strtoll(value, nullptr, 0)``, out of range gives the default.

NCCL reads every integer parameter (``NCCL_PARAM``, e.g. ``NCCL_IB_GID_INDEX``) in ``ncclLoadParam``
(``src/misc/param.cc``, https://github.com/NVIDIA/nccl/blob/master/src/misc/param.cc): a non-empty value goes
through C's ``strtoll`` with base 0, and when ``errno`` is set (the value is out of the 64-bit range) NCCL logs
"Invalid value ... using default" and keeps the default.  ``strtoll`` with base 0 (C standard 7.22.1.4) skips
leading white space, takes an optional sign, reads ``0x``/``0X`` as hexadecimal and a leading ``0`` as octal,
stops at the first character that is not a digit of that base, and gives 0 when no digit is read.

Example:
    >>> [read(v).value for v in ("3", "010", "0x1", "3abc", " 7", "abc", "-1")]
    [3, 8, 1, 3, 7, 0, -1]
    >>> read("9" * 5000).out_of_range
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["NCCL_PARAM_SOURCE", "NcclInt", "read"]

#: where NCCL reads its integer variables
NCCL_PARAM_SOURCE = "https://github.com/NVIDIA/nccl/blob/master/src/misc/param.cc"

_SPACE = " \t\n\v\f\r"
_INT64_MAX = 2 ** 63 - 1


@dataclass(frozen=True)
class NcclInt:
    """What NCCL makes of a value: ``value`` (None when out of range: NCCL then uses the variable's default),
    ``literal`` whether the whole value is a plain decimal number (no base prefix, no junk, no digits missing),
    ``digits`` whether any digit was read (no digit: ``strtoll`` gives 0)."""

    value: Optional[int]
    literal: bool
    digits: bool

    @property
    def out_of_range(self) -> bool:
        """The value overflows 64 bits: NCCL ignores it and uses the default."""
        return self.value is None


def read(text: str) -> NcclInt:
    """Read ``text`` like ``strtoll(text, nullptr, 0)``; never raises, never converts more than 20 significant digits."""
    rest = text.lstrip(_SPACE)
    sign = 1
    if rest[:1] in ("+", "-"):
        sign = -1 if rest[0] == "-" else 1
        rest = rest[1:]
    if rest[:2].lower() == "0x" and rest[2:3] and rest[2].lower() in "0123456789abcdef":
        base, rest, alphabet = 16, rest[2:], "0123456789abcdef"
    elif rest[:1] == "0":
        base, alphabet = 8, "01234567"
    else:
        base, alphabet = 10, "0123456789"
    end = 0
    while end < len(rest) and rest[end].lower() in alphabet:
        end += 1
    run = rest[:end]
    if not run:
        return NcclInt(0, literal=False, digits=False)
    significant = run.lstrip("0") or "0"
    if len(significant) > 22:
        return NcclInt(None, literal=False, digits=True)
    value = sign * int(significant, base)
    if not -_INT64_MAX - 1 <= value <= _INT64_MAX:
        return NcclInt(None, literal=False, digits=True)
    return NcclInt(value, literal=text in (str(value), f"+{value}"), digits=True)
