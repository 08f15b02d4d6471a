"""Probe: cuDNN (headers, ``libcudnn.so.*``, ``nvidia-cudnn-cu*`` wheels, ``CUDNN_VERSION``).

Header: ``cudnn_version.h`` (cuDNN >= 8) or ``cudnn_version_v9.h``/``_v8.h``
(Debian packages under ``/usr/include/<multiarch>/``), ``cudnn.h`` for cuDNN 7,
with ``CUDNN_MAJOR``, ``CUDNN_MINOR``, ``CUDNN_PATCHLEVEL``.  The packed
integer ``CUDNN_VERSION`` is ``MAJOR*10000 + MINOR*100 + PATCH`` from cuDNN 9
on (91002 = 9.10.2) and ``MAJOR*1000 + MINOR*100 + PATCH`` before (8905 =
8.9.5): :func:`decode_cudnn_int`.  See :mod:`lingjun.checks.probes._native`
for the rest.  Fills ``cudnn``.
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord
from lingjun.checks.core.native_version import cudnn_from_defines, parse_cudnn, triple_text
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._native import NativeSpec, parse_defines, probe_native

NAME = "cudnn"

_INCLUDE_DIRS = ("/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu", "/usr/local/cuda/include")
_HEADER_NAMES = ("cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h")


def decode_cudnn_int(value: int) -> Optional[str]:
    """The dotted version for a packed cuDNN integer (both formulas, see the module docstring); None if not plausible.

    The decoding is :func:`lingjun.checks.core.native_version.parse_cudnn`'s, which the rules use too.

    >>> decode_cudnn_int(91002), decode_cudnn_int(8905), decode_cudnn_int(7605)
    ('9.10.2', '8.9.5', '7.6.5')
    """
    version = parse_cudnn(value)
    return triple_text(version) if version else None


def parse_cudnn_header(text: str) -> Optional[str]:
    """``"9.10.2"`` from a cuDNN version header, or None (:func:`lingjun.checks.core.native_version.cudnn_from_defines`)."""
    version = cudnn_from_defines(parse_defines(text))
    return triple_text(version) if version else None


SPEC = NativeSpec(
    lib="cudnn",
    headers=tuple(f"{d}/{h}" for d in _INCLUDE_DIRS for h in _HEADER_NAMES),
    wheel_headers=("cudnn_version.h",),
    parse_header=parse_cudnn_header,
    env_var="CUDNN_VERSION",
)


@register_probe(NAME, order=120)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Probe cuDNN."""
    return {"cudnn": probe_native(env, SPEC)}
