"""NVIDIA GPU model names as NVML, nvidia-smi and collect_env print them -> compute capability.

A collect_env paste (``GPU 0: NVIDIA GeForce RTX 5090``) and many snapshots
name the GPU but not its compute capability, so the architecture check would
be skipped exactly where it matters ("sm_120 is not compatible with the current
PyTorch installation").  This table lets the rules read the compute capability
off the model name.

Source of the values: NVIDIA's "CUDA GPU Compute Capability" list
(https://developer.nvidia.com/cuda-gpus): GeForce RTX 50 series 12.0, RTX 40 8.9,
RTX 30 8.6, RTX 20 and GTX 16 7.5, GTX 10 6.1; TITAN RTX 7.5, TITAN V 7.0;
RTX PRO Blackwell 12.0, RTX Ada generation 8.9, RTX A-series 8.6, Quadro RTX
7.5; B300/GB300 10.3, B200/GB200 10.0, GB10 12.1, H100/H800/H200/H20/GH200 9.0,
L4/L20/L40/L40S 8.9, A10/A10G/A16/A40/A2 8.6, A100/A800/A30 8.0, T4 7.5,
V100 7.0, P100 6.0, P40/P4 6.1; Jetson AGX Orin 8.7, Jetson Xavier 7.2.

Only names that say the model are matched; a truncated name (nvidia-smi prints
``NVIDIA GeForce ...`` in narrow columns) or another vendor's GPU gives None.
Pure functions, standard library only.

Examples:
    >>> compute_capability_from_name("NVIDIA GeForce RTX 5090 D")
    '12.0'
    >>> compute_capability_from_name("NVIDIA A10G")
    '8.6'
    >>> compute_capability_from_name("NVIDIA A100-SXM4-40GB")
    '8.0'
    >>> compute_capability_from_name("NVIDIA GeForce ...") is None
    True
"""

from __future__ import annotations

import functools
import re
from typing import Optional

__all__ = ["compute_capability_from_name"]

#: (pattern over the normalised name, compute capability); first match wins, so specific
#: series come before the bare data-center model numbers they contain.
_MODELS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), cc) for p, cc in (
    (r"\brtx pro \d{4}\b.*\bblackwell\b", "12.0"),
    (r"\brtx 50[5-9]0\b", "12.0"),
    (r"\brtx 40[5-9]0\b", "8.9"),
    (r"\brtx 30[5-9]0\b", "8.6"),
    (r"\brtx 20[6-8]0\b", "7.5"),
    (r"\bgtx 16[5-6]0\b", "7.5"),
    (r"\bgtx 10[5-8]0\b", "6.1"),
    (r"\btitan rtx\b", "7.5"),
    (r"\btitan v\b", "7.0"),
    (r"\btitan xp\b", "6.1"),
    (r"\brtx \d{4} ada\b", "8.9"),
    (r"\brtx a\d{4}\b", "8.6"),
    (r"\bquadro rtx [4-8]000\b", "7.5"),
    (r"\bg?b300\b", "10.3"),
    (r"\bg?b200\b", "10.0"),
    (r"\bgb10\b", "12.1"),
    (r"\bgh200\b", "9.0"),
    (r"\bh(?:100|200|800|20)\b", "9.0"),
    (r"\bl(?:4|20|40|40s)\b", "8.9"),
    (r"\ba(?:100|800|30)\b", "8.0"),
    (r"\ba(?:10|10g|16|40|2)\b", "8.6"),
    (r"\bt4\b", "7.5"),
    (r"\bv100s?\b", "7.0"),
    (r"\bp100\b", "6.0"),
    (r"\bp(?:40|4)\b", "6.1"),
    (r"\bjetson agx orin\b|\borin\b", "8.7"),
    (r"\bxavier\b", "7.2"),
))

_SEPARATORS = re.compile(r"[\s\-_/(),]+")


@functools.lru_cache(maxsize=64)
def _lookup(normalised: str) -> Optional[str]:
    for pattern, cc in _MODELS:
        if pattern.search(normalised):
            return cc
    return None


def compute_capability_from_name(name: object) -> Optional[str]:
    """Compute capability (``"12.0"``) of an NVIDIA GPU model name, or None when the name is not a known model.

    ``name`` is matched case-insensitively with ``-``, ``_``, ``/``, parentheses and
    commas read as spaces (``NVIDIA A100-SXM4-40GB`` -> ``nvidia a100 sxm4 40gb``).
    Never raises; anything but a string gives None.
    """
    if not isinstance(name, str) or not name or len(name) > 200:
        return None
    return _lookup(" " + _SEPARATORS.sub(" ", name.lower()).strip() + " ")
