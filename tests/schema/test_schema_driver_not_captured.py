"""``driver`` in ``not_captured``: the page's driver section was not seen (never "the page states none")."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from lingjun.schema.models import RecordSection, ReleaseRecord

BASE = {
    "kind": "release", "family": "demo-ppu", "version": "2026-10-20", "status": "current",
    "summary": {"en": "Demo.", "zh": "演示。"},
    "sources": [{"url": "https://example.com/page", "language": "zh"}],
}


def test_driver_may_be_named_not_captured():
    record = ReleaseRecord.model_validate({**BASE, "not_captured": ["known_issues", "driver"]})
    assert record.not_captured == [RecordSection.known_issues, RecordSection.driver]
    assert record.driver is None


def test_driver_is_never_stated_none():
    with pytest.raises(ValidationError) as exc:
        ReleaseRecord.model_validate({**BASE, "stated_none": ["driver"]})
    assert "stated_none cannot name driver" in str(exc.value)


def test_the_json_schema_lets_editors_write_driver_in_not_captured():
    import json
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parents[2] / "schema" / "release.schema.json").read_text("utf-8"))
    assert "driver" in schema["definitions"]["RecordSection"]["enum"]
