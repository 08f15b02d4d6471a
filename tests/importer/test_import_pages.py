"""Every page fixture and seed: import reproduces the curated components of every record whose page carries a list."""

from __future__ import annotations

import re

import pytest

from importer_kit import INDEX_PAGES, PAGES, RELEASE_PAGES, RELEASES, all_seeds
from lingjun.generator.importer import ImportRefused, import_page
from lingjun.schema.loader import load_knowledge_base
from lingjun.schema.release_images import release_images

KB, _ = load_knowledge_base(RELEASES)


#: every record whose page copy carries a component list -> the copies it is compared with
#: (a file in tests/fixtures/pages/, or a seed in tests/fixtures/seeds/)
COMPARED = {
    "inference-nv-pytorch:25.04": ("inference-nv-pytorch-25.04.zh.md",),
    "inference-xpu-pytorch-opt:sglang0.5.4.post3-250105": (
        "inference-xpu-pytorch-opt-sglang0.5.4.post3-250105.zh.md",
        "inference-xpu-pytorch-opt-sglang0.5.4.post3-250105.en.md"),
    "training-nv-pytorch:25.02": ("training-nv-pytorch-25.02.zh.md",),
    "training-nv-pytorch:25.03": ("training-nv-pytorch-25.03.zh.md",),
    "training-nv-pytorch:25.04": ("training-nv-pytorch-25.04.id.md",),
    "training-nv-pytorch:25.07": ("training-nv-pytorch-25.07.zh.md",),
    "training-nv-pytorch:25.08": ("training-nv-pytorch-25.08.id.md",),
    "training-nv-pytorch:25.09": ("training-nv-pytorch-25.09.id.md",),
    "training-nv-pytorch:25.10": ("training-nv-pytorch-25.10.zh.md",),
    "training-xpu-pytorch:2026-10-20": ("training-xpu-pytorch-2026-10-20.zh.md",),
}
#: compared with a seed page (tests/fixtures/seeds/)
COMPARED_WITH_A_SEED = {"training-xpu-pytorch:25.05": "training-xpu-pytorch-25.05.en.txt"}
#: page fixtures whose copy shows the core-components row empty, and where the list is instead
COPIES_WITHOUT_A_LIST = {
    "training-nv-pytorch-25.06.id.md": "no stored copy of the 25.06 page shows its list",
    "training-nv-pytorch-25.08.en.md": "the list is on the id page (training-nv-pytorch-25.08.id.md)",
    "training-nv-pytorch-25.09.en.md": "the list is on the id page (training-nv-pytorch-25.09.id.md)",
}
#: every other record, and why no page copy's list is compared with it
NOT_COMPARED = {
    "training-nv-pytorch:25.06": "its only page (id) shows an empty core-components cell in every stored copy; "
                                 "the record's partial list comes from the feature text (the fixture is imported, "
                                 "and carries no list)",
    "ngc-pytorch:25.01": "NVIDIA's own release notes, not an Alibaba Cloud release-note page lingjun-kb import reads",
    "ngc-pytorch:25.02": "NVIDIA's own release notes, not an Alibaba Cloud release-note page lingjun-kb import reads",
    "ngc-pytorch:25.03": "NVIDIA's own release notes, not an Alibaba Cloud release-note page lingjun-kb import reads",
}


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
    expected = {f"{ref}:{page}" for ref, pages in COMPARED.items() for page in pages}
    expected |= {f"{ref}:{page}" for ref, page in COMPARED_WITH_A_SEED.items()}
    assert expected <= compared
    assert not {c.rsplit(":", 1)[0] for c in compared} & set(NOT_COMPARED)


def test_every_record_is_compared_with_a_page_copy_or_says_why_not():
    """No record is left out silently: each is in COMPARED (or with a seed) or NOT_COMPARED, with a reason."""
    refs = {r.ref for r in KB.releases}
    listed = set(COMPARED) | set(COMPARED_WITH_A_SEED) | set(NOT_COMPARED)
    assert refs == listed, (sorted(refs - listed), sorted(listed - refs))
    assert not set(COMPARED) & set(NOT_COMPARED)
    assert all(len(reason) > 20 for reason in NOT_COMPARED.values())
    fixtures = {p.name for p in RELEASE_PAGES}
    named = {page for pages in COMPARED.values() for page in pages} | set(COPIES_WITHOUT_A_LIST)
    assert fixtures == named, sorted(fixtures ^ named)
    for name in COPIES_WITHOUT_A_LIST:  # an empty row is not a list: nothing invented, the list not captured
        draft = import_page(PAGES / name, RELEASES).draft
        assert "components" not in draft and draft["component_list"] == "not-captured", name
    for ref, pages in COMPARED.items():  # each copy is of one of the record's own pages
        for name in pages:
            url = re.search(r"^URL: (\S+)", (PAGES / name).read_text(encoding="utf-8"), re.M).group(1)
            assert url in {str(s.url) for s in KB.release(ref).sources}, (ref, url)


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


