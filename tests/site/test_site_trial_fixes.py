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
