"""``data.component-list-state`` and ``data.stated-none``: how complete a record's lists are is a checked claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.loader import load_paths
from lingjun.schema.models import ListState, ReleaseRecord


def _problems(root: Path, rule: str):
    result = load_paths([root])
    assert result.problems == [], [p.format() for p in result.problems]
    return [p for p in run_gate(Corpus.from_documents(result.documents), only=[rule])]


def _edit(root: Path, old: str, new: str) -> Path:
    path = root / "demo-nv" / "25.02.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


COMPONENTS = ('components:\n  - {id: torch, name: torch, version: "2.7.1"}\n'
              '  - {id: cuda, name: CUDA, version: "12.8.0"}\n  - {id: vllm, name: vLLM, version: "0.8.2"}\n')


@pytest.mark.parametrize("state,components,fragment", [
    ("complete", "components: []\n", "component_list is `complete` but the record lists no component"),
    ("partial", "components: []\n", "component_list is `partial` but no component is listed"),
    ("complete", 'components:\n  - {id: torch, name: torch, version: "2.7.1", stated_in: features-text}\n',
     "every entry comes from the features or driver text"),
])
def test_a_state_the_entries_cannot_support_is_an_error(tree, state, components, fragment):
    root = tree()
    _edit(root, COMPONENTS, f"component_list: {state}\n{components}")
    found = _problems(root, "data.component-list-state")
    assert [(p.line, p.field) for p in found] == [(12, "component_list")]
    assert fragment in found[0].message and found[0].is_error


def test_consistent_explicit_states_pass(tree):
    root = tree()
    _edit(root, COMPONENTS, "component_list: not-published\ncomponents: []\n")
    assert _problems(root, "data.component-list-state") == []


def test_a_section_named_twice_in_stated_none_is_reported(tree):
    root = tree()
    _edit(root, "bug_fixes:\n", "stated_none: [usage_notes, usage_notes]\nbug_fixes:\n")
    found = _problems(root, "data.stated-none")
    assert [(p.line, p.field) for p in found] == [(16, "stated_none.1")]
    assert "usage_notes is named twice in stated_none" in found[0].message


def _record(**extra) -> ReleaseRecord:
    data = {"kind": "release", "family": "demo-nv", "version": "25.02", "status": "current",
            "summary": {"en": "x", "zh": "版本"}, "sources": [{"url": "https://example.com/x", "language": "en"}]}
    return ReleaseRecord.model_validate({**data, **extra})


def test_a_record_without_a_state_gets_the_one_its_entries_imply():
    assert _record().component_list is ListState.not_published
    only_text = [{"id": "torch", "name": "PyTorch", "version": "2.7.1.8", "stated_in": "features-text"},
                 {"id": "cuda", "name": "CUDA", "version": "12.8.0", "stated_in": "driver-text"}]
    assert _record(components=only_text).component_list is ListState.partial
    listed = [*only_text, {"id": "vllm", "name": "vllm", "version": "0.9.2"}]
    assert _record(components=listed).component_list is ListState.complete
    assert _record(components=listed, component_list="partial").component_list is ListState.partial
    assert _record(components=listed).components_complete is True


def test_real_records_state_their_lists_explicitly_and_pass():
    import yaml

    real = Path(__file__).resolve().parents[2] / "releases"
    for path in sorted(real.glob("*/[0-9][0-9].[0-9][0-9].yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data.get("component_list") in {"complete", "partial", "not-published"}, path
    result = load_paths([real])
    found = run_gate(Corpus.from_documents(result.documents), only=["data.component-list-state", "data.stated-none"])
    assert [p.format() for p in found] == []
    states = {r.ref: r.component_list for r in (d.model for d in result.documents) if isinstance(r, ReleaseRecord)}
    assert states["training-nv-pytorch:25.06"] is ListState.partial
    assert states["ngc-pytorch:25.02"] is ListState.partial
    assert states["training-nv-pytorch:25.07"] is ListState.complete
