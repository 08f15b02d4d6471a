"""Fixes from the fresh-user trial (issue 12 follow-up): wording the real pages must (not) show."""

from __future__ import annotations

import re


def test_unrecorded_successor_is_the_next_release_named_not_succeeded_by(pages):
    en = pages["en"]["release:inference-nv-pytorch:25.04"]
    assert "Succeeded by" not in en
    assert re.search(r"Next release the pages name: <a [^>]*>25\.10</a> \(published, not yet recorded\)", en)
    assert "官方页面提到的下一个版本：" in pages["zh"]["release:inference-nv-pytorch:25.04"]
    # a recorded successor still reads "Succeeded by"
    assert re.search(r'Succeeded by: <a href="\.\./25\.03/">25\.03</a>', pages["en"]["release:training-nv-pytorch:25.02"])


def test_first_recorded_release_names_the_earlier_unrecorded_release(pages):
    en = pages["en"]["release:training-xpu-pytorch:25.05"]
    assert re.search(r"the first release recorded in this family<br><small>the pages name an earlier release, "
                     r"not recorded here: <a [^>]*release-25-04\">25\.04</a> \(published, not yet recorded\)", en)
    # a family whose pages name nothing older says nothing more
    assert "earlier release" not in pages["en"]["release:training-nv-pytorch:25.02"]


def test_feature_sections_say_which_is_the_list_and_which_the_longer_section(pages):
    en, zh = pages["en"]["release:inference-nv-pytorch:25.04"], pages["zh"]["release:inference-nv-pytorch:25.04"]
    assert "## Main features { #highlights }" in en and "## Key features in detail { #features }" in en
    assert "## Highlights" not in en and "## Key features {" not in en
    assert "## 主要特性 { #highlights }" in zh and "## 关键特性说明 { #features }" in zh


def test_tags_without_products_say_not_stated_not_a_dash(pages):
    en, zh = pages["en"]["release:inference-nv-pytorch:25.04"], pages["zh"]["release:inference-nv-pytorch:25.04"]
    assert "· For: not stated · CPU architectures: not stated</p>" in en
    assert "For: —" not in en
    assert "· 适用于：未注明 · CPU 架构：未注明</p>" in zh


def test_ppu_release_lists_supported_instances_without_finder_link(pages):
    en, zh = pages["en"]["release:training-xpu-pytorch:2026-10-20"], pages["zh"]["release:training-xpu-pytorch:2026-10-20"]
    assert ('<p class="lj-gpu-support"><strong>Supported instances</strong>: M890, efg3.GP9A, efg3.GP9AS, 810E, '
            "efg2.p16en (as the page lists them).</p>") in en
    assert "does not list every architecture" not in en and "finder/?release" not in en
    assert "<strong>支持的实例</strong>：M890、efg3.GP9A、efg3.GP9AS、810E、efg2.p16en（按页面所列）。" in zh
    # an NVIDIA release keeps its finder link
    assert "finder/?release&#61;training-nv-pytorch&#58;25.10" in pages["en"]["release:training-nv-pytorch:25.10"]


def test_ppu_cuda_component_is_the_cuda_api_level(pages):
    en = pages["en"]["release:training-xpu-pytorch:2026-10-20"]
    assert '<a href="../../../components/cuda/">CUDA API level</a><small> (cuda-wrapper)</small>' in en
    assert '<a href="../../../components/cuda/">CUDA API 版本</a><small>（cuda-wrapper）</small>' in pages["zh"]["release:training-xpu-pytorch:2026-10-20"]
    assert '<a href="../../../components/cuda/">CUDA Toolkit</a><small> (CUDA)</small>' in pages["en"]["release:training-nv-pytorch:25.10"]
    assert '<a href="../../../components/cuda/">CUDA Toolkit</a><small>（CUDA）</small>' in pages["zh"]["release:training-nv-pytorch:25.10"]


def test_zh_source_titles_are_marked_as_titles_and_runtime_is_translated(pages):
    family = pages["zh"]["family:inference-nv-pytorch"]
    assert re.search(r"出处：<a href=\"[^\"]+\">《ACS AI container image release notes》</a>", family)
    assert ">ACS AI container image release notes</a>" in pages["en"]["family:inference-nv-pytorch"]
    xpu = pages["zh"]["release:training-xpu-pytorch:2026-10-20"]
    assert "## 训练框架运行时环境 { #runtimes }" in xpu and "runtime 名称" not in xpu  # record prose is left as written
    assert "所有运行时环境共用" in xpu


def test_finder_names_variants_by_title_in_the_page_language(real):
    from lingjun.generator.site.finder_page import finder_context
    from lingjun.generator.site.nav import PageSpec

    _, site = real
    page = PageSpec("finder", "finder/index.md", {"en": "Finder", "zh": "查询"}, "finder.md.j2", None)
    context = finder_context(site, page)
    lines = {lang: [image["line"] for r in context["finder_for"](lang)["data"]["releases"]
                    if r["ref"] == "inference-nv-pytorch:25.04" for image in r["images"]] for lang in ("en", "zh")}
    assert lines["en"][0] == "vLLM image: 25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
    assert lines["zh"][0] == "vLLM 镜像：25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
    # the per-branch table leaves PPU images out of its rows and names them in a note
    table = context["tables"]["dc"]
    assert not any(r["ppu"] for r, _ in table["rows"])
    assert {r["ref"] for r in table["ppu"]} == {"training-xpu-pytorch:25.05", "training-xpu-pytorch:2026-10-20",
                                                "inference-xpu-pytorch-opt:sglang0.5.4.post3-250105"}


