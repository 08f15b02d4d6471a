"""Driver branch x release cells of the drivers page and the release pages, read off the checker's decision.

Nothing here decides compatibility: every cell is
:func:`lingjun.checks.core.release_compat.release_verdict` (the decision the
finder, ``lingjun-kb which`` and the checker's driver rules share) for an
up-to-date driver of the branch (``R570``, as ``which --driver R570`` reads
it) and one GPU class, relabelled for the page:

========================  ==================  =====================================
release_compat verdict    cell (:class:`Compat`)  small text under the cell (``reason``)
========================  ==================  =====================================
``native``                ``native``          -
``forward-compat``        ``forward``         -
``minor-compat``          ``minor``           "release needs >= N" below the release's
                                              minimum
``unsupported``           ``unsupported``     "release asks to upgrade it" for a
                                              must-upgrade branch
``not-stated``            ``not-stated``      "driver text cut off", "driver requirement
                                              not recorded", "cuda-compat not shown"
``not-stated`` (no CUDA   ``unknown``         -
or no reference row)
========================  ==================  =====================================

The cell's ``minimum`` is the lowest driver of the branch from which the
verdict holds (``native >= 570.26``, ``forward >= 535.86``): the verdict is
taken at the branch's lowest driver and at every
:func:`~lingjun.checks.core.release_compat.branch_thresholds` version, as the
finder's intervals are.

Inputs: the record (``ReleaseRecord``) and NVIDIA's tables
(``releases/reference/cuda-drivers.yaml``), both as the bundle holds them
(``model_dump(mode="json")``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Optional

from lingjun.checks.core.family_driver import cut_off, driver_view
from lingjun.checks.core.release_compat import ReleaseVerdict, branch_thresholds, release_verdict
from lingjun.checks.core.versions import DriverVersion
from lingjun.schema.models import (
    CudaDriverReference,
    DriverBranchReference,
    DriverVendor,
    ReleaseRecord,
)

__all__ = ["Compat", "MatrixCell", "cell_from_verdict", "classify_branch", "branch_cells", "permits", "matrix_branches",
           "FamilyDriverTable", "family_driver_table"]


class Compat(str, Enum):
    """Label of one matrix cell (the page's CSS class and legend entry)."""

    native = "native"
    minor = "minor"
    forward = "forward"
    unsupported = "unsupported"
    #: the release's data does not say (cut-off driver text, requirement not recorded, cuda-compat not shown)
    not_stated = "not-stated"
    #: the record lacks the data for any verdict (no CUDA toolkit, or no row for it in NVIDIA's tables)
    unknown = "unknown"


#: release_compat verdict -> cell label
_LABEL = {"native": Compat.native, "forward-compat": Compat.forward, "minor-compat": Compat.minor,
          "unsupported": Compat.unsupported, "not-stated": Compat.not_stated}

#: release_compat case key -> the cell's reason key (the page's small text, ``compat.reason.*``)
_REASON = {"no-driver": "not-recorded", "no-minimum": "not-recorded", "cut-off": "cut-off",
           "forward-unconfirmed": "forward-unconfirmed", "must-upgrade": "must-upgrade",
           "below-release-minimum": "below-release-minimum", "not-named": "below-release-minimum",
           "data-center-only": "below-release-minimum", "forward-below-minimum": "below-release-minimum",
           "compat-not-shown": "below-release-minimum"}


@dataclass(frozen=True)
class MatrixCell:
    """One cell: the shared verdict, the driver version it needs, and why.

    Attributes:
        compat: the page's label of the verdict.
        minimum: the lowest driver of the branch that gets this verdict
            (``"570.26"``), or None when the whole branch does.
        reason: the key of the small text the page writes under the label
            (``cut-off``, ``not-recorded``, ``forward-unconfirmed``,
            ``must-upgrade``, ``below-release-minimum``, ``derived``: forward
            compatibility the cut-off driver text does not state, from the
            evidence that remains), or the
            release_compat case key (:data:`~lingjun.checks.core.release_compat.KEYS`)
            when the page writes none.
        release_minimum: the release's stated minimum (``"575"``) when the
            branch is below it, else None.
        verdict: the release_compat verdict (``minor-compat``), as the finder and ``which`` show it.
        en: release_compat's one-line reason in English.
        zh: the same in Simplified Chinese.
    """

    compat: Compat
    minimum: Optional[str]
    reason: str
    release_minimum: Optional[str] = None
    verdict: str = ""
    en: str = ""
    zh: str = ""


def cell_from_verdict(answer: ReleaseVerdict, minimum: Optional[str] = None) -> MatrixCell:
    """The page's cell for one :class:`~lingjun.checks.core.release_compat.ReleaseVerdict`."""
    if answer.verdict == "not-stated" and answer.key in ("no-cuda", "no-toolkit-row"):
        compat = Compat.unknown
    else:
        compat = _LABEL[answer.verdict]
    reason = _REASON.get(answer.key, answer.key)
    if compat is not Compat.minor and reason in ("below-release-minimum", "must-upgrade"):
        reason = answer.key
    if compat is Compat.forward and answer.derived:
        reason = "derived"  # the release's driver text is cut off: from NVIDIA's table and the family's releases
    return MatrixCell(compat, minimum, reason, answer.release_minimum, answer.verdict, answer.en, answer.zh)


def _cell(record: dict, ref: Optional[dict], branch: int, data_center: bool) -> MatrixCell:
    top = release_verdict(record, DriverVersion(text=str(branch), parts=(branch,)), data_center, ref)
    points = [DriverVersion(text=f"{branch}.0.0", parts=(branch, 0, 0))] + list(branch_thresholds(record, ref, branch))
    start = len(points)
    while start > 0 and release_verdict(record, points[start - 1], data_center, ref).verdict == top.verdict:
        start -= 1
    # a lowest driver is shown for verdicts that run (native >= 570.26); "not stated >= x" would read as a requirement
    runs = top.verdict in ("native", "forward-compat", "minor-compat")
    minimum = points[start].text if runs and 0 < start < len(points) else None
    return cell_from_verdict(top, minimum)


def _verdict_dict(record: ReleaseRecord, family: Iterable[ReleaseRecord]) -> dict[str, Any]:
    """What the verdict reads of ``record``: its ``cuda``, ``driver`` (with what the family's neighbours state when its
    driver text is cut off, :func:`lingjun.checks.core.family_driver.driver_view`), ``ppu_sdk`` and ``version``."""
    def plain(r: ReleaseRecord) -> dict[str, Any]:
        out = r.model_dump(mode="json", include={"cuda", "driver", "ppu_sdk", "family", "version"})
        out["order_key"] = list(r.order_key) if r.order_key is not None else None
        return out

    own = plain(record)
    view = driver_view(own, [plain(r) for r in family if r.family == record.family]) if cut_off(own) else own
    view = dict(view)
    view.pop("order_key", None)
    view.pop("family", None)
    return view


def branch_cells(record: ReleaseRecord, branches: list[int], reference: Optional[CudaDriverReference],
                 data_center: bool = True, memo: Optional[dict[Any, Any]] = None,
                 family: Iterable[ReleaseRecord] = ()) -> list[tuple[int, MatrixCell]]:
    """``[(branch, cell), ...]`` of ``record`` for ``branches`` and one GPU class (data center by default).

    ``family``: the family's releases; a record whose driver text is cut off is read with what its neighbours state
    (:func:`lingjun.checks.core.family_driver.driver_view`), as the finder, ``which`` and the checker read it.
    The verdicts read only the record's ``cuda``, ``driver`` (so completed), ``ppu_sdk`` (a PPU image that states no
    driver is still a PPU image) and, for a cut-off text's wording, ``version``: releases that share them share their
    cells.  ``memo`` (a dict the caller keeps for one reference table) remembers them across calls.
    """
    dumped = _verdict_dict(record, family)
    if not cut_off(dumped):
        dumped.pop("version", None)
    key = (json.dumps(dumped, sort_keys=True), tuple(branches), data_center)
    if memo is not None and key in memo:
        return list(memo[key])
    ref = reference.model_dump(mode="json") if reference is not None else None
    cells = [(b, _cell(dumped, ref, b, data_center)) for b in branches]
    if memo is not None:
        memo[key] = cells
    return cells


def classify_branch(record: ReleaseRecord, branch: int, reference: Optional[CudaDriverReference],
                    data_center: bool = True, family: Iterable[ReleaseRecord] = ()) -> MatrixCell:
    """The cell for ``record`` on driver ``branch`` (e.g. 570) with GPUs of one class (data center by default);
    ``family`` as for :func:`branch_cells`.

    Raises nothing: what the data cannot decide is ``not_stated`` or ``unknown``.
    """
    return branch_cells(record, [branch], reference, data_center, family=family)[0][1]


def permits(cell: MatrixCell) -> bool:
    """True when the cell says the release runs on the branch (``native``, ``minor`` or ``forward``)."""
    return cell.compat in (Compat.native, Compat.minor, Compat.forward)


def matrix_branches(records: list[ReleaseRecord], branches: Optional[DriverBranchReference]) -> list[int]:
    """Rows of the matrix, newest branch first.

    Every branch in ``driver-branches.yaml`` plus every branch a record
    names (its minimum, forward-compatible and must-upgrade branches).
    """
    found: set[int] = set()
    if branches is not None:
        found.update(b.branch for b in branches.branches)
    for record in records:
        driver = record.driver
        if driver is None or driver.vendor is not DriverVendor.nvidia:
            continue
        found.add(DriverVersion.parse(driver.minimum).branch)
        found.update(f.branch for f in driver.forward_compatibility)
        found.update(driver.must_upgrade_branches)
    return sorted(found, reverse=True)


@dataclass(frozen=True)
class FamilyDriverTable:
    """The drivers-page table of one family.

    Attributes:
        branches: branch columns shown, newest first.
        not_runnable: branches left out because no release of the table is
            stated to run on them (every cell is ``unsupported`` or
            ``not_stated``); the page names them in one sentence instead.
        rows: ``(release, cells of the shown branches)`` in the family's order.
        not_runnable_has_not_stated: True when some left-out cell is
            ``not_stated`` (the page then says a cut-off text left it open).
    """

    branches: tuple[int, ...]
    not_runnable: tuple[int, ...]
    rows: tuple[tuple[ReleaseRecord, tuple[MatrixCell, ...]], ...]
    not_runnable_has_not_stated: bool = False

    @property
    def not_runnable_labels(self) -> list[str]:
        """``["R520", "R515", ...]``."""
        return [f"R{b}" for b in self.not_runnable]


def family_driver_table(rows: list[tuple[ReleaseRecord, list[tuple[int, MatrixCell]]]]) -> FamilyDriverTable:
    """Drop the branch columns on which no release is stated to run.

    Args:
        rows: ``(release, [(branch, cell), ...])``, every release with the same
            branches in the same order (newest first).

    A column is kept when any release gets a verdict that runs (``native``,
    ``minor`` or ``forward``) on it.  The dropped branches are listed by the
    page, which says whether some of them are only *not stated* (a cut-off
    driver text) rather than unsupported.  With no rows, nothing is shown.
    """
    if not rows:
        return FamilyDriverTable((), (), ())
    branches = [b for b, _ in rows[0][1]]
    keep = [i for i, _ in enumerate(branches) if any(permits(cells[i][1]) for _, cells in rows)]
    dropped = tuple(b for i, b in enumerate(branches) if i not in keep)
    return FamilyDriverTable(
        branches=tuple(branches[i] for i in keep),
        not_runnable=dropped,
        rows=tuple((record, tuple(cells[i][1] for i in keep)) for record, cells in rows),
        not_runnable_has_not_stated=any(cells[i][1].compat is Compat.not_stated
                                        for _, cells in rows for i in range(len(branches)) if i not in keep),
    )
