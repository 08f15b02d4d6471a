"""The page's own inconsistencies as ``source_conflicts`` entries of the draft.

A component listed twice with different versions (the first is kept; why is
a person's decision, so ``reason`` is a placeholder), a component table whose
header row is one cell off its columns, and an English title that names the
family with an Indonesian word.  Descriptions are the importer's own words,
in both languages.
"""

from __future__ import annotations

import re
from typing import Any

from lingjun.generator.importer._components import Note
from lingjun.generator.importer._recognise import Identity
from lingjun.schema.placeholders import PLACEHOLDER

__all__ = ["duplicate_conflict", "shift_conflict", "title_conflict"]

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
