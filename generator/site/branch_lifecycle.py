"""How the site states a driver branch's lifecycle without a claim that goes stale.

``releases/reference/driver-branches.yaml`` records what NVIDIA's data
center driver documentation listed when the table was compiled: the
branch type, an ``end_of_life`` flag and, where NVIDIA gave one, the
end-of-life month (``eol``).  The site is built reproducibly (the output
never depends on the build date), so it never says "still supported": it
states NVIDIA's month, or that NVIDIA listed the branch as end of life, or
that no month is recorded.  Comparing a month with the current day is done
by ``lingjun-check`` (rule ``driver.branch-eol``) where it runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

from lingjun.schema.models import DriverBranch, DriverBranchReference

__all__ = ["EolWording", "eol_wording", "BranchLifecycle", "branch_lifecycle"]


class EolWording(str, Enum):
    """Which sentence describes a branch's end of life (string ids ``drivers.eol.<value>``).

    * ``date``: NVIDIA gave an end-of-life month (shown with it).
    * ``listed``: NVIDIA listed the branch as end of life without a month.
    * ``disputed``: no month is recorded because the sources disagree (the
      branch has a note saying so).
    * ``none``: no end-of-life month was announced.
    """

    date = "date"
    listed = "listed"
    disputed = "disputed"
    none = "none"


def eol_wording(branch: DriverBranch) -> EolWording:
    """The :class:`EolWording` of one branch row (a month wins over the flag)."""
    if branch.eol is not None:
        return EolWording.date
    if branch.end_of_life:
        return EolWording.listed
    if branch.note is not None:
        return EolWording.disputed
    return EolWording.none


def _is_bare(branch: DriverBranch) -> bool:
    """A branch NVIDIA only lists as end of life: no type, month, CUDA data or note."""
    return (branch.end_of_life and branch.type is None and branch.eol is None
            and branch.max_cuda_major_without_compat is None and branch.note is None)


@dataclass(frozen=True)
class BranchLifecycle:
    """The lifecycle section of the drivers page.

    Attributes:
        rows: branches with something beyond the end-of-life flag, newest
            first, each with its :class:`EolWording`.
        listed_only: branch numbers (newest first) NVIDIA lists as end of
            life with nothing else recorded; shown as one sentence.
    """

    rows: tuple[tuple[DriverBranch, EolWording], ...]
    listed_only: tuple[int, ...]

    @property
    def listed_only_labels(self) -> list[str]:
        """``["R575", "R565", ...]``."""
        return [f"R{n}" for n in self.listed_only]


def branch_lifecycle(reference: Optional[DriverBranchReference]) -> Optional[BranchLifecycle]:
    """Split the branch table for display; None when the knowledge base has no branch table."""
    if reference is None:
        return None
    ordered = sorted(reference.branches, key=lambda b: b.branch, reverse=True)
    rows = tuple((b, eol_wording(b)) for b in ordered if not _is_bare(b))
    return BranchLifecycle(rows=rows, listed_only=tuple(b.branch for b in ordered if _is_bare(b)))
