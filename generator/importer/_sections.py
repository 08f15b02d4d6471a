"""The page's sections, found by their headings in English, Chinese or Indonesian.

A block starts a section when its whole text (numbering such as ``4.``,
``#`` marks and a final colon removed) is one of :data:`SECTION_TITLES`;
the section runs to the next such block.  Headings the importer does not
use (performance assessment, the page footer) end nothing: their blocks
stay with the section before.  Text after a release number (``25.03
公网镜像``) is matched without it.
"""

from __future__ import annotations

import re

from lingjun.generator.importer._blocks import CODE, ROW, TEXT, Block

__all__ = ["SECTION_TITLES", "split_sections", "section_of"]

#: normalised heading text -> section key
SECTION_TITLES: dict[str, str] = {}
for _key, _titles in {
    "overview": ["main features and bug fix lists", "key features and bug fixes", "main features and bug fixes",
                 "主要特性与bug fix列表", "主要特性和bug fix列表", "主要特性及bug fix列表", "主要特性与问题修复",
                 "fitur utama dan daftar perbaikan bug", "fitur utama dan perbaikan bug"],
    "highlights": ["main features", "key features", "主要特性", "主要特性列表", "新特性", "fitur utama",
                   "kerangka kerja yang diperbarui", "what's new"],
    "bug_fixes": ["bugs fix", "bug fix", "bug fixes", "bugs fixed", "bug fix列表", "bug修复", "问题修复",
                  "修复的问题", "perbaikan bug", "daftar perbaikan bug"],
    "contents": ["contents", "software components", "内容", "软件组件", "镜像内容", "konten", "isi",
                 "daftar isi", "detail citra"],
    "components": ["core components", "核心组件", "komponen inti"],
    "assets": ["assets", "asset", "container images", "镜像资产", "资产", "aset", "image assets", "citra tersedia"],
    "public": ["public image", "public images", "public network image", "公网镜像", "gambar publik",
               "image publik", "citra publik"],
    "vpc": ["vpc images", "vpc image", "vpc镜像", "image vpc", "gambar vpc", "citra vpc"],
    "driver": ["driver requirements", "driver requirement", "驱动要求", "驱动程序要求", "persyaratan driver"],
    "features": ["key features and enhancements", "key features & enhancements", "关键特性及增强", "关键特性与增强",
                 "关键特性和增强", "fitur utama dan peningkatan"],
    # the feature topics every training page has: copies without a "Key features" heading start there
    "features_topic": ["pytorch compiling optimization", "pytorch compiler optimization", "pytorch编译优化",
                       "pytorch compilation optimization", "accl", "accl通信库", "accl communication library",
                       "e2e performance gain assessment", "end-to-end performance assessment", "e2e性能收益评估",
                       "gpu memory optimization for recomputation", "recomputation memory optimization",
                       "重计算显存优化"],
    "runtimes": ["runtime支持表", "runtime支持", "runtime support", "runtimes", "supported runtimes", "runtime"],
    "instances": ["支持实例", "supported instances", "supported instance types", "instance types", "支持的实例"],
    "model_support": ["模型训练支持情况", "model training support", "模型支持"],
    "quick_start": ["quick start", "快速开始", "快速入门", "快速启动", "mulai cepat"],
    "usage_notes": ["usage notes", "usage recommendations", "usage", "使用建议", "使用说明", "注意事项",
                    "rekomendasi penggunaan", "catatan penggunaan"],
    "known_issues": ["known issues", "known issue", "已知问题", "masalah yang diketahui", "masalah umum"],
}.items():
    for _title in _titles:
        SECTION_TITLES[_title] = _key

#: the first step of a quick start whose heading a copy lost: it opens the section and stays in it
IMPLICIT_STARTS = {"select image": "quick_start", "选择镜像": "quick_start", "pull the image": "quick_start",
                   "拉取镜像": "quick_start"}

_NUMBERING = re.compile(r"^(?:#+\s*)?(?:\d{1,2}[.)、]\s*|step\s+\d+\s*[:：]?\s*)?", re.I)
_RELEASE = re.compile(r"^(?:\d{2}\.\d{2}|\d{4}-\d{2}-\d{2})\s*")


#: the longest block text that can be a section title (longer blocks are never normalised: a page of many
#: lines is read in linear time with a small constant)
_TITLE_MAX = 60


def _normalise(text: str) -> str:
    text = text.strip()
    if text[:1].isdigit() or text[:1] == "#" or text[:4].lower() == "step":  # else there is no numbering to drop
        text = _NUMBERING.sub("", text)
    return " ".join(text.strip().rstrip(":：").lower().split())


def section_of(block: Block) -> str | None:
    """The section ``block`` opens, or None (code lines and table rows never open one)."""
    if block.kind in (CODE, ROW) or len(block.text) > _TITLE_MAX:
        return None
    return _section_of_text(_normalise(block.text))


def _section_of_text(text: str) -> str | None:
    found = SECTION_TITLES.get(text)
    if found == "features_topic":
        found = "features"
    if found is None and _RELEASE.match(text):
        found = SECTION_TITLES.get(_RELEASE.sub("", text))
    return found


_INLINE = re.compile(r"^([^:：]{3,40})[:：]\s*(\S.{0,40})$")
#: the sections a page writes inline as "title: body" (en 25.08 "Bug fixes: None"); never "Usage: …" and the like
_INLINE_KEYS = ("bug_fixes", "known_issues")


def _inline_heading(block: Block) -> tuple[str, Block] | None:
    """``Bug fixes: None``: a paragraph that is a bug-fix or known-issue title, a colon and a short body ->
    (key, body block); None for any other paragraph."""
    if block.kind != TEXT:
        return None
    found = _INLINE.match(block.text.strip())
    key = SECTION_TITLES.get(_normalise(found.group(1))) if found else None
    if key not in _INLINE_KEYS:
        return None
    return key, block._replace(text=found.group(2).strip(), raw="")


def split_sections(blocks: list[Block]) -> dict[str, list[Block]]:
    """Section key -> its blocks (the heading itself left out), in page order; ``preamble`` before the first.

    A key seen twice (two "Known issues" headings) gets both runs of blocks, one after the other.  A short
    bug-fix or known-issue title written inline with its body (``Bug fixes: None``) opens that section
    holding the body.
    """
    sections: dict[str, list[Block]] = {"preamble": []}
    current = "preamble"
    for block in blocks:
        inline = _inline_heading(block) if block.kind not in (CODE, ROW) else None
        if inline is not None:
            current = inline[0]
            sections.setdefault(current, []).append(inline[1])
            continue
        if block.kind in (CODE, ROW) or len(block.text) > _TITLE_MAX:
            sections[current].append(block)
            continue
        text = _normalise(block.text)
        implicit = IMPLICIT_STARTS.get(text)
        if implicit and current != implicit:
            current = implicit
            sections.setdefault(current, []).append(block)
            continue
        key = _section_of_text(text)
        if key is not None:
            current = key
            sections.setdefault(current, [])
            continue
        sections[current].append(block)
    return sections
