"""Versions of cuDNN and NCCL as the libraries, headers, wheels and torch report them.

cuDNN encodes ``CUDNN_VERSION`` as ``MAJOR*1000 + MINOR*100 + PATCH`` up to
8.x (8.7.0 -> 8700) and ``MAJOR*10000 + MINOR*100 + PATCH`` from 9.x
(9.10.2 -> 91002); ``torch.backends.cudnn.version()`` returns that integer.
NCCL encodes ``NCCL_VERSION_CODE`` as ``X*1000 + Y*100 + Z`` while
``X <= 2 and Y <= 8`` and ``X*10000 + Y*100 + Z`` after (2.19.3 -> 21903).
Library files carry the version in their name (``libcudnn.so.8.2.4``,
``libnccl.so.2.18.1``).  Sources: cudnn_version.h and nccl.h as quoted in
``nvidia-compat.md`` section 4.

Examples:
    >>> parse_cudnn("8700")
    (8, 7, 0)
    >>> parse_cudnn("91002")
    (9, 10, 2)
    >>> parse_nccl("21903")
    (2, 19, 3)
    >>> parse_nccl("2.27.5.14")
    (2, 27, 5)
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

__all__ = ["Triple", "parse_cudnn", "parse_nccl", "triple_text"]

Triple = Tuple[int, int, int]

_DOTTED = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def _dotted(text: str) -> Optional[Triple]:
    match = _DOTTED.search(text)
    if not match:
        return None
    return (int(match.group(1)), int(match.group(2)), int(match.group(3) or 0))


def parse_cudnn(value: object) -> Optional[Triple]:
    """A cuDNN version from ``"8.7.0"``, ``"8700"``, ``8700``, ``"(8, 7, 0)"`` or ``"9.10.2.21"``; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        code = int(value)
        if code >= 90000:
            return (code // 10000, (code % 10000) // 100, code % 100)
        if code >= 1000:
            return (code // 1000, (code % 1000) // 100, code % 100)
        return None
    if isinstance(value, str):
        tup = re.match(r"^\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)\s*$", value)
        if tup:
            return (int(tup.group(1)), int(tup.group(2)), int(tup.group(3)))
        return _dotted(value)
    return None


def parse_nccl(value: object) -> Optional[Triple]:
    """An NCCL version from ``"2.19.3"``, ``"21903"``, ``"2.27.5.14"`` (ACCL-N) or ``"2.19.3+cuda12.3"``; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        code = int(value)
        if code >= 10000:
            return (code // 10000, (code % 10000) // 100, code % 100)
        if code >= 1000:
            return (code // 1000, (code % 1000) // 100, code % 100)
        return None
    if isinstance(value, str):
        return _dotted(value)
    return None


def triple_text(version: Triple) -> str:
    """``(2, 19, 3)`` -> ``"2.19.3"``."""
    return ".".join(str(p) for p in version)
