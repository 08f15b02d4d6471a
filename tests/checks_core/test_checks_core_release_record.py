"""The typed view of the release data (lingjun.checks.knowledge.release_record, catalog_entry): what BUNDLE_SHAPE
lists, built once per bundle, the same values as the bundle's JSON, and wrong types refused naming the path."""

from __future__ import annotations

import copy
import dataclasses
import json
import typing
from pathlib import Path

import pytest

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.knowledge import catalog_entry, release_record
from lingjun.checks.knowledge._bundle_shape import BUNDLE_SHAPE, MapOf, Opt, Required
from lingjun.checks.knowledge.bundle import BundleError, KnowledgeData
from lingjun.checks.knowledge.release_record import Release, release_from_dict

BUNDLE = json.loads((Path(__file__).resolve().parents[2] / "checks" / "data" / "bundle.json").read_text(encoding="utf-8"))


def _unwrapped(shape):
    while isinstance(shape, (Required, Opt)):
        shape = shape.inner
    return shape


def _pairs(cls, shape, where):
    """``(dataclass, object shape, path)`` for ``cls`` and every dataclass its fields hold, walked with the shape."""
    yield cls, shape, where
    hints = typing.get_type_hints(cls)
    for key, inner in shape.items():
        name = "from_" if key == "from" else key
        hint, inner = hints.get(name), _unwrapped(inner)
        args = [a for a in typing.get_args(hint) if a is not type(None)] if typing.get_origin(hint) is typing.Union else [hint]
        hint = args[0]
        if typing.get_origin(hint) is list and isinstance(inner, list) and isinstance(_unwrapped(inner[0]), dict):
            yield from _pairs(typing.get_args(hint)[0], _unwrapped(inner[0]), f"{where}.{key}[]")
        elif dataclasses.is_dataclass(hint) and isinstance(inner, dict):
            yield from _pairs(hint, inner, f"{where}.{key}")


@pytest.mark.parametrize("cls, shape, where", [
    (Release, BUNDLE_SHAPE["releases"][0], "releases[]"),
    (catalog_entry.Component, BUNDLE_SHAPE["components"][0], "components[]"),
])
def test_every_field_the_shape_lists_has_an_attribute_and_only_required_ones_lack_a_default(cls, shape, where):
    for klass, object_shape, path in _pairs(cls, shape, where):
        fields = {f.metadata.get("json", f.name): f for f in dataclasses.fields(klass)}
        for key, inner in object_shape.items():
            if isinstance(inner, MapOf):
                continue
            assert key in fields, f"{path}.{key} has no attribute on {klass.__name__}"
            no_default = fields[key].default is dataclasses.MISSING and fields[key].default_factory is dataclasses.MISSING
            assert no_default == isinstance(inner, Required), f"{path}.{key}: required in one, not the other"


def test_every_embedded_record_builds_once_with_the_bundles_values():
    data = KnowledgeData.from_dict(copy.deepcopy(BUNDLE), check_shape=False)
    records = data.records
    assert data.records is records  # built once, kept
    assert [r.ref for r in records] == [f"{r['family']}:{r['version']}" for r in data.raw["releases"]]
    for record, raw in zip(records, data.raw["releases"]):
        assert record.raw is raw
        assert data.record(record.ref) is record
        assert (record.cuda, record.python, record.component_list) == (raw.get("cuda"), raw.get("python"), raw["component_list"])
        assert [(c.id, c.version, c.architectures) for c in record.components] == [
            (c["id"], c["version"], c["architectures"]) for c in raw["components"]]
        if raw["driver"] is None:
            assert record.driver is None
        else:
            assert (record.driver.minimum, record.driver.must_upgrade_branches) == (
                raw["driver"]["minimum"], raw["driver"]["must_upgrade_branches"])
            assert [(f.branch, f.minimum) for f in record.driver.forward_compatibility] == [
                (f["branch"], f["minimum"]) for f in raw["driver"]["forward_compatibility"]]
        assert [(v.id, [t.tag for t in v.image_tags]) for v in record.variants] == [
            (v["id"], [t["tag"] for t in v["image_tags"]]) for v in raw["variants"]]
        assert [(n.rule, n.text) for n in record.usage_notes] == [(n.get("rule"), n["text"]) for n in raw["usage_notes"]]
    assert [c.id for c in data.catalog] == [c["id"] for c in data.raw["components"]]
    torch = data.catalog_entry("torch")
    assert (torch.probe.kind, torch.pypi, torch.label) == ("pypi", ["torch"], data.component("torch")["name"])


def test_a_record_added_to_a_loaded_bundle_is_seen():
    data = KnowledgeData.from_dict(copy.deepcopy(BUNDLE), check_shape=False)
    before = len(data.records)
    data.raw["releases"].append({"family": "f", "version": "1", "component_list": "complete"})
    assert len(data.records) == before + 1 and data.record("f:1").component_list == "complete"


@pytest.mark.parametrize("change, message", [
    (lambda r: r.__setitem__("components", "x"), "release.components: expected a list, got 'x'"),
    (lambda r: r["components"].append({"id": "a", "version": 3}), "release.components[0].version: expected a string, got 3"),
    (lambda r: r.pop("version"), "release.version: missing"),
    (lambda r: r.__setitem__("driver", {"minimum": "550", "must_upgrade_branches": [True]}),
     "release.driver.must_upgrade_branches[0]: expected an integer, got true"),
])
def test_a_field_of_another_type_is_refused_naming_its_path(change, message):
    raw = {"family": "f", "version": "1", "components": []}
    change(raw)
    with pytest.raises(ValueError) as info:
        release_from_dict(raw)
    assert str(info.value) == message


def test_a_dict_given_as_the_match_record_is_typed_once_and_kept_as_raw():
    raw = {"family": "f", "version": "1", "driver": {"vendor": "nvidia", "minimum": "550.54.15"}}
    match = ReleaseMatch(ref="f:1", how="option", record=raw)
    assert isinstance(match.record, Release) and match.record.raw is raw
    assert match.record.driver.minimum == "550.54.15" and match.record.driver.forward_compatibility == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        match.record.cuda = "12.8"  # type: ignore[misc]


def test_a_data_file_whose_record_no_typed_view_holds_is_refused_with_the_file(monkeypatch):
    """The typed view requires what BUNDLE_SHAPE requires (above), so the shape walk refuses such a file first; the
    records are still built at load, so a gap between the two would refuse the file too, never reach a rule."""
    import lingjun.checks.knowledge._bundle_shape as shape

    bundle = copy.deepcopy(BUNDLE)
    bundle["releases"][0]["variants"] = [{"id": "v", "runtimes": [{"id": "r", "components": [{"version": "1"}]}]}]
    with pytest.raises(BundleError) as info:
        KnowledgeData.from_dict(copy.deepcopy(bundle), "data.json")
    assert str(info.value) == "data.json: unusable release data: releases[0].variants[0].runtimes[0].components[0].id: missing"
    monkeypatch.setattr(shape, "shape_problem", lambda raw: None)
    with pytest.raises(BundleError) as info:
        KnowledgeData.from_dict(bundle, "data.json")
    assert str(info.value) == "data.json: unusable release data: releases[0].variants[0].runtimes[0].components[0].id: missing"


def test_the_typed_modules_name_the_schema_model_of_each_class():
    for module in (release_record, catalog_entry):
        for name in module.__all__:
            cls = getattr(module, name)
            if isinstance(cls, type) and cls.__name__ != "DerivedBranch":
                assert "lingjun.schema.models." in (cls.__doc__ or ""), name
