"""``lingjun-kb new`` marks every version it copies, and ``data.carried-over`` fails the draft until each mark is
confirmed (deleted) or its value changed; each problem is one line naming file, line and field."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from lingjun.generator.cli import main

GATE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gate"
REAL = Path(__file__).resolve().parents[2] / "releases"


def _draft(tmp_path: Path, capsys) -> Path:
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    assert main(["new", "demo-nv", "25.03", "--releases", str(root)]) == 0
    capsys.readouterr()
    return root / "demo-nv" / "25.03.yaml"


def _carried(path: Path, capsys) -> list[dict]:
    main(["validate", "-q", "--format", "json", str(path)])
    return [p for p in json.loads(capsys.readouterr().out) if p["rule"] == "data.carried-over"]


def test_new_marks_every_copied_version(tmp_path, capsys):
    data = yaml.safe_load(_draft(tmp_path, capsys).read_text(encoding="utf-8"))
    assert (data["carried_from"], data["carried_over"]) == ("25.02", ["cuda", "driver", "base_image", "component_list"])
    assert [(c["id"], c["version"], c["carried_over"]) for c in data["components"]] == [
        ("torch", "2.7.1", True), ("cuda", "12.8.0", True), ("vllm", "0.8.2", True)]


def test_each_unconfirmed_version_is_an_error_naming_file_line_and_field(tmp_path, capsys):
    path = _draft(tmp_path, capsys)
    found = _carried(path, capsys)
    assert sorted((p["field"], p["severity"]) for p in found) == [
        ("carried_over.0", "error"), ("carried_over.1", "error"), ("carried_over.2", "error"),
        ("carried_over.3", "error"), ("components.0.carried_over", "error"), ("components.1.carried_over", "error"),
        ("components.2.carried_over", "error")]
    lines = path.read_text(encoding="utf-8").splitlines()
    torch = next(p for p in found if p["field"] == "components.0.carried_over")
    assert "{id: torch, name: torch, version: \"2.7.1\", carried_over: true}" in lines[torch["line"] - 1]
    assert torch["message"] == ("torch 2.7.1 is carried over from demo-nv:25.02 by `lingjun-kb new` and not confirmed: "
                                "check it against this release's page, then delete the mark, or change it")
    # the text format: one line per problem, path:line:col: field: message [severity rule]
    main(["validate", "-q", str(path)])
    text = [l for l in capsys.readouterr().out.splitlines() if "components.0.carried_over" in l]
    assert text[0] == (f"{path}:{torch['line']}:{torch['col']}: components.0.carried_over: {torch['message']} "
                       "[error data.carried-over]")


def test_confirming_or_changing_each_version_clears_the_errors(tmp_path, capsys):
    path = _draft(tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    text = text.replace('version: "2.7.1", carried_over: true}', 'version: "2.8.0", carried_over: true}')  # changed
    text = text.replace(', carried_over: true}', '}')  # the others confirmed (the changed one keeps its mark)
    text = text.replace('version: "2.8.0"}', 'version: "2.8.0", carried_over: true}')
    text = text.replace("carried_over: [cuda, driver, base_image, component_list]\n", "")
    path.write_text(text, encoding="utf-8")
    found = _carried(path, capsys)
    assert [(p["field"], p["severity"]) for p in found] == [("components.0.carried_over", "warning")]
    assert "has since been changed; delete the carried_over mark" in found[0]["message"]
    path.write_text(text.replace(", carried_over: true}", "}"), encoding="utf-8")
    found = _carried(path, capsys)
    assert [(p["field"], p["severity"]) for p in found] == [("carried_from", "warning")]


def test_a_real_month_draft_fails_until_its_28_components_and_6_fields_are_confirmed(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(REAL, root)
    assert main(["new", "training-nv-pytorch", "25.11", "--releases", str(root)]) == 0
    capsys.readouterr()
    found = _carried(root / "training-nv-pytorch" / "25.11.yaml", capsys)
    assert len(found) == 34 and {p["severity"] for p in found} == {"error"}
    assert [p["field"] for p in found[:6]] == [f"carried_over.{i}" for i in range(6)]
    assert found[0]["message"].startswith("cuda 12.8 is carried over from training-nv-pytorch:25.10")
    # what the new page may have changed besides versions: the CPU architectures, how complete the component list
    # is, and the GPUs it names
    assert [p["message"].split(" is carried over")[0] for p in found[3:6]] == [
        "architectures amd64, aarch64", "component_list complete", "gpu_support"]


def test_marks_left_after_carried_from_is_deleted_stay_errors(tmp_path, capsys):
    path = _draft(tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    path.write_text("\n".join(l for l in text.splitlines() if not l.startswith("carried_from:")) + "\n", encoding="utf-8")
    found = _carried(path, capsys)
    assert len(found) == 7 and {p["severity"] for p in found} == {"error"}
    torch = next(p for p in found if p["field"] == "components.0.carried_over")
    assert torch["message"] == ("torch 2.7.1 is marked carried_over but the record names no carried_from: check it "
                                "against this release's page, then delete the mark")


def test_a_variants_component_list_is_marked_too(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(REAL, root)
    assert main(["new", "inference-nv-pytorch", "25.11", "--releases", str(root)]) == 0
    capsys.readouterr()
    path = root / "inference-nv-pytorch" / "25.11.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["variants"] and all("component_list" in v["carried_over"] for v in data["variants"])
    fields = {p["field"].rsplit(".", 1)[0] + ":" + p["message"].split(" is carried over")[0] for p in _carried(path, capsys)}
    assert any(f.startswith("variants.0.carried_over:variants.0.component_list") for f in fields)


def test_news_next_step_counts_the_marks_validate_refuses(tmp_path, capsys):
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    assert main(["new", "demo-nv", "25.03", "--releases", str(root)]) == 0
    said = capsys.readouterr().out
    found = _carried(root / "demo-nv" / "25.03.yaml", capsys)
    assert len(found) == 7  # four fields of the record, three components
    assert "confirm against this release's page the 7 values marked carried_over (copied from 25.02)" in said
