"""A catalog or known-issue file that fails the schema: its own errors, once, never its consequences."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from lingjun.generator.cli import main

REAL = Path(__file__).resolve().parents[2] / "releases"


def _validate(root: Path, capsys) -> list[dict]:
    capsys.readouterr()
    main(["validate", "-q", "--format", "json", str(root)])
    return json.loads(capsys.readouterr().out)


def test_a_component_catalog_entry_without_probe_is_one_error_and_one_not_checked(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(REAL, root)
    catalog = root / "components.yaml"
    text = catalog.read_text(encoding="utf-8")
    assert text.count("    probe: {kind: os-release}\n") == 1
    catalog.write_text(text.replace("    probe: {kind: os-release}\n", "", 1), encoding="utf-8")
    problems = _validate(root, capsys)
    assert [p["rule"] for p in problems if p["path"] == str(catalog) and p["severity"] == "error"] == ["schema.missing"]
    assert not [p for p in problems if p["rule"] in ("data.component-catalog", "data.component-refs")]
    assert not [p for p in problems if "is not in the catalog" in p["message"]
                or "is not in releases/components.yaml" in p["message"]]
    notes = [p for p in problems if p["rule"] == "data.catalog-not-loaded"]
    assert [(n["path"], n["severity"]) for n in notes] == [(str(catalog), "info")]
    assert notes[0]["message"] == (f"not checked: {catalog} did not load (see its errors), so data.component-catalog, "
                                   "data.component-refs, data.signature-refs did not run; fix its errors and validate again")


def test_a_families_catalog_with_errors_does_not_make_every_family_unknown(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(REAL, root)
    families = root / "families.yaml"
    families.write_text(families.read_text(encoding="utf-8").replace("    role: product\n", "    role: productt\n", 1),
                        encoding="utf-8")
    problems = _validate(root, capsys)
    assert not [p for p in problems if p["rule"] == "data.family-exists"]
    notes = [p["message"] for p in problems if p["rule"] == "data.catalog-not-loaded"]
    assert len(notes) == 1 and "data.family-exists" in notes[0] and "data.component-catalog" not in notes[0]
    # nor every base-image reference a reference to a product family
    assert not [p for p in problems if p["rule"] == "data.base-image"] and "data.base-image" in notes[0]


def test_a_schema_invalid_known_issue_is_not_reported_as_missing(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(REAL, root)
    issue = root / "known-issues" / "vllm-deepseek-max-model-len-oom.yaml"
    text = issue.read_text(encoding="utf-8")
    issue.write_text(text.replace("workaround:", "workaroundd:", 1), encoding="utf-8")
    problems = _validate(root, capsys)
    assert {p["rule"] for p in problems if p["path"] == str(issue)} == {"schema.missing", "schema.unknown-field"}
    assert not [p for p in problems if "'vllm-deepseek-max-model-len-oom' does not exist" in p["message"]]
    # a known issue with no file at all is still reported
    issue.unlink()
    problems = _validate(root, capsys)
    missing = [p for p in problems if p["rule"] == "data.known-issue-refs"]
    assert [p["message"] for p in missing] == [
        "known issue 'vllm-deepseek-max-model-len-oom' does not exist; add releases/known-issues/"
        "vllm-deepseek-max-model-len-oom.yaml"]
