"""Every page fixture and seed: import reproduces the curated components of every record whose page carries a list."""

from __future__ import annotations

import time

import pytest

from conftest import INDEX_PAGES, RELEASE_PAGES, RELEASES, all_seeds
from lingjun.generator.importer import ImportRefused, import_page
from lingjun.schema.loader import load_knowledge_base
from lingjun.schema.release_images import release_images

KB, _ = load_knowledge_base(RELEASES)


def _listed(items) -> list[tuple]:
    """(id, name, version, architectures) of the entries a component list states (not features-text ones)."""
    out = []
    for item in items:
        item = item if isinstance(item, dict) else item.model_dump(mode="json")
        if item.get("stated_in", "component-list") == "component-list":
            out.append((item["id"], item["name"], item["version"], tuple(item.get("architectures", []))))
    return out


def _page_images(draft: dict) -> dict:
    if draft.get("variants"):
        return {v["id"]: v for v in draft["variants"]}
    return {None: draft}


def test_import_reproduces_the_curated_components_of_every_record_whose_page_carries_a_list():
    compared = set()
    for page in RELEASE_PAGES + all_seeds():
        result = import_page(page, RELEASES)
        record = KB.release(f"{result.family}:{result.release}")
        images = _page_images(result.draft)
        if record is None or not any(i.get("components") for i in images.values()):
            continue
        curated = {image.variant_id: image for image in release_images(record)}
        assert set(images) == set(curated), page.name
        for vid, image in images.items():
            mine, theirs = _listed(image.get("components", [])), _listed(curated[vid].components)
            if image.get("component_list") == "partial":  # a copy cut off: what it shows is the list's start
                assert mine == theirs[: len(mine)], page.name
            else:
                assert mine == theirs, page.name
            # runtimes: each runtime's visible list is the start of the curated one
            for runtime in image.get("runtimes", []):
                kept = next(r for r in curated[vid].runtimes if r.id == runtime["id"])
                assert _listed(runtime.get("components", [])) == _listed(kept.components)[: len(runtime.get("components", []))]
        compared.add(f"{record.ref}:{page.name}")
    refs = {c.rsplit(":", 1)[0] for c in compared}
    expected = {"inference-nv-pytorch:25.04", "training-xpu-pytorch:2026-10-20",
                "inference-xpu-pytorch-opt:sglang0.5.4.post3-250105"}
    if all_seeds():
        expected.add("training-xpu-pytorch:25.05")
    assert expected <= refs


def test_inference_nv_pytorch_25_04_has_two_variants_with_their_tags():
    page = next(p for p in RELEASE_PAGES if p.name == "inference-nv-pytorch-25.04.zh.md")
    draft = import_page(page, RELEASES).draft
    assert [v["id"] for v in draft["variants"]] == ["vllm", "sglang"]
    assert [v["image_tags"][0]["tag"] for v in draft["variants"]] == [
        "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless",
        "25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless"]
    assert "image_tags" not in draft and "components" not in draft
    assert (draft["cuda"], draft["python"]) == ("12.4", "3.10")
    assert draft["driver"]["minimum"] == "550" and draft["stated_none"] == ["bug_fixes"]
    assert draft["sources"][0]["url"] == "https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04"


def test_training_xpu_2026_10_20_takes_the_date_from_the_title_and_reads_its_runtimes():
    page = next(p for p in RELEASE_PAGES if p.name == "training-xpu-pytorch-2026-10-20.zh.md")
    result = import_page(page, RELEASES)
    assert (result.family, result.release, result.language) == ("training-xpu-pytorch", "2026-10-20", "zh")
    draft = result.draft
    assert [r["id"] for r in draft["runtimes"]] == ["cosmos-framework/20261015", "llama-factory/20261015",
                                                     "diffsynth/20261015"]
    assert draft["runtimes"][2]["path"] == "/opt/runtimes/diffsynth-ppu/"
    assert draft["runtimes"][0]["component_list"] == "partial"
    assert draft["gpu_support"]["models"] == ["M890", "efg3.GP9A", "efg3.GP9AS", "810E", "efg2.p16en"]
    assert draft["architectures"] == ["amd64"] and draft["ppu_sdk"] == "2.2"
    # "(不可见)" under the known-issues heading: not visible in the copy, so nothing is stated either way
    assert "known_issues" not in draft and "stated_none" not in draft


def test_a_cut_off_copy_gives_a_partial_list_and_says_where():
    page = next(p for p in RELEASE_PAGES if p.name.endswith("250105.en.md"))
    result = import_page(page, RELEASES)
    assert result.release == "sglang0.5.4.post3-250105"
    assert result.draft["component_list"] == "partial"
    assert any("cut off" in p and "flash-attn" in p for p in result.problems)


@pytest.mark.parametrize("page", INDEX_PAGES, ids=lambda p: p.name)
def test_index_pages_are_refused_as_not_one_release(page):
    with pytest.raises(ImportRefused) as caught:
        import_page(page, RELEASES)
    assert "index page" in caught.value.reason or "not an image release-note page" in caught.value.reason


def test_importing_a_page_takes_well_under_a_second():
    import_page(RELEASE_PAGES[0], RELEASES)  # warm: module imports
    timings = {}
    for page in RELEASE_PAGES + all_seeds():
        start = time.perf_counter()
        import_page(page, RELEASES)
        timings[page.name] = time.perf_counter() - start
    slowest = max(timings.values())
    print(f"import_page: slowest {slowest * 1000:.0f} ms over {len(timings)} pages")
    assert slowest < 1.0, timings


def test_sections_the_copies_do_not_show_match_the_records():
    """``not_captured`` and the runtimes' ``component_list`` as the curated records state them."""
    checked = 0
    for page in RELEASE_PAGES:
        result = import_page(page, RELEASES)
        record = KB.release(f"{result.family}:{result.release}")
        if record is None:
            continue
        # driver: a copy that ends early names it, but the curators also name it from a source note (2026-10-20)
        # and leave it out when another copy states the driver (the opt release): compared below, on its own
        drafted = set(result.draft.get("not_captured", [])) - {"driver"}
        assert drafted == {s.value for s in record.not_captured} - {"driver"}, page.name
        states = {r["id"]: r.get("component_list") for r in result.draft.get("runtimes", [])}
        assert states == {r.id: r.component_list.value for r in record.runtimes if r.component_list}, page.name
        checked += 1
    assert checked >= 3


def test_a_copy_that_ends_early_did_not_show_the_driver_section_unless_it_stated_a_driver():
    from lingjun.generator.importer._blocks import Block
    from lingjun.generator.importer._captured import not_captured

    cut = {"components": [Block("text", "torch 2.10.… (the rest is not visible)", 9)]}
    assert not_captured(cut)[-1] == "driver" and "known_issues" in not_captured(cut)
    whole = {"components": [Block("text", "torch 2.10.0", 9)], "driver": [Block("text", "R570 or later", 12)]}
    assert not_captured(whole) == []
    result = import_page(next(p for p in RELEASE_PAGES if p.name.startswith("inference-xpu-pytorch-opt")
                              and p.name.endswith(".zh.md")), RELEASES)
    assert result.draft["driver"]["minimum"] == "1.1.0" and "driver" not in result.draft.get("not_captured", [])
