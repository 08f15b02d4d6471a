"""The page's prose lists: main features, bug fixes, usage notes, known issues and the quick start.

Each list is read from a section's items (nested items joined to their
parent) or, in copies without list marks, from its paragraphs (a paragraph
not ending a sentence is joined to the next).  "None" in any of the page's
languages (``(None at this time)``, ``（暂无）``, ``无``, ``Tidak ada``) means the
page states the list is empty; a marker that a copy could not show
(``(不可见)``, "not visible") means nothing is known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lingjun.generator.importer._blocks import CODE, HEADING, ITEM, ROW, TEXT, Block
from lingjun.generator.importer._captured import UNSEEN

__all__ = ["ProseList", "read_list", "Step", "read_quick_start"]

_NONE = re.compile(r"^[（(]?\s*(?:none(?: at this time)?|暂无|无|n/?a|tidak ada|belum ada)\s*[)）]?[。.]?$", re.I)
_NOISE = re.compile(r"^(?:image\.png|note|说明|注意|previous[:：].*|next[:：].*|上一篇.*|下一篇.*)$", re.I)
#: an image reference or a bare release number: the assets of a copy without an assets heading, not prose
_NOT_PROSE = re.compile(r"^\s*\d{2}\.\d{2}\s*$|\.aliyuncs\.com/")
_FOOTER = re.compile(r"^previous[:：]|^上一篇", re.I)
_CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
_COMMAND = re.compile(r"^(?:docker|ljperf|export|pip3?|python3?|bash|kubectl|git|torchrun|vllm|sglang|curl|wget|cd|sh)\s")
_STEP = re.compile(r"^(?:step\s*(\d+)\s*[:：]\s*|(\d+)[.)、]\s*|第\s*(\d+)\s*步\s*[:：]?\s*)(.+)$", re.I)


@dataclass
class ProseList:
    """A list as the page states it: its entries' text, or ``stated_none`` for an explicit "none".

    ``entries`` is empty and ``stated_none`` False when the section is missing, empty or not visible.
    """

    entries: list[tuple[str, int]] = field(default_factory=list)
    stated_none: bool = False


def _join(a: str, b: str) -> str:
    return a + b if (a and _CJK.match(a[-1])) or (b and _CJK.match(b[0])) else f"{a} {b}"


def _ends_sentence(text: str) -> bool:
    return text.endswith(("。", ".", "!", "！", "；", ";", ")", "）", ":", "："))


def _body(blocks: list[Block]) -> list[Block]:
    """The section's text and item blocks up to the page footer, without noise and non-prose lines."""
    body = []
    for block in blocks:
        if block.kind == TEXT and _FOOTER.match(block.text):
            break
        if block.kind in (TEXT, ITEM) and not _NOISE.match(block.text) and not _NOT_PROSE.search(block.text):
            body.append(block)
    return body


def _item_entries(items: list[Block], leaf_prefix: bool) -> list[tuple[str, int]]:
    """Entries of a section with list marks: nested items joined to their parent (see :func:`read_list`)."""
    stack: list[tuple[int, int]] = []  # (indent, index in entries or -1 for a parent without text of its own)
    entries: list[list] = []  # [text, line, has_children]
    for item in items:
        while stack and stack[-1][0] >= item.level:
            stack.pop()
        parent = entries[stack[-1][1]] if stack else None
        if parent is not None and leaf_prefix:
            parent[2] = True
            entries.append([f"{parent[0].rstrip(':：')}: {item.text}", item.line, False, parent])
        elif parent is not None:
            parent[0] = _join(parent[0], item.text)
            stack.append((item.level, stack[-1][1]))
            continue
        else:
            entries.append([item.text, item.line, False, None])
        stack.append((item.level, len(entries) - 1))
    if leaf_prefix:
        # leaves only; a short top-level item without children among siblings that have some is a group
        # heading the page left empty ("Stability issues"), which states nothing
        grouped = any(e[2] for e in entries)
        return [(e[0], e[1]) for e in entries if not e[2] and not (
            grouped and e[3] is None and not _ends_sentence(e[0]) and len(e[0]) < 40)]
    return [(e[0], e[1]) for e in entries]


def _paragraph_entries(body: list[Block]) -> list[tuple[str, int]]:
    """Entries of a section without list marks: a paragraph not ending a sentence is joined to the next."""
    entries: list[list] = []
    current: list = []
    for block in body:
        if block.kind != TEXT:
            continue
        if current and not _ends_sentence(current[0]):
            current[0] = _join(current[0], block.text)
        else:
            current = [block.text, block.line]
            entries.append(current)
    return [(text, line) for text, line in entries]


def read_list(blocks: list[Block], leaf_prefix: bool = False) -> ProseList:
    """Entries of one prose section.

    Args:
        blocks: the section's blocks.
        leaf_prefix: join nested items as ``parent: child`` entries, one per child (known issues), instead of
            folding the children into their parent (usage notes).
    """
    result = ProseList()
    body = _body(blocks)
    if len(body) == 1 and _NONE.match(body[0].text):
        result.stated_none = True
        return result
    body = [b for b in body if not UNSEEN.search(b.text)]
    items = [b for b in body if b.kind == ITEM]
    if items:
        result.entries = _item_entries(items, leaf_prefix)
    else:
        result.entries = _paragraph_entries(body)
    return result


@dataclass
class Step:
    """One quick-start step: its title as the page words it and the commands under it (as written)."""

    title: str
    line: int
    commands: list[str] = field(default_factory=list)


def read_quick_start(blocks: list[Block]) -> list[Step]:
    """The numbered steps of the quick start with their commands (code lines and command-like lines)."""
    steps: list[Step] = []
    for block in blocks:
        if block.kind == ROW:
            continue
        text = block.raw or block.text
        if block.kind == CODE or (block.kind == TEXT and _COMMAND.match(text)):
            if text.lstrip().startswith("#"):
                continue
            if steps:
                steps[-1].commands.append(text.strip())
            continue
        if block.kind == HEADING and not block.text[:1].isdigit() and not block.text.lower().startswith("step"):
            continue
        if block.kind == ITEM and block.numbered:  # "1. Select image": the reader took the number off
            steps.append(Step(block.text, block.line))
            continue
        step = _STEP.match(block.text)
        if step and block.kind in (TEXT, HEADING):
            steps.append(Step(step.group(4).strip(), block.line))
    return [s for s in steps if s.commands]
