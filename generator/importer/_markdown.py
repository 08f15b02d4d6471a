"""Blocks from a "copy as Markdown" text, or from the plainer text copies of the official pages.

Recognised: ``#`` headings, ``-``/``*``/``+``/``•`` and ``1.`` list items
(their indentation kept), ``|`` table rows (the ``|---|`` line marks the
row above it as the header), fenced code blocks, HTML comments (dropped, but
an address written in one is kept for :mod:`._recognise`), and paragraphs
(every other non-empty line).
"""

from __future__ import annotations

import re

from lingjun.generator.importer._blocks import CODE, HEADING, ITEM, ROW, TEXT, Block

__all__ = ["markdown_blocks", "comment_text"]

#: characters of a line read (no line of a release page comes near; the rest is ignored)
MAX_LINE = 20000

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^([ \t]*)(?:([-*+•·●◦▪])|(\d{1,2})[.)、])\s+(.*)$")
_SEPARATOR_CHARS = frozenset("|-: \t")
#: first characters of a list item's line (checked before the expression: most lines are not items)
_ITEM_FIRST = frozenset("-*+•·●◦▪")
_GLUED_FIRST = ("docker", "ljperf", "export", "pip", "python", "bash", "kubectl")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_SPACE = re.compile(r"\s+")
#: a command line with the next numbered heading glued on (``…:[tag]2. 调用API…``)
_GLUED = re.compile(r"^((?:docker|ljperf|export|pip|python3?|bash|kubectl)\s.*?(?:\]|\s))(\d\.\s*[\u4e00-\u9fffA-Z].*)$")


def _clean(text: str) -> str:
    if " " not in text and text.isprintable():  # one word: nothing to collapse (most short lines)
        return text.strip()
    return _SPACE.sub(" ", text).strip()


def _is_separator(stripped: str) -> bool:
    """A Markdown table's ``|---|:---:|`` line (checked by characters: no regular expression to backtrack)."""
    return "--" in stripped and "|" in stripped and _SEPARATOR_CHARS.issuperset(stripped)


def comment_text(text: str) -> str:
    """The text of the HTML comments in ``text`` (where a page copy notes its address), joined by newlines."""
    return "\n".join(m.group()[4:-3] for m in _COMMENT.finditer(text))


_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?(?:ul|ol|li|p|span|strong|b|em|i|code|div)\b[^>]*>", re.I)


def _cell(text: str) -> str:
    """A cell's text: ``<br>`` and list items as line breaks, other inline tags dropped, spaces collapsed per line."""
    text = _BREAK.sub("\n", text)
    text = re.sub(r"<li\b[^>]*>", "\n", text, flags=re.I)
    text = _TAG.sub("", text)
    return "\n".join(line for line in (_clean(x) for x in text.split("\n")) if line)


def _cells(line: str) -> tuple[str, ...]:
    body = line.strip()
    parts = body.split("|")  # every cell: a table too wide is refused where it is read, never cut here
    if body.startswith("|"):
        parts = parts[1:]
    if body.endswith("|") and parts:
        parts = parts[:-1]
    return tuple(_cell(p) for p in parts)


def _line_blocks(raw: str, stripped: str, number: int) -> list[Block]:
    """The block(s) of one line outside a code fence: heading, table row, list item or text (two for a glued line)."""
    first = stripped[0]
    heading = _HEADING.match(stripped) if first == "#" else None
    if heading:
        return [Block(HEADING, _clean(heading.group(2)), number, level=len(heading.group(1)))]
    if "|" in stripped and not stripped.startswith(("$", "docker ", "#")):
        cells = _cells(raw)
        return [Block(ROW, " | ".join(c.replace("\n", " ") for c in cells if c), number, cells=cells)]
    item = _ITEM.match(raw) if first in _ITEM_FIRST or first.isdigit() else None
    if item:
        indent = len(item.group(1).expandtabs(4))
        return [Block(ITEM, _clean(item.group(4)), number, level=indent, numbered=item.group(3) is not None)]
    blocks: list[Block] = []
    glued = _GLUED.match(stripped) if stripped.startswith(_GLUED_FIRST) else None
    if glued:  # a copy that lost a line break after a command: "… deepspeed/llama3-8b 4. 使用建议"
        blocks.append(Block(TEXT, _clean(glued.group(1)), number, raw=glued.group(1).strip()))
        stripped = glued.group(2)
        if _ITEM.match(stripped):
            item = _ITEM.match(stripped)
            blocks.append(Block(ITEM, _clean(item.group(4)), number, numbered=item.group(3) is not None))
            return blocks
    blocks.append(Block(TEXT, _clean(stripped), number, raw=stripped))
    return blocks


def markdown_blocks(text: str) -> list[Block]:
    """The blocks of a Markdown or plain-text page copy, in page order.

    Args:
        text: the whole page (``\\r\\n`` already normalised or not).

    Returns:
        The blocks; a comment's lines count toward the line numbers but yield no block.
    """
    # comments blanked line for line, so the line numbers stay those of the file
    text = _COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text.replace("\r\n", "\n").replace("\r", "\n"))
    blocks: list[Block] = []
    fence: str | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        raw = raw[:MAX_LINE]
        stripped = raw.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            elif stripped:
                blocks.append(Block(CODE, raw.rstrip(), number))
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            continue
        if not stripped:
            continue
        if _is_separator(stripped):
            if blocks and blocks[-1].kind == ROW:
                last = blocks[-1]
                blocks[-1] = Block(ROW, last.text, last.line, cells=last.cells, header=True)
            continue
        blocks += _line_blocks(raw, stripped, number)
    return blocks
