"""``data.branch-eol-flag``: a stored end-of-life flag beside a branch's own month is judged against the day."""

from __future__ import annotations

import datetime as dt

import pytest

from lingjun.schema.gate.rules.branch_eol_flag import check
from lingjun.schema.models import DriverBranchReference, Severity


class _Doc:
    def __init__(self, model):
        self.model, self.path, self.kind = model, "reference/driver-branches.yaml", "driver-branches"


class _Corpus:
    def __init__(self, rows):
        self.doc = _Doc(DriverBranchReference.model_validate({
            "kind": "driver-branches", "sources": [{"id": "dc", "url": "https://docs.nvidia.com/x", "description": "d"}],
            "branches": [{"source": "dc", **row} for row in rows]}))

    def of_kind(self, kind):
        return [self.doc] if kind == "driver-branches" else []


def _found(rows, day):
    return [(issue.severity or Severity.error, issue.message) for issue in check(_Corpus(rows), today=day)]


def test_false_beside_a_passed_month_is_an_error():
    (found,) = _found([{"branch": 535, "eol": "2026-06", "end_of_life": False}], dt.date(2026, 7, 1))
    assert found[0] is Severity.error
    assert found[1] == ("R535: end_of_life: false contradicts its own eol 2026-06, which has passed on 2026-07-01; "
                        "delete end_of_life (end of life is computed from eol)")


def test_true_beside_a_month_still_ahead_is_an_error():
    (found,) = _found([{"branch": 620, "eol": "2029-09", "end_of_life": True}], dt.date(2026, 12, 1))
    assert found[0] is Severity.error and "which is still ahead on 2026-12-01" in found[1]


def test_a_flag_that_agrees_today_is_a_warning_that_it_goes_stale():
    # the last day of the month is still supported: the flag agrees, for now
    (found,) = _found([{"branch": 535, "eol": "2026-06", "end_of_life": False}], dt.date(2026, 6, 30))
    assert found[0] is Severity.warning and "goes stale once the month passes" in found[1]


def test_false_beside_listed_is_an_error_and_a_flag_beside_no_month_a_warning():
    found = _found([{"branch": 575, "eol_undated": "listed", "end_of_life": False},
                    {"branch": 615, "eol_undated": "new-feature", "end_of_life": False}], dt.date(2026, 12, 1))
    assert [f[0] for f in found] == [Severity.error, Severity.warning]
    assert "contradicts eol_undated: listed" in found[0][1] and "(eol_undated: new-feature)" in found[1][1]


@pytest.mark.parametrize("row", [{"branch": 535, "eol": "2026-06"}, {"branch": 575, "eol_undated": "listed"}])
def test_rows_without_a_stored_flag_pass(row):
    assert _found([row], dt.date(2026, 12, 1)) == []
