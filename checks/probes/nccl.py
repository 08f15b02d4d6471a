"""Probe: NCCL (``nccl.h``, ``libnccl.so.*``, ``nvidia-nccl-cu*`` wheels, ``NCCL_VERSION``).

Header ``nccl.h`` defines ``NCCL_MAJOR``, ``NCCL_MINOR``, ``NCCL_PATCH``,
``NCCL_SUFFIX`` and ``NCCL_VERSION_CODE``; the code is
``X*1000 + Y*100 + Z`` while ``X <= 2 and Y <= 8`` and ``X*10000 + Y*100 + Z``
after (2.17.1 -> 21701, 2.8.4 -> 2804): :func:`decode_nccl_code`.
ACCL-N (Alibaba's NCCL build in training-nv-pytorch) installs a
``libnccl.so.2`` too and is probed the same way.  See
:mod:`lingjun.checks.probes._native`.  Fills ``nccl``.
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord
from lingjun.checks.core.native_version import nccl_from_defines, parse_nccl, triple_text
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._native import NativeSpec, parse_defines, probe_native

NAME = "nccl"

_INCLUDE_DIRS = ("/usr/include", "/usr/local/include", "/usr/local/cuda/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu")


def decode_nccl_code(value: int) -> Optional[str]:
    """The dotted version for ``NCCL_VERSION_CODE`` (both formulas); None if not plausible.

    The decoding is :func:`lingjun.checks.core.native_version.parse_nccl`'s, which the rules use too.

    >>> decode_nccl_code(21701), decode_nccl_code(2804)
    ('2.17.1', '2.8.4')
    """
    version = parse_nccl(value)
    return triple_text(version) if version else None


def parse_nccl_header(text: str) -> Optional[str]:
    """``"2.27.3"`` from ``nccl.h`` (the suffix, e.g. ``"+cuda12.9"``, is not part of the version), or None
    (:func:`lingjun.checks.core.native_version.nccl_from_defines`)."""
    version = nccl_from_defines(parse_defines(text))
    return triple_text(version) if version else None


SPEC = NativeSpec(
    lib="nccl",
    headers=tuple(f"{d}/nccl.h" for d in _INCLUDE_DIRS),
    wheel_headers=("nccl.h",),
    parse_header=parse_nccl_header,
    env_var="NCCL_VERSION",
)


@register_probe(NAME, order=130)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Probe NCCL."""
    return {"nccl": probe_native(env, SPEC)}
