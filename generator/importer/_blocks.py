"""The page as a list of blocks: headings, paragraphs, list items, table rows and code lines.

Both readers produce this one structure: :mod:`._markdown` for a "copy as
Markdown" text (or the plainer copies the seeds are), :mod:`._html` for a
saved HTML page.  Everything after reading works on blocks only.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Block", "HEADING", "TEXT", "ITEM", "ROW", "CODE"]

HEADING = "heading"
TEXT = "text"
ITEM = "item"
ROW = "row"
CODE = "code"


class Block(NamedTuple):
    """One block of the page.

    Attributes:
        kind: :data:`HEADING`, :data:`TEXT`, :data:`ITEM` (a list item), :data:`ROW` (a table row) or
            :data:`CODE` (one line of a code block).
        text: the block's text, whitespace collapsed (a row: its cells joined by `` | ``; code: as written).
        line: 1-based line of the input it starts on (for messages).
        level: a heading's level (1 = ``#``); an item's indentation in columns (nesting is relative).
        cells: a table row's cells, stripped (empty cells kept, the outer pipes' empty ends dropped).
        numbered: an item written ``1.`` rather than with a bullet.
        header: a row that is a table's header (HTML ``<th>``, or the row above a Markdown ``|---|`` line).
        raw: the line as written, only its ends stripped (commands keep their spacing); "" where not kept.

    A named tuple (immutable, compared by value): a page of many lines makes as many blocks, and a tuple is
    made in a third of a frozen dataclass's time.
    """

    kind: str
    text: str
    line: int
    level: int = 0
    cells: tuple[str, ...] = ()
    numbered: bool = False
    header: bool = False
    raw: str = ""
