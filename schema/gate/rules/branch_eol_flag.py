"""``data.branch-eol-flag``: a driver branch row never stores an end-of-life flag that contradicts its own date.

End of life is computed from NVIDIA's month (``eol``) on the day it is shown, by the checker's own decision
(:func:`lingjun.checks.core.driver_target.branch_end_of_life`); a stored ``end_of_life`` goes stale the day the
month passes (R535's ``end_of_life: false`` beside ``eol: 2026-06`` read wrong from July 2026).  So a stored flag
that disagrees with the row's date on the day the gate runs is an error, as is ``false`` beside
``eol_undated: listed``; a flag that agrees today is a warning, because it will not once the month passes (or
cannot be checked at all, beside a branch without a month).
"""

from __future__ import annotations

import datetime as dt
from typing import Iterator

from lingjun.checks.core.driver_target import branch_end_of_life
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import DriverBranchReference, EolUndated, Severity


@gate_rule("data.branch-eol-flag", Severity.error,
           "A driver branch row stores no end_of_life flag that contradicts its own end-of-life month on the day the "
           "gate runs (or eol_undated: listed); a flag that agrees is a warning: end of life is computed from the "
           "date, so the flag only goes stale.", order=232)
def check(corpus: Corpus, today: dt.date | None = None) -> Iterator[Issue]:
    """Report every stored ``end_of_life`` of ``driver-branches.yaml``: an error when it contradicts the row's date
    (evaluated on ``today``, default the current day) or its ``listed`` statement, else a warning."""
    day = today or dt.date.today()
    for doc in corpus.of_kind("driver-branches"):
        table: DriverBranchReference = doc.model  # type: ignore[assignment]
        for index, row in enumerate(table.branches):
            if row.end_of_life is None:
                continue
            loc = ("branches", index, "end_of_life")
            flag = "true" if row.end_of_life else "false"
            if row.eol is not None:
                computed = branch_end_of_life({"branch": row.branch, "eol": row.eol}, day)
                if computed != row.end_of_life:
                    state = "has passed" if computed else "is still ahead"
                    yield Issue(doc.path, loc,
                                f"R{row.branch}: end_of_life: {flag} contradicts its own eol {row.eol}, which {state} "
                                f"on {day.isoformat()}; delete end_of_life (end of life is computed from eol)")
                    continue
                yield Issue(doc.path, loc,
                            f"R{row.branch}: end_of_life: {flag} agrees with eol {row.eol} today but goes stale once "
                            "the month passes; delete it (end of life is computed from eol)", Severity.warning)
            elif row.eol_undated is EolUndated.listed and not row.end_of_life:
                yield Issue(doc.path, loc,
                            f"R{row.branch}: end_of_life: false contradicts eol_undated: listed (NVIDIA lists the branch "
                            "as end of life); delete end_of_life")
            else:
                yield Issue(doc.path, loc,
                            f"R{row.branch}: end_of_life: {flag} is a stored flag beside no month "
                            f"(eol_undated: {row.eol_undated.value}); delete it", Severity.warning)
