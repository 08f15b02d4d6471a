"""How the site states a driver branch's lifecycle: NVIDIA's month, evaluated against the day the page is built.

``releases/reference/driver-branches.yaml`` records, per branch, NVIDIA's end-of-life month (``eol``) or why
there is none (``eol_undated``: listed as end of life, a new-feature branch, dates in dispute), and the
edition of NVIDIA's table the row comes from (``source``).  Whether a month has passed is never stored: it
is decided by :func:`lingjun.checks.core.driver_target.branch_end_of_life`, the checker's own decision, on
the build day (``SOURCE_DATE_EPOCH`` when set, for reproducible builds; else today), and the page names that
day.  ``lingjun-check`` makes the same decision on the day it runs (rule ``driver.branch-eol``).
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass
from enum import Enum
from typing import Optional

from lingjun.checks.core.driver_target import branch_end_of_life
from lingjun.schema.models import DriverBranch, DriverBranchReference, EolUndated

__all__ = ["EolWording", "eol_wording", "BranchLifecycle", "branch_lifecycle", "build_day", "StatedBranch", "stated_branches"]


class EolWording(str, Enum):
    """Which sentence describes a branch's end of life (string ids ``drivers.eol.<value>``).

    * ``past``: NVIDIA's end-of-life month has passed on the build day (shown with it).
    * ``ahead``: NVIDIA's month is still ahead on the build day (shown with it).
    * ``listed``: NVIDIA listed the branch as end of life without a month.
    * ``new-feature``: no date: a new-feature branch, which NVIDIA gives no end-of-life date.
    * ``disputed``: no month is recorded because NVIDIA's pages disagree (the note says how).
    """

    past = "past"
    ahead = "ahead"
    listed = "listed"
    new_feature = "new-feature"
    disputed = "disputed"


def build_day() -> dt.date:
    """The day the site evaluates dates on: ``SOURCE_DATE_EPOCH`` (seconds, UTC) when set and valid, else today."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.timezone.utc).date()
    return dt.date.today()


def eol_wording(branch: DriverBranch, today: dt.date) -> EolWording:
    """The :class:`EolWording` of one branch row on ``today`` (the month, when there is one, decides)."""
    if branch.eol is not None:
        row = {"branch": branch.branch, "eol": branch.eol}
        return EolWording.past if branch_end_of_life(row, today) else EolWording.ahead
    return {EolUndated.listed: EolWording.listed, EolUndated.new_feature: EolWording.new_feature,
            EolUndated.disputed: EolWording.disputed}[branch.eol_undated]


def _is_bare(branch: DriverBranch) -> bool:
    """A branch NVIDIA only lists as end of life: no type, month, CUDA data or note."""
    return (branch.eol_undated is EolUndated.listed and branch.type is None and branch.eol is None
            and branch.max_cuda_major_without_compat is None and branch.note is None)


@dataclass(frozen=True)
class BranchLifecycle:
    """The lifecycle section of the drivers page.

    Attributes:
        rows: branches with something beyond "listed as end of life", newest first, each with its
            :class:`EolWording` on ``as_of``.
        listed_only: branch numbers (newest first) NVIDIA lists as end of life with nothing else recorded;
            shown as one sentence.
        as_of: the day the rows were evaluated on (the build day).
    """

    rows: tuple[tuple[DriverBranch, EolWording], ...]
    listed_only: tuple[int, ...]
    as_of: dt.date

    @property
    def listed_only_labels(self) -> list[str]:
        """``["R575", "R565", ...]``."""
        return [f"R{n}" for n in self.listed_only]


def branch_lifecycle(reference: Optional[DriverBranchReference],
                     today: Optional[dt.date] = None) -> Optional[BranchLifecycle]:
    """Split the branch table for display, evaluated on ``today`` (default :func:`build_day`); None when the
    knowledge base has no branch table."""
    if reference is None:
        return None
    day = today or build_day()
    ordered = sorted(reference.branches, key=lambda b: b.branch, reverse=True)
    rows = tuple((b, eol_wording(b, day)) for b in ordered if not _is_bare(b))
    return BranchLifecycle(rows=rows, listed_only=tuple(b.branch for b in ordered if _is_bare(b)), as_of=day)


@dataclass(frozen=True)
class StatedBranch:
    """A branch a release's page states (its forward-compatibility list), with that branch's lifecycle on ``as_of``.

    Attributes:
        branch: the branch number (``470``).
        minimum: the driver version the page states for it (``"470.57"``), or None.
        wording: the :class:`EolWording` of NVIDIA's row on ``as_of``; None when NVIDIA's table has no row for it
            (then the page says nothing about its lifecycle: not known, not "supported").
        month: NVIDIA's end-of-life month (``"2024-07"``) when the row has one.
    """

    branch: int
    minimum: Optional[str]
    wording: Optional[EolWording]
    month: Optional[str]


def stated_branches(pairs: list[tuple[int, Optional[str]]], reference: Optional[DriverBranchReference],
                    today: dt.date) -> list[StatedBranch]:
    """``[(branch, minimum)]`` as the page states them (in its order) -> :class:`StatedBranch` rows with each branch's
    lifecycle on ``today`` (a release page written in 2025 lists R470 for forward compatibility; NVIDIA ended it in
    2024-07, and the page says so on the day it is built)."""
    rows = {b.branch: b for b in (reference.branches if reference is not None else [])}
    out = []
    for branch, minimum in pairs:
        row = rows.get(branch)
        out.append(StatedBranch(branch, minimum, eol_wording(row, today) if row is not None else None,
                                str(row.eol) if row is not None and row.eol is not None else None))
    return out