def test_sections_the_copies_do_not_show_match_the_records():
    """``not_captured`` and the runtimes' ``component_list`` as the curated records state them."""
    checked = 0
    for page in RELEASE_PAGES:
        result = import_page(page, RELEASES)
        record = KB.release(f"{result.family}:{result.release}")
        if record is None:
            continue
        # driver: a copy that ends early names it, but the curators also name it from a source note (2026-10-20)
        # and leave it out when another copy states the driver (the opt release): compared on its own elsewhere
        unseen = set(result.draft.get("not_captured", [])) - {"driver"}
        recorded = {s.value for s in record.not_captured} - {"driver"}
        if len(record.sources) == 1:
            assert unseen == recorded, page.name
        else:  # another page of the record may show what this copy does not; none shows what the record lacks
            assert recorded <= unseen, page.name
        states = {r["id"]: r.get("component_list") for r in result.draft.get("runtimes", [])}
        assert states == {r.id: r.component_list.value for r in record.runtimes if r.component_list}, page.name
        checked += 1
    assert checked >= 3


def test_indonesian_copies_read_their_headings_contents_and_driver_as_the_records_state_them():
    """id 25.06 ("Kerangka kerja yang diperbarui", "Detail citra", "Persyaratan driver") and id 25.09 ("Daftar Isi", whose copy ends before the driver text): the driver as the curated records hold it."""
    for name, release in (("training-nv-pytorch-25.06.id.md", "25.06"), ("training-nv-pytorch-25.09.id.md", "25.09")):
        draft = import_page(next(p for p in RELEASE_PAGES if p.name == name), RELEASES).draft
        record = KB.release(f"training-nv-pytorch:{release}")
        assert draft["driver"]["minimum"] == record.driver.minimum == "575", name
        assert draft["driver"]["stated_as"].startswith(record.driver.stated_as), name
    draft = import_page(next(p for p in RELEASE_PAGES if p.name == "training-nv-pytorch-25.06.id.md"), RELEASES).draft
    assert draft["highlights"] and "highlights" not in draft["not_captured"]


def test_the_id_25_08_image_note_gives_the_products_the_record_holds():
    """"cocok untuk produk multi-penyewa ACS dan Lingjun … tidak cocok untuk produk satu penyewa Lingjun"."""
    page = next(p for p in RELEASE_PAGES if p.name == "training-nv-pytorch-25.08.id.md")
    (tag,) = import_page(page, RELEASES).draft["image_tags"]
    (kept,) = KB.release("training-nv-pytorch:25.08").image_tags
    assert (tag["tag"], tag["products"], tag["not_for"]) == (kept.tag, kept.products, kept.not_for) == (
        "25.08-serverless", ["acs", "lingjun-multi-tenant"], ["lingjun-single-tenant"])


@pytest.mark.parametrize("name", ["training-nv-pytorch-25.03.zh.md", "training-nv-pytorch-25.06.id.md",
                                  "training-nv-pytorch-25.09.en.md"])
def test_the_data_centre_branch_lists_are_read_as_the_records_hold_them(name):
    """"470.57(或更高版本R470)", "470.57+ (cabang R470)", "470.57 (or a later R470 version)": the same pairs,
    and the branches the page says to upgrade from."""
    page = next(p for p in RELEASE_PAGES if p.name == name)
    result = import_page(page, RELEASES)
    driver = result.draft["driver"]
    record = KB.release(f"{result.family}:{result.release}").driver
    assert [(f["branch"], f["minimum"]) for f in driver["forward_compatibility"]] == [
        (f.branch, f.minimum) for f in record.forward_compatibility] == [
        (470, "470.57"), (525, "525.85"), (535, "535.86"), (545, "545.23")]
    assert driver["must_upgrade_branches"] == list(record.must_upgrade_branches)


def test_the_rewritten_english_25_08_page_reads_like_its_siblings():
    """en 25.08: "What's new", an inline "Bug fixes: None", and "Do not use this image in Lingjun single-tenant
    scenarios" (not a product); its empty core-components cell gives no list."""
    page = next(p for p in RELEASE_PAGES if p.name == "training-nv-pytorch-25.08.en.md")
    draft = import_page(page, RELEASES).draft
    (tag,) = draft["image_tags"]
    (kept,) = KB.release("training-nv-pytorch:25.08").image_tags
    assert (tag["products"], tag["not_for"]) == (kept.products, kept.not_for) == (
        ["acs", "lingjun-multi-tenant"], ["lingjun-single-tenant"])
    assert [h["text"]["en"].rsplit(": ", 1)[1] for h in draft["highlights"]] == [
        "transformers upgraded to 4.53.3+ali", "vLLM upgraded to 0.10.0", "Ray upgraded to 2.48.0"]
    assert draft["stated_none"] == ["bug_fixes"]
    assert draft["not_captured"] == ["features", "known_issues", "usage_notes", "quick_start"]
    assert "components" not in draft and draft["component_list"] == "not-captured"


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