def test_which_for_a_ppu_says_it_answers_for_nvidia_and_lists_ppu_minimums(real):
    import pytest

    from lingjun.generator.site.finder import WhichError, which

    kb, _ = real
    for gpu in ("PPU", "m890", "efg3.GP9A"):
        with pytest.raises(WhichError) as caught:
            which(kb, "1.1.0", gpu)
        line = str(caught.value)
        assert "\n" not in line and line.startswith("which answers for NVIDIA drivers and GPUs only")
        assert "training-xpu-pytorch:25.05 needs PPU driver >= 1.1.0" in line
        assert "training-xpu-pytorch:2026-10-20 states no PPU driver minimum" in line


def test_api_release_with_variants_claims_no_top_level_list_and_ppu_images_give_the_cuda_api_level(real):
    from lingjun.generator.site.api import api_record, image_index
    from lingjun.schema.models import ReleaseRecord

    kb, _ = real
    record = kb.release("inference-nv-pytorch:25.04")
    data = api_record(record)
    for key in ("component_list", "components", "image_tags", "presence_unknown", "runtimes"):
        assert key not in data, key
    assert [v["component_list"] for v in data["variants"]] == ["complete", "complete"]
    assert ReleaseRecord.model_validate(data) == record  # still a valid record
    assert api_record(kb.release("training-nv-pytorch:25.10"))["component_list"] == kb.release("training-nv-pytorch:25.10").component_list.value
    images = {i["ref"]: i for i in image_index(kb)}
    assert (images["training-xpu-pytorch:2026-10-20"]["cuda"], images["training-xpu-pytorch:2026-10-20"]["cuda_api"]) == (None, "13.0")
    assert (images["inference-nv-pytorch:25.04#vllm"]["cuda"], images["inference-nv-pytorch:25.04#vllm"]["cuda_api"]) == ("12.4", None)


def _matrix_rows(page, version_href):
    import re as _re

    return [row for row in _re.findall(r"<tr>(.*?)</tr>", page, _re.S) if version_href in row]


def test_matrix_has_one_labelled_row_per_image_and_marks_unknown_runtime_components_not_recorded(pages):
    en, zh = pages["en"]["matrix"], pages["zh"]["matrix"]
    rows = _matrix_rows(en, 'href="../releases/inference-nv-pytorch/25.04/"')
    assert len(rows) == 2
    assert "<small>vLLM image</small>" in rows[0] and "<td>0.8.5</td>" in rows[0]
    assert "<small>SGLang image</small>" in rows[1] and "<td>0.8.5</td>" not in rows[1]
    assert len(_matrix_rows(zh, 'href="../releases/inference-nv-pytorch/25.04/"')) == 2
    assert "<small>vLLM 镜像</small>" in zh
    # 2026-10-20: shared list complete, runtimes' lists not captured: unknown cells are not recorded, not a dash
    (row,) = _matrix_rows(en, 'href="../releases/training-xpu-pytorch/2026-10-20/"')
    cells = re.findall(r"<td>(.*?)</td>", row)
    assert cells[1:4] == ["13.0", "2.10.0", "3.12.3"]
    assert cells[4:8] == ['<span class="lj-not-recorded" title="not recorded">†</span>'] * 4


def test_home_tag_advice_is_scoped_to_families_whose_tags_name_products(pages, real):
    _, site = real
    scoped, one_tag, others = site.product_tag_families()
    assert [f.id for f in scoped] == ["training-nv-pytorch"]
    assert "inference-nv-pytorch" in [f.id for f in one_tag] and "training-xpu-pytorch" in [f.id for f in one_tag]
    assert others == []
    en = pages["en"]["home"]
    assert re.search(r"This applies to the families whose recorded tags name the products they are for: "
                     r"\[training-nv-pytorch \(NVIDIA GPU image\)\]\([^)]+\)\.\n", en)
    assert re.search(r"These families publish one tag per image, with no product named for it: \[[^\n]*"
                     r"inference-nv-pytorch", en)
    assert "以下镜像系列每个镜像只发布一个镜像标签，未注明适用产品：" in pages["zh"]["home"]


def test_compare_runtime_list_is_shared_plus_its_own_and_partial_unless_both_complete(real):
    _, site = real
    data = site.compare_data
    runtimes = [r for r in data["releases"] if r["runtime"] and r["release"] == "training-xpu-pytorch:2026-10-20"]
    assert runtimes
    for entry in runtimes:
        row = data["versions"][entry["ref"]]
        # the image's shared components (Python, torch) are in every runtime's effective list
        assert row.get("python") == "3.12.3" and row.get("torch") == "2.10.0", entry["ref"]
        assert entry["list"] == "partial"  # the runtimes' own lists were not captured
