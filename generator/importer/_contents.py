"""The contents table: labelled rows (tag, use case, framework, requirements, architectures) per image column.

Read from a Markdown/HTML table (``| 应用场景 | 训练/推理 |``) or from the
plain copies, where each label is a line followed by its value line
(``Use case`` / ``Training/inference``).  Labels are matched in English,
Chinese and Indonesian; unknown labels are ignored.
"""

from __future__ import annotations

import re

from lingjun.generator.importer._blocks import ROW, TEXT, Block

__all__ = ["CONTENT_LABELS", "read_contents", "is_content_label"]

#: normalised row label -> key
CONTENT_LABELS = {
    "tag": "tag", "image tag": "tag", "镜像tag": "tag", "镜像标签": "tag", "标签": "tag",
    "应用场景": "use_case", "use case": "use_case", "use cases": "use_case", "skenario": "use_case",
    "skenario aplikasi": "use_case", "kasus penggunaan": "use_case",
    "框架": "framework", "framework": "framework", "kerangka kerja": "framework",
    "requirements": "requirements", "requirement": "requirements", "系统要求": "requirements", "要求": "requirements",
    "persyaratan": "requirements", "persyaratan driver": "requirements",
    "镜像名": "image_name", "镜像名称": "image_name", "image name": "image_name", "image": "image_name",
    "supported architectures": "architectures", "支持架构": "architectures", "架构": "architectures",
    "architectures": "architectures", "architecture": "architectures",
}


def _label(text: str) -> str | None:
    return CONTENT_LABELS.get(re.sub(r"\s+", " ", text.strip().rstrip(":：").strip().lower()))


def is_content_label(text: str) -> bool:
    """True when ``text`` is one of the contents table's row labels (``Tag``, ``应用场景``, ``Requirements``…)."""
    return _label(text) is not None


def read_contents(blocks: list[Block]) -> dict[str, list[tuple[str, int]]]:
    """Key -> ``(value, line)`` per image column, in column order (one entry when the table has one column).

    Empty cells are kept as ``""`` so column positions stay aligned.
    """
    found: dict[str, list[tuple[str, int]]] = {}
    for at, block in enumerate(blocks):
        if block.kind == ROW and block.cells:
            key = _label(block.cells[0])
            if key and key not in found:
                found[key] = [(c, block.line) for c in block.cells[1:]]
        elif block.kind == TEXT:
            key = _label(block.text)
            following = blocks[at + 1] if at + 1 < len(blocks) else None
            if key and key not in found and following is not None and following.kind == TEXT \
                    and _label(following.text) is None:
                found[key] = [(following.text, following.line)]
    return found
