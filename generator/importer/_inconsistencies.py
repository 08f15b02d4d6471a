"""The page's own inconsistencies as ``source_conflicts`` entries of the draft.

A component listed twice with different versions (the first is kept; why is
a person's decision, so ``reason`` is a placeholder), a component table whose
header row is one cell off its columns, an English title that names the
family with an Indonesian word, and a version the features text states
differently from the component list or the Requirements row (``PPU SDK
1.5.2`` in Requirements, "Upgraded PPU SDK to 1.5.1" in the features).  Descriptions are the importer's own words,
in both languages.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.generator.importer._components import Note
from lingjun.generator.importer._recognise import Identity
from lingjun.schema.placeholders import PLACEHOLDER

__all__ = ["duplicate_conflict", "shift_conflict", "title_conflict", "features_version", "versions_agree",
           "stated_conflict"]

_SLUG = re.compile(r"[^a-z0-9]+")


def duplicate_conflict(note: Note, language: str, url: str) -> dict[str, Any]:
    """A component the page lists twice with two versions: the first kept, the reason left to a person."""
    first, second = note.versions
    slug = _SLUG.sub("-", note.name.lower()).strip("-")
    return {
        "id": f"{slug}-listed-twice"[:64],
        "field": "components",
        "description": {
            "en": f"The page's component list names {note.name} twice, as {first} and as {second}.",
            "zh": f"页面的组件列表两次列出 {note.name}，版本分别为 {first} 和 {second}。",
        },
        "values": [{"value": first, "stated_in": "component-list", "source": url},
                   {"value": second, "stated_in": "component-list", "source": url}],
        "kept": first,
        "reason": {"en": f"{PLACEHOLDER}: why the record keeps this version",
                   "zh": f"{PLACEHOLDER}：记录保留该版本的理由"},
    }


def title_conflict(identity: Identity, url: str) -> dict[str, Any]:
    """An English title naming the family with an Indonesian word ("pelatihan"): the English id kept."""
    return {
        "id": "family-name-in-indonesian",
        "field": "family",
        "description": {
            "en": f"The page's title calls the family {identity.named_as}: machine translation put an "
                  f"Indonesian word into the English name (\"pelatihan\" is training, \"inferensi\" inference).",
            "zh": f"页面标题把系列名写作 {identity.named_as}：机器翻译把印尼语词放进了英文名称"
                  "（pelatihan 意为训练，inferensi 意为推理）。",
        },
        "values": [{"value": identity.named_as, "stated_in": "title", "source": url},
                   {"value": identity.family, "stated_in": "assets", "source": url}],
        "kept": identity.family,
        "reason": {"en": "The image name in the page's references and the family's other pages use the English word.",
                   "zh": "页面中的镜像地址与该系列的其他页面都使用英文词。"},
    }


def shift_conflict(note: Note, url: str) -> dict[str, Any]:
    """A table header one cell off its columns: the labels read in order over the value columns."""
    return {
        "id": "table-header-shifted",
        "field": "components",
        "description": {"en": "The component table's header row is one cell off its data rows, so the column labels "
                              "do not sit above their columns.",
                        "zh": "组件表格的表头与数据行错开一格，列名没有对齐到各自的列。"},
        "values": [{"value": note.name[:300], "stated_in": "component-list",
                    "source": url}],
        "reason": {"en": "The labels are read in their order as the labels of the value columns; the page says "
                         "nothing else about which list is which.",
                   "zh": "按顺序把表头的列名对应到各数值列；页面没有其他说明。"},
    }


#: what may stand between a name and its version in the features text ("vLLM to v0.8.5", "Python is upgraded to
#: 3.12.7+gc", "PPU SDK升级至1.5.1"); "from 0.8.3 to 0.8.5" names the old version first and is not read
_LINK = (r"(?:\s+(?:is|was|has\s+been|are)\b)?(?:\s+(?:upgraded|updated|bumped|raised)\b)?(?:\s+(?:to|at)\b)?"
         r"\s*(?:升级到|升级至|升级为|更新到|更新至|更新为|至|到|为|[:：])?\s*")
_VERSION = r"v?(\d+(?:\.\d+)+(?:[+\w.-]*\w)?)(?![\w+-]|\.\w)(?!\s*(?:→|->|to\s+v?\d|升级))"


def features_version(texts: list[tuple[str, int]], name: str) -> Optional[tuple[str, int]]:
    """``(version, line)`` the features text gives ``name`` (``"Upgraded vLLM to v0.8.5"`` -> ``0.8.5``), or None."""
    pattern = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-]){_LINK}{_VERSION}", re.I)
    for text, line in texts:
        found = pattern.search(text)
        if found:
            return found.group(1), line
    return None


def versions_agree(one: str, other: str) -> bool:
    """True when the versions are equal or one is the other shortened (``2.6`` and ``2.6.0.7``, ``3.12.7+gc``)."""
    one, other = one.lstrip("vV"), other.lstrip("vV")
    short, long = sorted((one, other), key=len)
    return short == long or (long.startswith(short) and long[len(short)] in ".+-")


#: stated_in -> (short id word, English place, Chinese place)
_PLACES = {"component-list": ("list", "the component list", "组件列表"),
           "features-text": ("features", "the features text", "特性说明"),
           "driver-text": ("requirements", "the Requirements row", "Requirements 一栏")}


def stated_conflict(name: str, field: str, kept: tuple[str, str], other: tuple[str, str], url: str,
                    image: str = "") -> dict[str, Any]:
    """Two parts of one page giving ``name`` two versions: ``kept`` and ``other`` are ``(version, stated_in)``.

    The draft keeps ``kept`` (the component list's, or the Requirements row's value); which holds is a
    person's decision, so ``reason`` is a placeholder.
    """
    (first, first_in), (second, second_in) = kept, other
    slug = _SLUG.sub("-", f"{image} {name}".lower()).strip("-")
    where_en = f" (the {image} image)" if image else ""
    where_zh = f"（{image} 镜像）" if image else ""
    return {
        "id": f"{slug}-{_PLACES[first_in][0]}-vs-{_PLACES[second_in][0]}"[:64].rstrip("-"),
        "field": field,
        "description": {
            "en": f"T{_PLACES[first_in][1][1:]} gives {name} {first}{where_en}; {_PLACES[second_in][1]} says {second}.",
            "zh": f"{_PLACES[first_in][2]}给出的 {name} 为 {first}{where_zh}，{_PLACES[second_in][2]}中为 {second}。",
        },
        "values": [{"value": first, "stated_in": first_in, "source": url},
                   {"value": second, "stated_in": second_in, "source": url}],
        "kept": first,
        "reason": {"en": f"{PLACEHOLDER}: why the record keeps this version",
                   "zh": f"{PLACEHOLDER}：记录保留该版本的理由"},
    }
