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
    if "component_list:" in new:  # the base record states its list at the end; the edit restates it
        text = text.replace("\ncomponent_list: complete\n", "\n")
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


def test_a_record_without_a_state_gets_the_least_assertive_one():
    assert _record().component_list is ListState.not_published
    only_text = [{"id": "torch", "name": "PyTorch", "version": "2.7.1.8", "stated_in": "features-text"},
                 {"id": "cuda", "name": "CUDA", "version": "12.8.0", "stated_in": "driver-text"}]
    assert _record(components=only_text).component_list is ListState.partial
    listed = [*only_text, {"id": "vllm", "name": "vllm", "version": "0.9.2"}]
    # entries from a component list do not make an unstated list complete: absence is never inferred
    assert _record(components=listed).component_list is ListState.partial
    assert _record(components=listed).components_complete is False
    assert _record(components=listed).component_list_stated is False
    assert _record(components=listed, component_list="complete").components_complete is True
    assert _record(components=listed, component_list="complete").component_list_stated is True


def test_a_record_listing_components_must_state_its_list(tree):
    root = tree()
    _edit(root, "component_list: complete\n", "")
    found = _problems(root, "data.component-list-state")
    assert [(p.path, p.field, p.severity.value) for p in found] == [
        (str(root / "demo-nv" / "25.02.yaml"), "component_list", "error")]
    assert "lists 3 component(s) but does not state component_list" in found[0].message


def test_real_records_state_their_lists_explicitly_and_pass():
    import yaml

    real = Path(__file__).resolve().parents[2] / "releases"
    for path in sorted(real.glob("*/[0-9][0-9].[0-9][0-9].yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        # a release with several images (inference-nv-pytorch 25.04) states the list of each image
        for holder in data.get("variants") or [data]:
            assert holder.get("component_list") in {"complete", "partial", "not-published"}, path
    result = load_paths([real])
    found = run_gate(Corpus.from_documents(result.documents), only=["data.component-list-state", "data.stated-none"])
    assert [p.format() for p in found] == []
    states = {r.ref: r.component_list for r in (d.model for d in result.documents) if isinstance(r, ReleaseRecord)}
    assert states["training-nv-pytorch:25.06"] is ListState.partial
    assert states["ngc-pytorch:25.02"] is ListState.partial
    assert states["training-nv-pytorch:25.07"] is ListState.complete


def _add_release(root: Path, version: str, text: str) -> Path:
    path = root / "demo-nv" / f"{version}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_introduced_looks_back_past_a_partial_list_to_the_nearest_complete_one(tree):
    # 25.01 (complete) lists vllm; 25.02 (partial) does not; 25.03 calls vllm new: 25.01 contradicts it
    root = tree()
    base = (root / "demo-nv" / "25.02.yaml").read_text(encoding="utf-8")
    _edit(root, '  - {id: vllm, name: vLLM, version: "0.8.2"}\n', "")
    _edit(root, "component_list: complete\n", "component_list: partial\n")
    newer = _add_release(root, "25.03", base.replace('version: "25.02"', 'version: "25.03"').replace(
        'version: "0.8.2"}', 'version: "0.9.0", introduced: true}'))
    found = _problems(root, "data.introduced")
    assert [(p.path, p.field) for p in found] == [(str(newer), "components.2.introduced")]
    assert "vllm is marked new in demo-nv:25.03, but demo-nv:25.01 lists it (0.7.2)" in found[0].message


def test_introduced_stops_at_the_nearest_complete_list(tree):
    # 25.02 (complete) does not list vllm: 25.03's "new" agrees with it, whatever older 25.01 listed
    root = tree()
    base = (root / "demo-nv" / "25.02.yaml").read_text(encoding="utf-8")
    _edit(root, '  - {id: vllm, name: vLLM, version: "0.8.2"}\n', "")
    _add_release(root, "25.03", base.replace('version: "25.02"', 'version: "25.03"').replace(
        'version: "0.8.2"}', 'version: "0.9.0", introduced: true}'))
    assert _problems(root, "data.introduced") == []


def test_real_records_new_marks_pass_and_25_07_marks_none():
    real = Path(__file__).resolve().parents[2] / "releases"
    result = load_paths([real])
    assert run_gate(Corpus.from_documents(result.documents), only=["data.introduced"]) == []
    record = next(d.model for d in result.documents
                  if isinstance(d.model, ReleaseRecord) and d.model.ref == "training-nv-pytorch:25.07")
    # its page says "support for" Transformer Engine, PEFT and Diffusers, never "new": no mark, nothing to explain
    assert [c.id for c in record.components if c.introduced] == []
    assert not {"components.transformer-engine", "components.diffusers", "components.peft"} & {
        c.field for c in record.source_conflicts}


@pytest.mark.parametrize("edit,fragment,field", [
    # listed and of unknown presence at once
    (('  - {id: vllm, name: vLLM, version: "0.8.2"}\n',
      '  - {id: vllm, name: vLLM, version: "0.8.2"}\npresence_unknown: [vllm]\n'),
     "vllm is in presence_unknown but the record lists it in components", "presence_unknown.0"),
    # no source conflict says why
    (('  - {id: vllm, name: vLLM, version: "0.8.2"}\n', 'presence_unknown: [accl-n]\n'),
     "accl-n is in presence_unknown but no source_conflicts entry on `components.accl-n`", "presence_unknown.0"),
])
def test_presence_unknown_must_agree_with_components_and_conflicts(tree, edit, fragment, field):
    root = tree()
    _edit(root, *edit)
    found = _problems(root, "data.presence-unknown")
    assert [p.field for p in found] == [field]
    assert fragment in found[0].message


def test_real_records_name_every_component_their_conflicts_leave_unknown():
    real = Path(__file__).resolve().parents[2] / "releases"
    result = load_paths([real])
    assert run_gate(Corpus.from_documents(result.documents), only=["data.presence-unknown"]) == []
    unknown = {r.ref: r.presence_unknown for r in (d.model for d in result.documents) if isinstance(r, ReleaseRecord)}
    assert unknown["training-nv-pytorch:25.09"] == ["accl-n"]
    assert unknown["training-nv-pytorch:25.10"] == ["accl-n"]
    assert unknown["training-nv-pytorch:25.08"] == []


def test_not_captured_is_a_list_nothing_of_which_was_read(tree):
    root = tree()
    _edit(root, COMPONENTS, "component_list: not-captured\ncomponents: []\n")
    assert _problems(root, "data.component-list-state") == []
    _edit(root, "component_list: not-captured\ncomponents: []\n",
          'component_list: not-captured\ncomponents:\n  - {id: torch, name: torch, version: "2.7.1"}\n')
    found = _problems(root, "data.component-list-state")
    assert [p.field for p in found] == ["components.0.id"]
    assert "part of the list was captured: write `partial`" in found[0].message
