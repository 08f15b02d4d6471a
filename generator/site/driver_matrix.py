"""Driver branch x release compatibility, computed from the records.

Inputs (all from ``releases/``): the CUDA toolkit of a release
(``ReleaseRecord.cuda``), its driver requirement (``ReleaseRecord.driver``:
minimum, forward-compatible branches, must-upgrade branches and how the
record resolves a branch listed on both), and NVIDIA's tables in
``releases/reference/cuda-drivers.yaml`` (toolkit -> minimum driver, Table 3;
minor-version compatibility ranges, Table 2).

The release's own stated minimum bounds every verdict: no cell says more
than the release's driver text.  A cell is decided in this order (the
first that applies wins):

1. ``unsupported`` (``must-upgrade``/``resolution``): the record says the
   branch must be upgraded (a branch listed both as usable and as
   must-upgrade counts as the record's ``branch_resolutions`` decide;
   without a resolution, must-upgrade wins).
2. ``forward``: the record lists the branch as usable through forward
   compatibility (the image's ``cuda-compat`` libraries; NVIDIA data center
   GPUs only).
3. Below the release's stated minimum (branch-wise): ``not_stated``
   (``cut-off``) when the record's driver text is cut off
   (``text_truncated``: the missing part may name the branch), else
   ``unsupported`` (``below-release-minimum``): the whole text was read and
   does not make an exception for it.
4. ``native``: the branch meets the minimum driver of the image's CUDA
   toolkit (Table 3) and the release's minimum.
5. ``minor``: the branch is in the CUDA major's minor-version compatibility
   range (Table 2): runs, with a limited feature set (no PTX JIT of newer
   PTX).  Only reachable where the release states a minimum below its
   toolkit's or none at all.
6. ``unsupported`` (``below``) otherwise.

A release that records no driver requirement (no ``driver`` section) gets
``not_stated`` (``not-recorded``) in every cell: without the release's own
minimum no verdict can be bounded by it.

A release without a CUDA toolkit or whose toolkit has no row in the
reference table gets ``unknown`` cells (``no-cuda``, ``no-toolkit-row``), a
PPU release ``unknown`` (``ppu``): the data does not allow a verdict and
none is invented.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Optional

from lingjun.checks.core.versions import CudaVersion, DriverVersion, VersionFormatError
from lingjun.schema.models import (
    BranchDecision,
    CudaDriverReference,
    DriverBranchReference,
    DriverVendor,
    ReleaseRecord,
    ToolkitDriverRow,
)

__all__ = ["Compat", "MatrixCell", "toolkit_row", "classify_branch", "permits", "matrix_branches",
           "FamilyDriverTable", "family_driver_table"]


class Compat(str, Enum):
    """Verdict of one matrix cell."""

    native = "native"
    minor = "minor"
    forward = "forward"
    unsupported = "unsupported"
    #: the release's driver text is cut off before it could say anything about the branch
    not_stated = "not-stated"
    unknown = "unknown"


@dataclass(frozen=True)
class MatrixCell:
    """One cell: the verdict, the driver version it needs, and why.

    Attributes:
        compat: the verdict.
        minimum: the lowest driver of the branch that gets this verdict
            (``"570.26"``), or None when not known.
        reason: a short machine key for the rule that decided (``toolkit``,
            ``must-upgrade``, ``resolution``, ``forward-list``,
            ``below-release-minimum``, ``cut-off``, ``minor-range``,
            ``no-cuda``, ``no-toolkit-row``, ``ppu``, ``below``).
        release_minimum: the release's stated minimum (``"575"``) for the
            ``below-release-minimum`` and ``cut-off`` cells, else None.
    """

    compat: Compat
    minimum: Optional[str]
    reason: str
    release_minimum: Optional[str] = None


def toolkit_row(reference: CudaDriverReference, cuda: str) -> Optional[ToolkitDriverRow]:
    """The Table 3 row for a toolkit version.

    ``12.8.1`` matches the row for toolkit 12.8.1; an unlisted patch uses the
    nearest listed row of the same ``major.minor`` below it; a version given
    as ``major.minor`` only (``12.8``) uses the GA row (the lowest toolkit of
    that minor), since the update is not known.  None when the minor has no row.
    """
    try:
        wanted = CudaVersion.parse(cuda)
    except VersionFormatError:
        return None
    rows = []
    for row in reference.toolkit_min_driver:
        try:
            toolkit = CudaVersion.parse(row.toolkit)
        except VersionFormatError:
            continue
        if toolkit.major_minor == wanted.major_minor:
            rows.append((toolkit, row))
    if not rows:
        return None
    rows.sort(key=lambda pair: pair[0])
    if wanted.patch is None:
        return rows[0][1]
    eligible = [row for toolkit, row in rows if (toolkit.patch or 0) <= wanted.patch]
    return eligible[-1] if eligible else rows[0][1]


def classify_branch(record: ReleaseRecord, branch: int, reference: Optional[CudaDriverReference]) -> MatrixCell:
    """The cell for ``record`` on data center driver ``branch`` (e.g. 570); order in the module docstring.

    Raises nothing: missing data gives :attr:`Compat.unknown`.
    """
    driver = record.driver
    if driver is not None and driver.vendor is DriverVendor.ppu:
        return MatrixCell(Compat.unknown, None, "ppu")
    if not record.cuda:
        return MatrixCell(Compat.unknown, None, "no-cuda")
    if reference is None:
        return MatrixCell(Compat.unknown, None, "no-toolkit-row")
    row = toolkit_row(reference, record.cuda)
    if row is None:
        return MatrixCell(Compat.unknown, None, "no-toolkit-row")
    if driver is None:
        # the release's driver requirement is not recorded: its minimum and exceptions are unknown,
        # so no branch gets a verdict (the toolkit's table alone would claim more than the release says)
        return MatrixCell(Compat.not_stated, None, "not-recorded")
    toolkit_min = DriverVersion.parse(row.linux_min_driver)
    release_min = DriverVersion.parse(driver.minimum)

    if driver is not None:
        resolutions = {r.branch: r.decision for r in driver.branch_resolutions}
        forward = {f.branch: f.minimum for f in driver.forward_compatibility}
        if branch in driver.must_upgrade_branches:
            decision = resolutions.get(branch, BranchDecision.must_upgrade)
            if decision is BranchDecision.must_upgrade:
                reason = "resolution" if branch in resolutions else "must-upgrade"
                return MatrixCell(Compat.unsupported, None, reason)
        if branch in forward:
            return MatrixCell(Compat.forward, forward[branch], "forward-list")
    if release_min is not None and branch < release_min.branch:
        if driver is not None and driver.text_truncated:
            return MatrixCell(Compat.not_stated, None, "cut-off", driver.minimum)
        return MatrixCell(Compat.unsupported, None, "below-release-minimum", driver.minimum if driver else None)

    if branch >= toolkit_min.branch:
        minimum = row.linux_min_driver if branch == toolkit_min.branch else None
        if release_min is not None and branch == release_min.branch and not release_min.is_branch_only:
            minimum = max(DriverVersion.parse(minimum or release_min.text), release_min).text
        return MatrixCell(Compat.native, minimum, "toolkit")

    try:
        major = CudaVersion.parse(record.cuda).major
    except VersionFormatError:
        return MatrixCell(Compat.unknown, None, "no-cuda")
    for compat in reference.minor_version_compat:
        if compat.cuda_major != major:
            continue
        upper = compat.max_branch_exclusive
        if branch >= compat.min_branch and (upper is None or branch < upper):
            minimum = compat.min_driver if branch == DriverVersion.parse(compat.min_driver).branch else None
            if release_min is not None and branch == release_min.branch and not release_min.is_branch_only:
                minimum = max(DriverVersion.parse(minimum or release_min.text), release_min).text
            return MatrixCell(Compat.minor, minimum, "minor-range")
    return MatrixCell(Compat.unsupported, None, "below")


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
