"""``released``: a release date with the kind of evidence it comes from (image tag, page published, page updated)."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from lingjun.schema.models import ReleaseDateKind, ReleaseRecord, parse_page_date

PAGE = "https://www.alibabacloud.com/help/id/cs/user-guide/training-nv-pytorch-25-08"
BASE = {
    "kind": "release", "family": "demo-nv", "version": "25.08", "status": "current",
    "summary": {"en": "Demo.", "zh": "演示。"},
    "image_tags": [{"tag": "25.08-vllm0.10.0-20250830-serverless",
                    "reference": "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/demo-nv:"
                                 "25.08-vllm0.10.0-20250830-serverless"}],
    "sources": [{"url": PAGE, "language": "id", "last_updated": "Nov 09, 2025"}],
}


def _record(**fields) -> ReleaseRecord:
    return ReleaseRecord.model_validate({**BASE, **fields})


def test_image_tag_date_is_accepted_when_a_tag_carries_it():
    record = _record(released={"date": "2025-08-30", "kind": "image-tag", "source": PAGE})
    assert record.release_date == dt.date(2025, 8, 30)
    assert record.released.kind is ReleaseDateKind.image_tag
    assert record.order_key == (2025, 8, 0)  # a YY.MM release stays at its month in the family's order


def test_image_tag_date_that_no_tag_carries_is_refused():
    with pytest.raises(ValidationError, match="no image tag of the release carries 20250831"):
        _record(released={"date": "2025-08-31", "kind": "image-tag", "source": PAGE})


def test_page_updated_date_must_be_the_cited_page_stamp():
    assert _record(released={"date": "2025-11-09", "kind": "page-updated", "source": PAGE}).release_date == \
        dt.date(2025, 11, 9)
    with pytest.raises(ValidationError, match="differs from the last_updated stamp of its source"):
        _record(released={"date": "2025-11-10", "kind": "page-updated", "source": PAGE})


def test_page_date_must_come_from_a_page_the_record_cites():
    with pytest.raises(ValidationError, match="is not one of the record's sources"):
        _record(released={"date": "2025-09-01", "kind": "page-published", "source": "https://example.com/other"})


def test_unknown_kind_is_refused():
    with pytest.raises(ValidationError, match="image-tag"):
        _record(released={"date": "2025-09-01", "kind": "recorded", "source": PAGE})


def test_bare_release_date_names_the_released_form():
    with pytest.raises(ValidationError, match=r"release_date is written as released: \{date"):
        _record(release_date="2025-09-01")


def test_absent_date_is_not_stated():
    record = _record()
    assert record.released is None and record.release_date is None


@pytest.mark.parametrize("text, day", [
    ("2025-03-27 10:48:35", dt.date(2025, 3, 27)),
    ("Jun 28, 2025", dt.date(2025, 6, 28)),
    ("Nov 09, 2025", dt.date(2025, 11, 9)),
    ("not a date", None),
    ("Feb 30, 2025", None),
])
def test_page_stamps_as_printed_parse_to_their_day(text, day):
    assert parse_page_date(text) == day
