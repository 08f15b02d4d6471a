"""How many GPUs and ranks the pod runs, from the facts: the GPUs listed and the launcher's variables.

Private helper of the container rules (one concern: counting what shares the pod's resources).
torchrun and the other launchers set ``LOCAL_WORLD_SIZE`` (ranks on this node) and ``WORLD_SIZE``
(ranks in the job); https://pytorch.org/docs/stable/elastic/run.html#environment-variables.
"""

from __future__ import annotations

from typing import Optional

from lingjun.checks.core.small_int import small_int
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Text

__all__ = ["MAX_RANKS", "env_int", "local_gpus", "world_ranks"]

#: more ranks than this in one job is not a plausible value (the largest jobs run tens of thousands of GPUs)
MAX_RANKS = 100_000


def env_int(facts: Facts, name: str, minimum: int = 1) -> Optional[int]:
    """A whole-number variable from ``minimum`` (1 for a rank count such as ``WORLD_SIZE``; 0 for a rank such as
    ``LOCAL_RANK``) up to :data:`MAX_RANKS`, or None when unset, not a number of at most 18 digits
    (:func:`lingjun.checks.core.small_int.small_int`), below ``minimum`` or an implausible count."""
    value = small_int(facts.env.get(name))
    return value if value is not None and minimum <= value <= MAX_RANKS else None


def local_gpus(facts: Facts) -> tuple[Optional[int], Text]:
    """``(count, where it comes from)``: the GPUs this pod uses, the larger of the GPUs listed and ``LOCAL_WORLD_SIZE``;
    ``(None, ...)`` when neither is shown."""
    listed = len(facts.gpus) or None
    ranks = env_int(facts, "LOCAL_WORLD_SIZE")
    if ranks and (listed is None or ranks > listed):
        return ranks, Text(f"LOCAL_WORLD_SIZE={ranks}", f"LOCAL_WORLD_SIZE={ranks}")
    if listed:
        return listed, Text(f"{listed} GPU(s) listed", f"列出 {listed} 块 GPU")
    return None, Text("the number of GPUs is not shown", "未显示 GPU 数量")


def world_ranks(facts: Facts) -> tuple[Optional[int], Text]:
    """``(count, where it comes from)``: ranks in the job (``WORLD_SIZE``), else on this node (:func:`local_gpus`)."""
    world = env_int(facts, "WORLD_SIZE")
    if world:
        return world, Text(f"WORLD_SIZE={world}", f"WORLD_SIZE={world}")
    return local_gpus(facts)
