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

A header (``cudnn_version.h``, ``nccl.h``) gives the parts as separate
defines, or only the packed code: :func:`cudnn_from_defines`,
:func:`nccl_from_defines`.
"""

from __future__ import annotations

import re
from typing import Callable, Mapping, Optional, Tuple

from lingjun.checks.core.small_int import small_int

__all__ = ["Triple", "parse_cudnn", "parse_nccl", "triple_text", "cudnn_from_defines", "nccl_from_defines"]

Triple = Tuple[int, int, int]

_DOTTED = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def _triple(major: Optional[str], minor: Optional[str], patch: Optional[str]) -> Optional[Triple]:
    """Three parts as integers; None when one is longer than a number can be (:func:`small_int`)."""
    parts = (small_int(major), small_int(minor), small_int(patch or "0"))
    return None if None in parts else parts  # type: ignore[return-value]


def _dotted(text: str) -> Optional[Triple]:
    match = _DOTTED.search(text)
    if not match:
        return None
    return _triple(match.group(1), match.group(2), match.group(3))


def parse_cudnn(value: object) -> Optional[Triple]:
    """A cuDNN version from ``"8.7.0"``, ``"8700"``, ``8700``, ``"(8, 7, 0)"`` or ``"9.10.2.21"``; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        code = value if isinstance(value, int) else small_int(value)
        if code is None:  # more digits than a version code has
            return None
        if code >= 90000:
            return (code // 10000, (code % 10000) // 100, code % 100)
        if code >= 1000:
            return (code // 1000, (code % 1000) // 100, code % 100)
        return None
    if isinstance(value, str):
        tup = re.match(r"^\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)\s*$", value)
        if tup:
            return _triple(tup.group(1), tup.group(2), tup.group(3))
        return _dotted(value)
    return None


def parse_nccl(value: object) -> Optional[Triple]:
    """An NCCL version from ``"2.19.3"``, ``"21903"``, ``"2.27.5.14"`` (ACCL-N) or ``"2.19.3+cuda12.3"``; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        code = value if isinstance(value, int) else small_int(value)
        if code is None:  # more digits than a version code has
            return None
        if code >= 10000:
            return (code // 10000, (code % 10000) // 100, code % 100)
        if code >= 1000:
            return (code // 1000, (code % 1000) // 100, code % 100)
        return None
    if isinstance(value, str):
        return _dotted(value)
    return None


def _from_defines(defines: Mapping[str, str], parts: Tuple[str, str, str], code: str,
                  decode: Callable[[object], Optional[Triple]]) -> Optional[Triple]:
    """The three ``parts`` defines as integers, else the packed ``code`` define decoded; None when neither reads."""
    try:
        return (int(defines[parts[0]]), int(defines[parts[1]]), int(defines[parts[2]]))
    except (KeyError, ValueError):
        pass
    try:
        return decode(int(defines[code]))
    except (KeyError, ValueError):
        return None


def cudnn_from_defines(defines: Mapping[str, str]) -> Optional[Triple]:
    """cuDNN version from a header's defines: ``CUDNN_MAJOR``/``CUDNN_MINOR``/``CUDNN_PATCHLEVEL``, else ``CUDNN_VERSION``.

    >>> cudnn_from_defines({"CUDNN_MAJOR": "9", "CUDNN_MINOR": "10", "CUDNN_PATCHLEVEL": "2"}), cudnn_from_defines({"CUDNN_VERSION": "8905"})
    ((9, 10, 2), (8, 9, 5))
    """
    return _from_defines(defines, ("CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"), "CUDNN_VERSION", parse_cudnn)


def nccl_from_defines(defines: Mapping[str, str]) -> Optional[Triple]:
    """NCCL version from ``nccl.h``'s defines: ``NCCL_MAJOR``/``NCCL_MINOR``/``NCCL_PATCH``, else ``NCCL_VERSION_CODE``.

    ``NCCL_SUFFIX`` (``"+cuda12.9"``) is not part of the version.

    >>> nccl_from_defines({"NCCL_VERSION_CODE": "21903"})
    (2, 19, 3)
    """
    return _from_defines(defines, ("NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"), "NCCL_VERSION_CODE", parse_nccl)


def triple_text(version: Triple) -> str:
    """``(2, 19, 3)`` -> ``"2.19.3"``."""
    return ".".join(str(p) for p in version)
