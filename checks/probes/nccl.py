"""Probe: NCCL (``nccl.h``, ``libnccl.so.*``, ``nvidia-nccl-cu*`` wheels, ``NCCL_VERSION``).

Header ``nccl.h`` defines ``NCCL_MAJOR``, ``NCCL_MINOR``, ``NCCL_PATCH``,
``NCCL_SUFFIX`` and ``NCCL_VERSION_CODE``; the code is
``X*1000 + Y*100 + Z`` while ``X <= 2 and Y <= 8`` and ``X*10000 + Y*100 + Z``
after (2.17.1 -> 21701, 2.8.4 -> 2804): :func:`decode_nccl_code`.
ACCL-N (Alibaba's NCCL build in training-nv-pytorch) installs a
``libnccl.so.2`` too and is probed the same way.  See
:mod:`lingjun.checks.probes.native`.  Fills ``nccl``.
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord
from lingjun.checks.probes.base import ProbeEnv
from lingjun.checks.probes.native import NativeSpec, parse_defines, probe_native

NAME = "nccl"

_INCLUDE_DIRS = ("/usr/include", "/usr/local/include", "/usr/local/cuda/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu")


def decode_nccl_code(value: int) -> Optional[str]:
    """The dotted version for ``NCCL_VERSION_CODE`` (both formulas); None if not plausible.

    >>> decode_nccl_code(21701), decode_nccl_code(2804)
    ('2.17.1', '2.8.4')
    """
    if value >= 10000:
        major, rest = divmod(value, 10000)
    elif value >= 1000:
        major, rest = divmod(value, 1000)
    else:
        return None
    minor, patch = divmod(rest, 100)
    return f"{major}.{minor}.{patch}"


def parse_nccl_header(text: str) -> Optional[str]:
    """``"2.27.3"`` from ``nccl.h`` (the suffix, e.g. ``"+cuda12.9"``, is not part of the version), or None."""
    defines = parse_defines(text)
    try:
        return f"{int(defines['NCCL_MAJOR'])}.{int(defines['NCCL_MINOR'])}.{int(defines['NCCL_PATCH'])}"
    except (KeyError, ValueError):
        pass
    try:
        return decode_nccl_code(int(defines["NCCL_VERSION_CODE"]))
    except (KeyError, ValueError):
        return None


SPEC = NativeSpec(
    lib="nccl",
    headers=tuple(f"{d}/nccl.h" for d in _INCLUDE_DIRS),
    wheel_headers=("nccl.h",),
    parse_header=parse_nccl_header,
    env_var="NCCL_VERSION",
)


def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Probe NCCL."""
    return {"nccl": probe_native(env, SPEC)}
