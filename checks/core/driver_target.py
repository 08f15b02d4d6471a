"""The one driver a remedy names: the least change that works, the oldest supported branch that meets every
requirement, with its minimum, and the newest such branch beside it.

Every driver remedy of the checker (``driver.minimum``, ``driver.cuda-compatibility``, ``driver.branch-eol``,
``cuda.torch-build-vs-driver``, the forward-compatibility findings) names the driver that :func:`upgrade_target`
picks, so that one report never prints two different driver numbers as the fix ("575 or later" beside
"570.26 or later"), and never an end-of-life branch.

The decision, over the bundle's ``driver_branches`` table (NVIDIA's data center driver branches,
https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html):

* a branch qualifies when it is not end of life on ``today`` (:func:`branch_end_of_life`: past its ``eol`` month,
  or listed as end of life with no month; a branch whose ``eol`` month is still ahead is supported whatever else
  the row says), and its number is at least the branch of every requirement (the release's minimum, the Table-3
  minimum of the image's CUDA and of torch's CUDA, the first driver for each GPU's architecture);
* a branch after the last one that supports one of the GPUs (:func:`last_branch_for_cc`: R580 for Maxwell,
  Pascal and Volta) does not qualify;
* the least change wins: the oldest qualifying long-term-support branch; when none qualifies, the oldest
  qualifying production branch; a new-feature branch (the oldest) only when no other qualifies (NVIDIA recommends
  production and long-term-support branches for data center use, and an older branch is the smaller step from
  the driver a node has);
* the newest qualifying branch of the same kinds (long-term support and production, or new feature when only
  those qualify) is named beside it (``newest``: R620 beside R580), None when it is the chosen branch itself;
* its minimum is the highest requirement inside that branch (``580.65.06`` when the chosen branch is 580 and
  a requirement says so), else the branch itself (``580``: any 580 driver).

Pure functions, standard library only; malformed rows are skipped.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from lingjun.checks.core.versions import DriverVersion

__all__ = ["DriverTarget", "branch_end_of_life", "branch_row", "eol_month_end", "last_branch_for_cc", "upgrade_target"]

#: NVIDIA's Unix graphics feature deprecation schedule: "The release 580 series will be the last to support GPUs
#: based on the Maxwell, Pascal, and Volta architectures" (compute capability 5.x, 6.x, 7.0 and 7.2)
#: https://forums.developer.nvidia.com/t/unix-graphics-feature-deprecation-schedule/60588
DEPRECATION_DOC = "https://forums.developer.nvidia.com/t/unix-graphics-feature-deprecation-schedule/60588"
_LAST_BRANCH_BELOW_TURING = 580

#: branch types NVIDIA recommends for production use (the table's "type" column); among them long-term support first
_PRODUCTION_TYPES = ("long-term-support", "production")


@dataclass(frozen=True)
class DriverTarget:
    """The driver a remedy names: ``branch`` (580), ``minimum`` (``580`` or ``580.65.06``), the branch's type and EOL
    month, and the newest qualifying branch beside it (``newest``: 620)."""

    branch: int
    minimum: DriverVersion
    branch_type: Optional[str] = None
    eol: Optional[str] = None
    #: the branch is the last that supports one of the GPUs (R580 for Volta): "or later" stays inside it
    last_for_gpu: bool = False
    #: the newest branch that also qualifies (620 beside 580); None when the chosen branch is the newest
    newest: Optional[int] = None
    #: the last branch that supports one of the GPUs (580 for Volta) when the chosen branch is below it; None when
    #: no end is announced or the chosen branch is that last one (``last_for_gpu``)
    last_branch: Optional[int] = None

    @property
    def en(self) -> str:
        """``R580 (580 or later; R620 is the newest)``; ``R620 (620 or later)``; ``R580 (580 or later within R580;
        later branches do not support this GPU)``; ``R535 (535 or later; R580 is the newest; branches after R580 do
        not support this GPU)``."""
        if self.last_for_gpu:
            return f"R{self.branch} ({self.minimum} or later within R{self.branch}; later branches do not support this GPU)"
        parts = [f"{self.minimum} or later"]
        if self.newest is not None:
            parts.append(f"R{self.newest} is the newest")
        if self.last_branch is not None:
            parts.append(f"branches after R{self.last_branch} do not support this GPU")
        return f"R{self.branch} ({'; '.join(parts)})"

    @property
    def zh(self) -> str:
        """``R580（580 或更高；最新的是 R620）``；``R620（620 或更高）``；``R580（R580 分支内 580 或更高；之后的分支不再支持该
        GPU）``；``R535（535 或更高；最新的是 R580；R580 之后的分支不再支持该 GPU）``."""
        if self.last_for_gpu:
            return f"R{self.branch}（R{self.branch} 分支内 {self.minimum} 或更高；之后的分支不再支持该 GPU）"
        parts = [f"{self.minimum} 或更高"]
        if self.newest is not None:
            parts.append(f"最新的是 R{self.newest}")
        if self.last_branch is not None:
            parts.append(f"R{self.last_branch} 之后的分支不再支持该 GPU")
        return f"R{self.branch}（{'；'.join(parts)}）"


def eol_month_end(text: Any) -> Optional[dt.date]:
    """Last day of a ``YYYY-MM`` month, or None.

    >>> eol_month_end("2026-02")
    datetime.date(2026, 2, 28)
    """
    try:
        year, month = (int(p) for p in str(text).split("-"))
        first_next = dt.date(year + month // 12, month % 12 + 1, 1)
    except (TypeError, ValueError):
        return None
    return first_next - dt.timedelta(days=1)


def branch_row(branches: Iterable[Any], branch: Any) -> Optional[dict]:
    """The ``driver_branches`` row of ``branch`` (``535``), or None when the table does not list it."""
    return next((r for r in branches or () if isinstance(r, dict) and r.get("branch") == branch), None)


def branch_end_of_life(row: dict, today: dt.date) -> bool:
    """Whether a ``driver_branches`` row is end of life on ``today``: the one decision every reader uses.

    The ``eol`` month decides when the row has one (past its last day on ``today``: end of life), whatever a
    stored flag says; a row without a month is end of life only when NVIDIA's table lists it so
    (``eol_undated: listed``, the branches it no longer lists).  A new-feature branch without a month
    (``eol_undated: new-feature``) or one whose month NVIDIA's pages dispute is not said to be end of life.
    A bundle made before ``eol_undated`` existed says ``end_of_life: true`` instead, read the same way.

    >>> branch_end_of_life({"branch": 535, "eol": "2026-06"}, dt.date(2026, 6, 30))
    False
    >>> branch_end_of_life({"branch": 535, "eol": "2026-06", "end_of_life": False}, dt.date(2026, 7, 1))
    True
    """
    end = eol_month_end(row.get("eol")) if row.get("eol") else None
    if end is not None:
        return today > end
    return row.get("eol_undated") == "listed" or row.get("end_of_life") is True


def last_branch_for_cc(cc: Optional[tuple[int, int]]) -> Optional[int]:
    """The last driver branch that supports a GPU of compute capability ``cc``; None when no end is announced.

    >>> last_branch_for_cc((7, 0)), last_branch_for_cc((7, 5))
    (580, None)
    """
    if cc is None:
        return None
    return _LAST_BRANCH_BELOW_TURING if cc < (7, 5) else None


def upgrade_target(
    requirements: Iterable[Optional[DriverVersion]], branches: Iterable[Any], today: dt.date,
    last_branch: Optional[int] = None,
) -> Optional[DriverTarget]:
    """The oldest supported branch meeting every requirement (long-term support first, then production, then new
    feature), with its minimum and the newest qualifying branch beside it; None when no branch qualifies.

    >>> rows = [{"branch": 620, "type": "long-term-support", "eol": "2029-09"},
    ...         {"branch": 595, "type": "production", "eol": "2027-03"},
    ...         {"branch": 580, "type": "long-term-support", "eol": "2028-06"},
    ...         {"branch": 575, "eol_undated": "listed"},
    ...         {"branch": 570, "type": "production", "eol": "2026-02"}]
    >>> upgrade_target([DriverVersion.parse("575"), DriverVersion.parse("570.26")], rows, dt.date(2026, 12, 1)).en
    'R580 (580 or later; R620 is the newest)'
    >>> upgrade_target([DriverVersion.parse("580.65.06")], rows, dt.date(2026, 12, 1)).en
    'R580 (580.65.06 or later; R620 is the newest)'
    >>> upgrade_target([DriverVersion.parse("596")], rows, dt.date(2026, 12, 1)).en
    'R620 (620 or later)'
    """
    needs = [r for r in requirements if isinstance(r, DriverVersion)]
    floor = max((r.branch for r in needs), default=0)
    candidates = []
    for row in branches or ():
        if not isinstance(row, dict):
            continue
        number = row.get("branch")
        if not isinstance(number, int) or isinstance(number, bool) or number < floor:
            continue
        if last_branch is not None and number > last_branch:
            continue
        if branch_end_of_life(row, today):
            continue
        candidates.append(row)
    if not candidates:
        return None
    lts = [r for r in candidates if r.get("type") == "long-term-support"]
    production = [r for r in candidates if r.get("type") == "production"]
    chosen = min(lts or production or candidates, key=lambda r: r["branch"])
    pool = [r for r in candidates if r.get("type") in _PRODUCTION_TYPES] or candidates
    branch = chosen["branch"]
    newest = max(r["branch"] for r in pool)
    inside = [r for r in needs if r.branch == branch]
    minimum = max(inside) if inside else DriverVersion.parse(str(branch))
    return DriverTarget(branch, minimum, chosen.get("type"), chosen.get("eol"), last_for_gpu=branch == last_branch,
                        newest=newest if newest != branch else None,
                        last_branch=last_branch if last_branch is not None and branch != last_branch else None)
