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
