"""NVIDIA GPU compute capability: architecture names, ``sm_XY`` strings, coverage by a build.

Pure functions, standard library only.

Facts used (NVIDIA CUDA Toolkit release notes, where each architecture first
got compiler support): sm_80 (Ampere A100) with CUDA 11.0, sm_86 with 11.1,
sm_89 (Ada) and sm_90 (Hopper) with 11.8, sm_100 and sm_120 (Blackwell) with
12.8.  SASS built for ``sm_XY`` runs on GPUs of the same major version and a
minor version at or above ``Y``; arch-specific ``sm_XYa`` code runs only on
exactly ``X.Y``; PTX (``compute_XY``) is JIT-compiled for any GPU of compute
capability ``X.Y`` or newer.

Examples:
    >>> parse_cc("9.0")
    (9, 0)
    >>> architecture((12, 0))
    'blackwell'
    >>> covers(["sm_80", "sm_90"], (8, 6))
    True
    >>> covers(["sm_50", "sm_90"], (12, 0))
    False
"""

from __future__ import annotations

import re
from typing import Iterable, Optional, Tuple

__all__ = ["parse_cc", "cc_text", "sm_name", "architecture", "min_cuda_for_cc", "covers", "max_arch"]

CC = Tuple[int, int]

_CC_RE = re.compile(r"^\s*(\d{1,2})\.(\d)\s*$", re.ASCII)
_ARCH_RE = re.compile(r"^\s*(sm|compute)_(\d{1,2})(\d)([af]?)\s*$", re.IGNORECASE | re.ASCII)
_TORCH_LIST_RE = re.compile(r"^\s*(\d{1,2})\.(\d)(\+PTX)?\s*$", re.IGNORECASE | re.ASCII)

#: compute capability -> architecture (GpuArchitecture enum values of the schema)
_ARCHITECTURES = {
    (7, 0): "volta", (7, 2): "volta",
    (7, 5): "turing",
    (8, 0): "ampere", (8, 6): "ampere", (8, 7): "ampere",
    (8, 9): "ada",
    (9, 0): "hopper",
    (10, 0): "blackwell", (10, 1): "blackwell", (10, 3): "blackwell",
    (11, 0): "blackwell", (12, 0): "blackwell", (12, 1): "blackwell",
}

#: compute capability -> first CUDA toolkit (major, minor) able to build for it
_MIN_CUDA = {
    (7, 0): (9, 0),
    (7, 5): (10, 0),
    (8, 0): (11, 0),
    (8, 6): (11, 1),
    (8, 9): (11, 8),
    (9, 0): (11, 8),
    (10, 0): (12, 8),
    (12, 0): (12, 8),
}


def parse_cc(text: object) -> Optional[CC]:
    """``"9.0"`` -> ``(9, 0)``; None for anything else (never raises)."""
    if not isinstance(text, str):
        return None
    match = _CC_RE.match(text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def cc_text(cc: CC) -> str:
    """``(9, 0)`` -> ``"9.0"``."""
    return f"{cc[0]}.{cc[1]}"


def sm_name(cc: CC) -> str:
    """``(12, 0)`` -> ``"sm_120"``."""
    return f"sm_{cc[0]}{cc[1]}"


def architecture(cc: CC) -> Optional[str]:
    """Architecture name (``"hopper"``) of a compute capability, or None when not in the table."""
    return _ARCHITECTURES.get(cc)


def min_cuda_for_cc(cc: CC) -> Optional[Tuple[int, int]]:
    """First CUDA toolkit ``(major, minor)`` that can build code for ``cc``, or None when not tabled."""
    return _MIN_CUDA.get(cc)


def _entries(arch_list: Iterable[str]) -> list[tuple[str, CC, str]]:
    """Normalise ``sm_90a`` / ``compute_90`` / ``9.0+PTX`` entries to (kind, cc, suffix)."""
    out: list[tuple[str, CC, str]] = []
    for raw in arch_list:
        if not isinstance(raw, str):
            continue
        match = _ARCH_RE.match(raw)
        if match:
            out.append((match.group(1).lower(), (int(match.group(2)), int(match.group(3))), match.group(4).lower()))
            continue
        match = _TORCH_LIST_RE.match(raw)
        if match:
            cc = (int(match.group(1)), int(match.group(2)))
            out.append(("sm", cc, ""))
            if match.group(3):
                out.append(("compute", cc, ""))
    return out


def covers(arch_list: Iterable[str], cc: CC) -> Optional[bool]:
    """Whether a build for ``arch_list`` runs on a GPU of compute capability ``cc``.

    ``arch_list`` holds entries as ``torch.cuda.get_arch_list()`` prints them
    (``sm_80``, ``sm_90a``, ``compute_90``) or as ``TORCH_CUDA_ARCH_LIST``
    writes them (``8.0``, ``9.0+PTX``).  Returns None when no entry could be read.
    """
    entries = _entries(arch_list)
    if not entries:
        return None
    for kind, built, suffix in entries:
        if kind == "sm":
            if suffix == "a" and built == cc:
                return True
            if suffix != "a" and built[0] == cc[0] and built[1] <= cc[1]:
                return True
        elif kind == "compute" and built <= cc:
            return True
    return False


def max_arch(arch_list: Iterable[str]) -> Optional[str]:
    """The highest ``sm_``/``compute_`` entry of a list as written, or None."""
    entries = _entries(arch_list)
    if not entries:
        return None
    kind, cc, suffix = max(entries, key=lambda e: (e[1], e[0] == "compute"))
    return f"{kind}_{cc[0]}{cc[1]}{suffix}"
