"""Release identifiers, their order, variants and runtimes (issue 12's schema)."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from lingjun.checks.core.release_order import release_order_key
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import FamilyCatalog, ListState, ReleaseRecord
from lingjun.schema.release_images import image_for_tag, release_images

BASE = {
    "kind": "release", "family": "demo-nv", "status": "current",
    "summary": {"en": "Demo.", "zh": "演示。"},
    "sources": [{"url": "https://example.com/page", "language": "en"}],
}
TAG = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/demo-nv:{}"


def _record(**fields) -> ReleaseRecord:
    return ReleaseRecord.model_validate({**BASE, **fields})


def _variant(vid: str, tag: str, **fields) -> dict:
    return {"id": vid, "title": {"en": f"{vid} image", "zh": f"{vid} 镜像"},
            "image_tags": [{"tag": tag, "reference": TAG.format(tag)}], **fields}


@pytest.mark.parametrize("version, key", [
    ("25.07", (2025, 7, 0)),
    ("2026-10-20", (2026, 10, 20)),
    ("sglang0.5.4.post3-250105", None),
])
def test_order_key_of_each_identifier_shape(version, key):
    assert release_order_key(version) == key


def test_an_identifier_that_names_no_date_is_ordered_by_its_release_date():
    assert release_order_key("sglang0.5.4.post3-250105", dt.date(2025, 11, 3)) == (2025, 11, 3)
    assert release_order_key("sglang0.5.4.post3-250105", "2025-11-03") == (2025, 11, 3)
    # a YY.MM month is placed by its name, never by a stated date
    assert release_order_key("25.07", dt.date(2025, 8, 1)) == (2025, 7, 0)


@pytest.mark.parametrize("version", ["25.13", "25.7", "2025.7", "2026-02-30", "2026-13-01", "25.O7", "Tag-1",
                                     "a/b", "x:y", "", "２５.07", "-lead"])
def test_identifiers_that_are_typos_or_unsafe_are_refused(version):
    with pytest.raises(ValidationError):
        _record(version=version)


@pytest.mark.parametrize("version", ["25.07", "2026-10-20", "sglang0.5.4.post3-250105"])
def test_identifiers_the_pages_use_are_accepted(version):
    assert _record(version=version).version == version


def test_a_dated_identifier_and_a_different_release_date_are_refused():
    with pytest.raises(ValidationError, match="differs from the date the release is named by"):
        _record(version="2026-10-20", released={"date": "2026-10-21", "kind": "page-published",
                                                "source": "https://example.com/page"})


def test_family_order_is_by_date_not_by_text():
    kb = KnowledgeBase(releases=[
        _record(version="2026-10-20"), _record(version="25.05"), _record(version="25.10"),
        _record(version="25.09", family="demo-other"),
    ])
    kb.sort()
    assert [r.version for r in kb.releases_of("demo-nv", newest_first=False)] == ["25.05", "25.10", "2026-10-20"]
    newest = kb.release("demo-nv:2026-10-20")
    assert kb.previous(newest).version == "25.10"
    assert kb.previous(kb.release("demo-nv:25.05")) is None


def test_variants_hold_their_own_tags_and_lists():
    record = _record(version="25.04", variants=[
        _variant("vllm", "25.04-vllm0.8.5", components=[{"id": "vllm", "name": "vllm", "version": "0.8.5"}],
                 component_list="complete"),
        _variant("sglang", "25.04-sglang0.4.6.post1"),
    ])
    images = release_images(record)
    assert [i.variant_id for i in images] == ["vllm", "sglang"]
    assert [i.ref for i in images] == ["demo-nv:25.04#vllm", "demo-nv:25.04#sglang"]
    assert images[0].component_list is ListState.complete and [c.version for c in images[0].components] == ["0.8.5"]
    assert images[1].component_list is ListState.not_published and images[1].components == []
    assert image_for_tag(record, "25.04-sglang0.4.6.post1").variant_id == "sglang"
    assert image_for_tag(record, TAG.format("25.04-vllm0.8.5")).variant_id == "vllm"
    assert image_for_tag(record, "25.04") is None


def test_a_release_without_variants_is_its_only_image():
    record = _record(version="25.07", image_tags=[{"tag": "25.07", "reference": TAG.format("25.07")}],
                     python="3.12.7", architectures=["amd64"])
    (image,) = release_images(record)
    assert (image.variant_id, image.ref, image.python, [a.value for a in image.architectures]) == (
        None, "demo-nv:25.07", "3.12.7", ["amd64"])


@pytest.mark.parametrize("extra, word", [
    ({"image_tags": [{"tag": "25.04", "reference": "x"}]}, "image_tags"),
    ({"components": [{"id": "vllm", "name": "vllm", "version": "0.8.5"}]}, "components"),
    ({"component_list": "complete"}, "component_list"),
])
def test_a_release_with_variants_keeps_lists_in_them(extra, word):
    with pytest.raises(ValidationError, match=f"move {word}"):
        _record(version="25.04", variants=[_variant("vllm", "25.04-vllm")], **extra)


def test_variant_ids_are_unique():
    with pytest.raises(ValidationError, match="given twice"):
        _record(version="25.04", variants=[_variant("vllm", "a"), _variant("vllm", "b")])


def test_runtimes_carry_their_own_component_lists():
    record = _record(version="2026-10-20", runtimes=[{
        "id": "llama-factory/20261015", "name": "LlamaFactory", "upstream": "https://github.com/hiyouga/LlamaFactory",
        "path": "/opt/runtimes/llama-factory-ppu", "status": "maintained",
        "components": [{"id": "torch", "name": "torch", "version": "2.10.0"}], "component_list": "complete"}])
    (image,) = release_images(record)
    (runtime,) = image.runtimes
    assert (runtime.id, runtime.path, runtime.component_list, runtime.components[0].version) == (
        "llama-factory/20261015", "/opt/runtimes/llama-factory-ppu", ListState.complete, "2.10.0")
    with pytest.raises(ValidationError):
        _record(version="2026-10-20", runtimes=[{"id": "Bad Id", "name": "x"}])
    with pytest.raises(ValidationError):
        _record(version="2026-10-20", runtimes=[{"id": "x", "name": "x", "path": "relative/path"}])


def test_unrecorded_releases_and_catalog_sources():
    catalog = FamilyCatalog.model_validate({
        "kind": "families",
        "sources": [{"url": "https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/",
                     "language": "en"}],
        "families": [{
            "id": "demo-xpu", "image_name": "demo-xpu", "title": {"en": "Demo", "zh": "演示"},
            "description": {"en": "Demo.", "zh": "演示。"}, "vendor": "x", "accelerator": "ppu",
            "scenarios": ["training"], "framework": "pytorch",
            "public_registry_pattern": "r.example.com/ns/{image}:{tag}",
            "unrecorded_releases": [{"version": "25.08", "named_in": [
                {"url": "https://help.aliyun.com/en/document_detail/2878031.html", "language": "en"}]}],
        }]})
    assert catalog.families[0].unrecorded_releases[0].version == "25.08"
    assert catalog.sources[0].language.value == "en"
    with pytest.raises(ValidationError):
        FamilyCatalog.model_validate({**catalog.model_dump(mode="json"), "families": [{
            **catalog.families[0].model_dump(mode="json"), "unrecorded_releases": [{"version": "25.08", "named_in": []}]}]})
