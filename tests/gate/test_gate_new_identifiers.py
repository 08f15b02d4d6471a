"""``lingjun-kb new`` with issue 12's releases: dated and named identifiers placed by date, variants and runtimes
carried over, and what cannot be derived (a tag that is not ``YY.MM``-prefixed, a runtime's build) left as a
placeholder the gate refuses."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from lingjun.generator.cli import main

GATE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gate"


def _tree(tmp_path: Path, *overlays: str) -> Path:
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    for overlay in overlays:
        shutil.copytree(GATE_FIXTURES / overlay, root, dirs_exist_ok=True)
    return root


def _placeholder_fields(path: Path, capsys) -> list[str]:
    assert main(["validate", "-q", "--format", "json", str(path)]) == 1
    problems = json.loads(capsys.readouterr().out)
    assert all(p["path"] == str(path) and p["line"] for p in problems)
    return sorted(p["field"] for p in problems if p["rule"] == "data.placeholder")


@pytest.mark.parametrize("release, message", [
    ("25.13", "release '25.13' is neither a month YY.MM (\"25.07\") nor a date YYYY-MM-DD (\"2026-10-20\")"),
    ("2026-02-30", "release '2026-02-30' is neither a month YY.MM"),
    ("Sglang-1", "release 'Sglang-1' is not a release identifier"),
    ("sglang0.6-250701", "release 'sglang0.6-250701' names no date, so it cannot be placed among the family's "
                         "releases; give --release-date YYYY-MM-DD"),
])
def test_typos_and_undated_names_are_refused_with_one_error_line(release, message, tmp_path, capsys):
    root = _tree(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["new", "demo-nv", release, "--releases", str(root)])
    assert exc.value.code == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0]
    assert sorted(p.name for p in (root / "demo-nv").iterdir()) == ["25.01.yaml", "25.02.yaml"]


def test_a_release_date_for_a_name_that_gives_its_own_date_is_refused(tmp_path, capsys):
    root = _tree(tmp_path)
    with pytest.raises(SystemExit):
        main(["new", "demo-nv", "2025-03-04", "--release-date", "2025-03-05", "--releases", str(root)])
    assert "--release-date 2025-03-05 differs from the date the release is named by (2025-03-04)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["new", "demo-nv", "25.03", "--release-date", "2025-03-05", "--releases", str(root)])
    assert "'25.03' names its month" in capsys.readouterr().err


def test_a_variant_release_is_carried_over_variant_by_variant(tmp_path, capsys):
    root = _tree(tmp_path, "variants")
    assert main(["new", "demo-nv", "25.05", "--releases", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"wrote {root / 'demo-nv' / '25.05.yaml'} from {root / 'demo-nv' / '25.04.yaml'}"
    path = root / "demo-nv" / "25.05.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "image_tags" not in data and "components" not in data
    assert [v["id"] for v in data["variants"]] == ["vllm", "sglang"]
    assert [v["image_tags"] for v in data["variants"]] == [
        [{"tag": "25.05-vllm", "reference": "registry.example.com/demo/demo-nv:25.05-vllm"}],
        [{"tag": "25.05-sglang", "reference": "registry.example.com/demo/demo-nv:25.05-sglang"}]]
    assert [c["version"] for c in data["variants"][1]["components"]] == ["2.7.1", "0.8.2"]
    # the runtime's build cannot be known: its id keeps the framework and gets a placeholder build
    runtime = data["variants"][1]["runtimes"][0]
    assert (runtime["id"], runtime["path"], runtime["component_list"]) == (
        "llamafactory/todo.lingjun-kb-new", "/opt/runtimes/llamafactory", "partial")
    assert _placeholder_fields(path, capsys) == [
        "bug_fixes.0.text.en", "bug_fixes.0.text.zh", "highlights.0.text.en", "highlights.0.text.zh",
        "known_issues.0", "sources.0.title", "sources.0.url", "summary.en", "summary.zh",
        "variants.1.runtimes.0.id"]


def test_a_dated_release_gets_placeholder_tags_the_gate_refuses(tmp_path, capsys):
    root = _tree(tmp_path, "variants")
    assert main(["new", "demo-nv", "2025-06-01", "--releases", str(root)]) == 0
    capsys.readouterr()
    path = root / "demo-nv" / "2025-06-01.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert [t["tag"] for v in data["variants"] for t in v["image_tags"]] == [
        "todo.lingjun-kb-new-1", "todo.lingjun-kb-new-2"]
    fields = _placeholder_fields(path, capsys)
    assert [f for f in fields if f.startswith("variants.")] == [
        "variants.0.image_tags.0.reference", "variants.0.image_tags.0.tag",
        "variants.1.image_tags.0.reference", "variants.1.image_tags.0.tag", "variants.1.runtimes.0.id"]


def test_previous_and_newer_are_found_by_date_not_by_text(tmp_path, capsys):
    root = _tree(tmp_path, "dated")  # demo-nv: 25.01, 25.02 and 2025-02-20 (current)
    # 10 February lies between the February month (25.02) and 20 February
    assert main(["new", "demo-nv", "2025-02-10", "--releases", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"wrote {root / 'demo-nv' / '2025-02-10.yaml'} from {root / 'demo-nv' / '25.02.yaml'}"
    assert "status: superseded, because demo-nv:2025-02-20 is newer" in out
    # 25.03 follows 2025-02-20, whose tags are not YY.MM-prefixed: they cannot be rewritten
    assert main(["new", "demo-nv", "25.03", "--releases", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"wrote {root / 'demo-nv' / '25.03.yaml'} from {root / 'demo-nv' / '2025-02-20.yaml'}"
    data = yaml.safe_load((root / "demo-nv" / "25.03.yaml").read_text(encoding="utf-8"))
    assert (data["status"], [t["tag"] for t in data["image_tags"]]) == (
        "current", ["todo.lingjun-kb-new-1", "todo.lingjun-kb-new-2"])


def test_a_named_release_is_placed_by_its_release_date_and_records_it(tmp_path, capsys):
    root = _tree(tmp_path, "dated")
    assert main(["new", "demo-nv", "sglang0.6-250215", "--release-date", "2025-02-15", "--releases", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (f"wrote {root / 'demo-nv' / 'sglang0.6-250215.yaml'} from "
                                   f"{root / 'demo-nv' / '25.02.yaml'}")
    data = yaml.safe_load((root / "demo-nv" / "sglang0.6-250215.yaml").read_text(encoding="utf-8"))
    assert (data["version"], data["status"], str(data["released"]["date"])) == ("sglang0.6-250215", "superseded", "2025-02-15")
    # the date as given, as the page's publication date; the page itself is a placeholder until it is named
    assert (data["released"]["kind"], data["released"]["source"]) == ("page-published", "https://todo.invalid/official-release-note-page")


def test_a_dated_release_that_exists_is_never_overwritten(tmp_path, capsys):
    root = _tree(tmp_path, "dated")
    existing = root / "demo-nv" / "2025-02-20.yaml"
    before = existing.read_bytes()
    assert main(["new", "demo-nv", "2025-02-20", "--releases", str(root)]) == 1
    assert "already exists; refusing to overwrite it" in capsys.readouterr().err
    assert existing.read_bytes() == before


def test_a_release_the_pages_name_later_makes_the_draft_superseded(tmp_path, capsys):
    root = _tree(tmp_path)
    families = root / "families.yaml"
    families.write_text(families.read_text(encoding="utf-8").replace(
        '      - {url: "https://example.com/demo-nv", language: en}\n',
        '      - {url: "https://example.com/demo-nv", language: en}\n'
        '    unrecorded_releases:\n'
        '      - version: "25.06"\n'
        '        named_in: [{url: "https://example.com/demo-index", language: en}]\n', 1), encoding="utf-8")
    assert main(["new", "demo-nv", "25.03", "--releases", str(root)]) == 0
    out = capsys.readouterr().out
    assert "status: superseded, because demo-nv:25.06 is newer" in out
    assert yaml.safe_load((root / "demo-nv" / "25.03.yaml").read_text(encoding="utf-8"))["status"] == "superseded"


def test_a_family_whose_only_release_has_no_date_asks_for_its_release_date(tmp_path, capsys):
    root = _tree(tmp_path, "dated")
    for path in (root / "demo-nv").iterdir():
        path.unlink()
    (root / "demo-nv" / "sglang0.5-250105.yaml").write_text(
        (GATE_FIXTURES / "dated" / "demo-nv" / "2025-02-20.yaml").read_text(encoding="utf-8")
        .replace('version: "2025-02-20"', 'version: "sglang0.5-250105"'), encoding="utf-8")
    assert main(["new", "demo-nv", "sglang0.6-250301", "--release-date", "2025-03-01", "--releases", str(root)]) == 1
    assert capsys.readouterr().err.strip() == (
        "lingjun-kb new: no release of demo-nv older than sglang0.6-250301 loads without errors; "
        "demo-nv:sglang0.5-250105 cannot be placed by date: add its released date")
