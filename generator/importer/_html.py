"""Blocks from a saved HTML page, with the standard library's :class:`html.parser.HTMLParser`.

Headings ``h1``-``h6``, paragraphs and other block elements, list items
(nesting kept as indentation, two columns a level), table rows (``th``
cells mark a header row; a cell's own list items and ``<br>`` become line
breaks inside the cell) and ``pre`` lines give the same :class:`Block`
structure the Markdown reader gives.  A cell spanning columns or rows
(``colspan``, ``rowspan``) holds its value in each cell it covers.
Scripts, styles and templates are skipped, and so is what a reader does
not see (``hidden``, ``aria-hidden="true"``, ``display:none``,
``visibility:hidden``); the canonical address (``<link rel=canonical>`` or
``og:url``) is kept for :mod:`._recognise`.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Optional

from lingjun.generator.importer._blocks import CODE, HEADING, ITEM, ROW, TEXT, Block

__all__ = ["html_blocks", "looks_like_html"]

_SPACE = re.compile(r"[ \t\f\v\u00a0\u3000]+")
_SKIP = {"script", "style", "noscript", "template", "svg", "head"}
_BLOCK = {"p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "blockquote", "dl", "dt",
          "dd", "ul", "ol", "table", "thead", "tbody", "figure", "figcaption", "hr", "body", "html"}
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
#: elements without an end tag (a hidden one hides nothing else)
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_STYLE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def _is_hidden(values: dict[str, str]) -> bool:
    """An element a reader does not see: ``hidden``, ``aria-hidden="true"``, ``display:none``, ``visibility:hidden``."""
    return ("hidden" in values or values.get("aria-hidden", "").strip().lower() == "true"
            or bool(_STYLE_HIDDEN.search(values.get("style", ""))))


def looks_like_html(text: str) -> bool:
    """True when the text starts (after blanks and a byte order mark) like an HTML document."""
    head = text.lstrip("\ufeff \t\r\n")[:512].lower()
    return head.startswith(("<!doctype html", "<html", "<head", "<meta", "<body")) or "<html" in head[:200]


def _clean(text: str) -> str:
    return "\n".join(line for line in (_SPACE.sub(" ", x).strip() for x in text.split("\n")) if line)


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.url: Optional[str] = None
        self.title: Optional[str] = None
        self._skip = 0
        self._hidden: Optional[str] = None  # the tag of the hidden element being skipped
        self._hidden_depth = 0
        self._title_open = False
        self._buffer: list[str] = []
        self._kind = TEXT
        self._level = 0
        self._line = 1
        self._numbered = False
        self._lists: list[bool] = []  # True: an ordered list
        self._pre = 0
        self._row: Optional[list[str]] = None
        self._row_header = False
        self._row_line = 0
        self._cell: Optional[list[str]] = None
        self._colspan = 1
        self._rowspan = 1
        self._spans: dict[int, list] = {}  # column -> [rows still covered, text]: a rowspan cell of a row above

    # -- text collection ------------------------------------------------
    def _flush(self) -> None:
        if self._cell is not None:
            return
        text = "".join(self._buffer)
        self._buffer = []
        if self._pre:
            for offset, line in enumerate(text.split("\n")):
                if line.strip():
                    self.blocks.append(Block(CODE, line.rstrip(), self._line + offset))
        else:
            text = _clean(text).replace("\n", " ")
            if text:
                self.blocks.append(Block(self._kind, text, self._line, level=self._level, numbered=self._numbered))
        self._kind, self._level, self._numbered = TEXT, 0, False

    def _start(self, kind: str, level: int = 0, numbered: bool = False) -> None:
        self._flush()
        self._kind, self._level, self._numbered = kind, level, numbered
        self._line = self.getpos()[0]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        values = {k: (v or "") for k, v in attrs}
        self._read_head(tag, values)
        if self._skipping_start(tag, values):
            return
        if tag == "br":
            (self._cell if self._cell is not None else self._buffer).append("\n")
        elif self._cell is not None:
            if tag in ("li", "p", "div"):
                self._cell.append("\n")
        else:
            self._open(tag, values)

    def _read_head(self, tag: str, values: dict[str, str]) -> None:
        """Note the page's address (canonical link, ``og:url``) and the opening of its ``<title>``."""
        if tag == "link" and "canonical" in values.get("rel", "").lower().split() and values.get("href"):
            self.url = self.url or values["href"]
        if tag == "meta" and values.get("property") == "og:url" and values.get("content"):
            self.url = self.url or values["content"]
        if tag == "title":
            self._title_open = True

    def _skipping_start(self, tag: str, values: dict[str, str]) -> bool:
        """True when the element opens inside (or opens) a hidden or skipped part, which yields no block."""
        if self._hidden is not None:
            self._hidden_depth += tag == self._hidden
            return True
        if tag not in _VOID and _is_hidden(values):
            self._hidden, self._hidden_depth = tag, 1
            return True
        if tag in _SKIP:
            self._skip += 1
            return True
        return bool(self._skip)

    def _open(self, tag: str, values: dict[str, str]) -> None:
        """Start the block an element outside a table cell opens."""
        if tag in _HEADINGS:
            self._start(HEADING, _HEADINGS[tag])
        elif tag in ("ul", "ol", "li", "pre"):
            self._open_list_or_code(tag)
        elif tag in ("table", "tr") or (tag in ("td", "th") and self._row is not None):
            self._open_table_part(tag, values)
        elif tag in _BLOCK:
            if self._kind == ITEM and not "".join(self._buffer).strip():
                return  # <li><p>text</p></li>: the paragraph is the item's own text
            self._start(TEXT)

    def _open_list_or_code(self, tag: str) -> None:
        """Open a list (``ul``/``ol``), one of its items (``li``) or a code block (``pre``)."""
        if tag in ("ul", "ol"):
            self._flush()
            self._lists.append(tag == "ol")
        elif tag == "li":
            depth = max(len(self._lists) - 1, 0)
            self._start(ITEM, depth * 2, bool(self._lists and self._lists[-1]))
        else:
            self._start(CODE)
            self._pre += 1

    def _open_table_part(self, tag: str, values: dict[str, str]) -> None:
        """Open a table, a row of it, or a cell of the open row (with its spans)."""
        if tag == "table":
            self._flush()
            self._spans = {}
        elif tag == "tr":
            self._flush()
            self._row, self._row_header, self._row_line = [], False, self.getpos()[0]
        else:
            self._cell = []
            self._row_header = self._row_header or tag == "th"
            self._colspan, self._rowspan = _span(values.get("colspan")), _span(values.get("rowspan"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._title_open = False
        if self._skipping_end(tag):
            return
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._close_cell()
        elif self._cell is not None:
            return
        elif tag == "tr" and self._row is not None:
            self._close_row()
        elif tag in ("ul", "ol"):
            self._flush()
            if self._lists:
                self._lists.pop()
        elif tag == "pre":
            self._flush()
            self._pre = max(self._pre - 1, 0)
        elif tag in _HEADINGS or tag == "li" or tag in _BLOCK:
            self._flush()

    def _skipping_end(self, tag: str) -> bool:
        """True when the element closes inside (or closes) a hidden or skipped part."""
        if self._hidden is not None:
            if tag == self._hidden:
                self._hidden_depth -= 1
                if self._hidden_depth <= 0:
                    self._hidden = None
            return True
        if tag in _SKIP:
            self._skip = max(self._skip - 1, 0)
            return True
        return bool(self._skip)

    def _close_cell(self) -> None:
        """End the open cell: its text goes into every column it spans (and the rows below it spans)."""
        self._fill_spans()
        text = _clean("".join(self._cell))
        for _ in range(self._colspan):  # a spanned cell holds its value in every column it covers
            if self._rowspan > 1:
                self._spans[len(self._row)] = [self._rowspan, text]  # this row counts down one
            self._row.append(text)
        self._cell = None

    def _close_row(self) -> None:
        """End the open row: count the rowspans down and keep the row as a block unless all its cells are empty."""
        self._fill_spans()
        for column in list(self._spans):
            self._spans[column][0] -= 1
            if self._spans[column][0] <= 0:
                del self._spans[column]
        cells = tuple(self._row)
        if any(cells):
            self.blocks.append(Block(ROW, " | ".join(c.replace("\n", " ") for c in cells if c), self._row_line,
                                     cells=cells, header=self._row_header))
        self._row = None

    def _fill_spans(self) -> None:
        """Put the values of the rowspan cells above into the columns they cover in this row."""
        while self._row is not None and len(self._row) in self._spans:
            self._row.append(self._spans[len(self._row)][1])

    def handle_data(self, data: str) -> None:
        if self._title_open and self.title is None and data.strip():
            self.title = _clean(data).replace("\n", " ")
        if self._skip or self._hidden is not None:
            return
        if self._cell is not None:
            self._cell.append(data)
            return
        if not self._buffer and not data.strip() and not self._pre:
            return
        if not self._buffer:
            self._line = self.getpos()[0]
        self._buffer.append(data if self._pre else data.replace("\n", " "))


def _span(value: Optional[str]) -> int:
    """A ``colspan``/``rowspan`` value as a count of 1 to 100 (browsers cap such spans too; 1 when unreadable)."""
    try:
        return min(max(int((value or "1").strip()), 1), 100)
    except ValueError:
        return 1


def html_blocks(text: str) -> tuple[list[Block], Optional[str], Optional[str]]:
    """The blocks of a saved HTML page, its canonical address (None when it names none) and its ``<title>``."""
    parser = _PageParser()
    parser.feed(text)
    parser.close()
    parser._flush()
    blocks = parser.blocks
    if parser.title and not any(b.kind == HEADING for b in blocks[:3]):
        blocks.insert(0, Block(HEADING, parser.title, 1, level=1))
    return blocks, parser.url, parser.title
