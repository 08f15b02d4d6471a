"""Which GPUs a process can see, as far as the input shows: shared by the GPU visibility rules.

Private helper of the rule modules (one concern: reading ``CUDA_VISIBLE_DEVICES`` against the GPU list).
The GPU list counts only when its section was observed in full (NVML or nvidia-smi in a live run or a
snapshot): a collect_env paste lists GPUs, but the absence of another is not known there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core import visible_devices
from lingjun.checks.coverage import OBSERVED, env_known, state

__all__ = ["Visibility", "visibility"]


@dataclass(frozen=True)
class Visibility:
    """What the input shows: ``cvd`` the value (None when unset or not shown), ``cvd_known`` whether the input shows
    if it is set, ``gpu_count`` the container's GPUs when listed in full (None otherwise), ``visible`` how many GPUs
    the process sees at most (None when not known), ``resolved`` the checked entries when ``cvd`` is set."""

    cvd: Optional[str]
    cvd_known: bool
    gpu_count: Optional[int]
    visible: Optional[int]
    parsed: Optional[visible_devices.VisibleDevices] = None
    resolved: Optional[visible_devices.Resolved] = None


def _gpu_count(ctx: CheckContext) -> Optional[int]:
    facts = ctx.facts
    if facts.nvml.gpus and state(facts, "nvml") == OBSERVED:
        return len(facts.nvml.gpus)
    if facts.nvidia_smi.gpus and state(facts, "nvidia-smi") == OBSERVED:
        return len(facts.nvidia_smi.gpus)
    return None


def visibility(ctx: CheckContext) -> Visibility:
    """Read ``CUDA_VISIBLE_DEVICES`` and the GPU list of ``ctx.facts`` (never raises)."""
    facts = ctx.facts
    count = _gpu_count(ctx)
    cvd = facts.env.get("CUDA_VISIBLE_DEVICES")
    known = env_known(facts, "CUDA_VISIBLE_DEVICES")
    if cvd is None:
        return Visibility(cvd=None, cvd_known=known, gpu_count=count, visible=count if known else None)
    parsed = visible_devices.parse(cvd)
    resolved = visible_devices.resolve(parsed, count, [g.uuid for g in facts.gpus if g.uuid],
                                       [m.uuid for m in facts.mig_devices if m.uuid])
    migs = sum(1 for entry in resolved.visible if entry.startswith("MIG-"))
    # a CUDA process enumerates a single MIG device however many are listed (NVIDIA's MIG user guide)
    visible = len(resolved.visible) - migs + min(migs, 1)
    return Visibility(cvd=cvd, cvd_known=True, gpu_count=count, visible=visible, parsed=parsed, resolved=resolved)
