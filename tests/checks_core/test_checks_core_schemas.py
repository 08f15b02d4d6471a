"""The JSON Schema files describe what the checker writes."""

from __future__ import annotations

import dataclasses
import json

import jsonschema

from checks_core_helpers import REPO, probe_root
from lingjun.checks import facts as facts_module
from lingjun.checks.inputs.snapshot import redact

SNAPSHOT_SCHEMA = json.loads((REPO / "checks" / "snapshot.schema.json").read_text(encoding="utf-8"))


def test_snapshot_schema_lists_every_facts_field():
    assert set(SNAPSHOT_SCHEMA["properties"]) == {f.name for f in dataclasses.fields(facts_module.Facts)}
    for name, definition in SNAPSHOT_SCHEMA["definitions"].items():
        cls = getattr(facts_module, name)
        assert set(definition["properties"]) == {f.name for f in dataclasses.fields(cls)}, name


def test_snapshot_of_fake_root_validates():
    jsonschema.validate(redact(probe_root("proprietary-x86")).to_dict(), SNAPSHOT_SCHEMA)
    jsonschema.validate(redact(probe_root("hostile")).to_dict(), SNAPSHOT_SCHEMA)
