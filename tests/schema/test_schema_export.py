"""Exported JSON Schemas: committed files are current, draft-07, and agree with the pydantic models on real data."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from lingjun.generator.cli import main
from lingjun.schema.export import SCHEMA_DIR, json_schema, render_schema, stale_schemas
from lingjun.schema.loader import discover, parse_yaml, read_text
from lingjun.schema.models import DOCUMENT_MODELS

ROOT = Path(__file__).resolve().parents[2]
DATA_FILES = discover(ROOT / "releases") + discover(ROOT / "tests" / "fixtures" / "gate" / "base")


def _json_ready(value):
    """YAML dates as the ISO strings a YAML 1.2 editor sees."""
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_ready(v) for v in value]
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def _load(path: Path):
    text, _ = read_text(path)
    data, _, problems = parse_yaml(path, text)
    assert problems == []
    return data


def test_committed_schemas_are_current():
    assert stale_schemas(SCHEMA_DIR) == [], "run `lingjun-kb schema`"


@pytest.mark.parametrize("kind", sorted(DOCUMENT_MODELS))
def test_schema_is_valid_draft07_without_newer_keywords(kind):
    schema = json_schema(kind)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)
    text = render_schema(kind)
    assert "$defs" not in text
    if "definitions" in schema:
        assert "#/definitions/" in text
    assert text == render_schema(kind)  # deterministic


def test_schema_check_command_detects_stale_files(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{k}.schema.json" for k in DOCUMENT_MODELS)
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 0
    release = tmp_path / "release.schema.json"
    release.write_text(release.read_text(encoding="utf-8").replace('"summary"', '"summery"'), encoding="utf-8")
    assert main(["schema", "--check", "--out", str(tmp_path)]) == 1
    assert f"{release} is stale or missing" in capsys.readouterr().err


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_record_validates_against_exported_schema(path):
    data = _load(path)
    schema = json.loads((SCHEMA_DIR / f"{data['kind']}.schema.json").read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in Draft7Validator(schema).iter_errors(_json_ready(data))]
    assert errors == []


def test_exported_schema_rejects_an_unquoted_version_and_unknown_field():
    data = _load(ROOT / "tests" / "fixtures" / "gate" / "base" / "demo-nv" / "25.02.yaml")
    schema = json_schema("release")
    data["version"] = 25.1
    data["relase_date"] = "2025-02-28"
    messages = sorted(e.message for e in Draft7Validator(schema).iter_errors(data))
    assert messages == sorted(["25.1 is not of type 'string'",
                               "Additional properties are not allowed ('relase_date' was unexpected)"])
