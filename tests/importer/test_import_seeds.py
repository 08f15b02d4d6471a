"""The three seed pages: what the importer takes from each, against the curated records made from them."""

from __future__ import annotations


import yaml

from importer_kit import RELEASES, seed
from lingjun.generator.importer import import_page
from lingjun.schema.placeholders import PLACEHOLDER, PLACEHOLDER_URL


def _record(ref: str) -> dict:
    family, version = ref.split(":")
    return yaml.safe_load((RELEASES / family / f"{version}.yaml").read_text(encoding="utf-8"))


def _triples(components: list[dict]) -> list[tuple]:
    return [(c["id"], c["name"], c["version"], tuple(c.get("architectures", []))) for c in components]


def test_xpu_25_05_reproduces_the_curated_component_list_exactly():
    result = import_page(seed("training-xpu-pytorch-25.05.en.txt"), RELEASES)
    assert (result.family, result.release, result.language) == ("training-xpu-pytorch", "25.05", "en")
    curated = _record("training-xpu-pytorch:25.05")
    assert _triples(result.draft["components"]) == _triples(curated["components"])
    assert len(result.draft["components"]) == 35
    # the Requirements value the features text also states: the curated entry, note included
    assert result.draft["components"][-1] == next(c for c in curated["components"] if c["id"] == "ppu-sdk")
    assert result.draft["component_list"] == "complete"
    assert result.draft["driver"] == {"vendor": "ppu", "minimum": "1.1.0", "stated_as": "Driver version >= 1.1.0"}
    assert result.draft["ppu_sdk"] == "1.5.1" and result.draft["python"] == "3.12.7+gc"
    assert result.draft["image_tags"] == curated["image_tags"]
    # four known issues (the empty "Stability issues" heading states none) wait for known-issue files
    note = result.draft["sources"][0]["note"]["en"]
    assert "(4) Performance issues: Using an autotune tool" in note and "(5)" not in note
    assert "Stability issues" not in note
    assert result.draft["known_issues"] == ["todo.lingjun-kb-new"]


def test_xpu_25_05_quick_start_and_usage_notes():
    draft = import_page(seed("training-xpu-pytorch-25.05.en.txt"), RELEASES).draft
    curated = _record("training-xpu-pytorch:25.05")
    assert [s["commands"] for s in draft["quick_start"]] == [s["commands"] for s in curated["quick_start"]]
    assert [s["title"]["en"] for s in draft["quick_start"]] == ["Pull the image", "Enable optimizations",
                                                                 "Start the container"]
    assert len(draft["usage_notes"]) == 5
    assert draft["usage_notes"][2]["text"]["en"].endswith("you must add the --quantization moe_wna16 flag).")
    assert draft["usage_notes"][0]["text"]["zh"].startswith(PLACEHOLDER)


def test_nv_25_07_en_seed_states_no_component_list_and_the_import_invents_none():
    result = import_page(seed("training-nv-pytorch-25.07.en.txt"), RELEASES)
    curated = _record("training-nv-pytorch:25.07")
    draft = result.draft
    assert "components" not in draft and "component_list" not in draft
    assert any("carries no component list" in p for p in result.problems)
    assert [t["tag"] for t in draft["image_tags"]] == ["25.07-serverless"]
    assert draft["stated_none"] == ["bug_fixes"]
    reword = "TODO(lingjun-kb new): reword in your own words; the page says: "  # prose is never copied as is
    assert [h["text"]["en"] for h in draft["highlights"]] == [
        reword + "Upgraded vllm to v0.9.2.",
        reword + "Support for transformerEngine v2.3.0+5de3e14, peft v0.16.0, and diffusers v0.34.0."]
    assert [s["commands"] for s in draft["quick_start"]] == [s["commands"] for s in curated["quick_start"]]
    assert len(draft["usage_notes"]) == 3 and "NCCL_SOCKET_IFNAME=hpn0" in draft["usage_notes"][2]["text"]["en"]
    assert draft["sources"][0] == {"url": PLACEHOLDER_URL, "language": "en",
                                   "title": "Container Compute Service:training-nv-pytorch 25.07"}
    assert "driver" not in draft


def test_nv_25_03_zh_seed_reproduces_tags_products_and_driver_branches():
    result = import_page(seed("training-nv-pytorch-25.03.zh.txt"), RELEASES)
    curated = _record("training-nv-pytorch:25.03")
    draft = result.draft
    assert (result.language, result.release) == ("zh", "25.03")
    assert draft["image_tags"] == curated["image_tags"]
    for key in ("vendor", "minimum", "stated_as", "forward_compatibility", "must_upgrade_branches"):
        assert draft["driver"][key] == curated["driver"][key], key
    assert draft["stated_none"] == curated["stated_none"] == ["known_issues"]
    # the copy's core-components cell is empty: no list, and the reason says so
    assert "components" not in draft and draft["component_list"] == "not-captured"
    assert any("core-components cell is empty" in p for p in result.problems)
    assert any("R545" in p and "branch_resolutions" in p for p in result.problems)
    assert [s["commands"][0] for s in draft["quick_start"]] == [s["commands"][0] for s in curated["quick_start"]]
    assert [n["text"]["zh"] for n in draft["usage_notes"]][1] == "TODO(lingjun-kb new)：请用自己的话改写，页面原文为：" \
        "DeepSpeed配置中的zero_optimization.stage3_prefetch_bucket_size留空或设置为auto。"
    assert draft["bug_fixes"][0]["text"]["zh"].startswith("TODO(lingjun-kb new)：请用自己的话改写，页面原文为：升级vLLM版本至0.8.2.dev0")


def test_every_seed_agrees_with_its_record():
    for name in ("training-xpu-pytorch-25.05.en.txt", "training-nv-pytorch-25.07.en.txt",
                 "training-nv-pytorch-25.03.zh.txt"):
        result = import_page(seed(name), RELEASES)
        assert result.existing is not None, name
        assert result.conflicts.get("source_conflicts", []) == [], name
        assert yaml.safe_load(result.content) == {"source_conflicts": [], **result.conflicts}
