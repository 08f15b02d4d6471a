"""Whether the installed torch is a CPU-only build: one decision for ``cuda.available``, ``cuda.torch-cpu-build`` and the conditions.

Shared by the rules and the conditions (:mod:`lingjun.checks.knowledge.fact_values`).  A CPU-only wheel has no CUDA version in
``torch/version.py`` (``cuda = None``) and no HIP version; the wheels from PyTorch's CPU index carry the
local version ``+cpu`` (``2.5.1+cpu``).  A ``+cuXYZ`` or ``+rocm`` local version contradicts a missing
CUDA version, so such a build is not called CPU-only.
"""

from __future__ import annotations

from typing import Optional

from lingjun.checks.coverage import OBSERVED, available, state
from lingjun.checks.facts import Facts, TorchBuildFacts

__all__ = ["cpu_only", "cpu_build_state", "release_part"]


def cpu_only(torch: Optional[TorchBuildFacts], cuda_known: bool = True) -> bool:
    """True when ``torch`` is known and is a CPU-only build (no CUDA, no HIP, no ``+cu``/``+rocm`` local version).

    ``cuda_known`` False means the input does not show torch's CUDA version (a paste without its "CUDA used to
    build PyTorch" line): then only a ``+cpu`` local version tells.
    """
    if torch is None or not torch.version or torch.cuda or torch.hip:
        return False
    local = torch.version.partition("+")[2].lower()
    if not cuda_known:
        return local.startswith("cpu")
    return not local.startswith(("cu", "rocm"))


def release_part(version: str) -> str:
    """The version without its local part: ``2.5.1+cpu`` -> ``2.5.1``."""
    return version.partition("+")[0]


def cpu_build_state(facts: "Facts") -> Optional[bool]:
    """Whether the input shows a CPU-only torch: True, False, or None when it does not tell.

    The one decision behind ``cuda.available``'s causes and the conditions' ``torch.cpu_build`` fact: torch's build
    shown in full without a CUDA or HIP version is a CPU build even when its version string is not shown (a
    snapshot's ``torch: {"version": null, "cuda": null}``), unless a version names a CUDA or ROCm build.
    """
    torch = facts.torch
    if torch is None or not available(facts, "torch"):
        return None
    if torch.cuda or torch.hip:
        return False
    cuda_known = state(facts, "torch") == OBSERVED
    if torch.version and cpu_only(torch, cuda_known=cuda_known):
        return True
    if cuda_known:
        local = (torch.version or "").partition("+")[2].lower()
        return not local.startswith(("cu", "rocm"))
    return None
