"""Reading the page file: size limit before parsing, UTF-8 (or UTF-16 with its byte order mark), then blocks.

Refused with :class:`ImportRefused` (one line each): a missing file, a
folder or anything that is not a regular file (a FIFO is never opened), a
file over :data:`MAX_PAGE_BYTES`, a text copy of more than :data:`MAX_PAGE_LINES` lines, an empty or blank file, undecodable bytes,
and binary content (NUL bytes).  HTML (recognised by its start) goes to
:mod:`._html`, anything else to :mod:`._markdown`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
import re
from typing import Optional

from lingjun.generator.importer._blocks import Block
from lingjun.generator.importer._errors import ImportRefused
from lingjun.generator.importer._html import html_blocks, looks_like_html
from lingjun.generator.importer._markdown import comment_text, markdown_blocks

__all__ = ["MAX_PAGE_BYTES", "MAX_PAGE_LINES", "Page", "read_page"]

#: the largest page accepted (2 MiB); an official release-note page copy is 5-60 KB, saved HTML up to ~1 MB
MAX_PAGE_BYTES = 2 * 1024 * 1024
#: the most lines of a text copy (the seeds have 90-250); more is refused before the lines are read one by one
MAX_PAGE_LINES = 20000


@dataclass(frozen=True)
class Page:
    """A page read into blocks.

    Attributes:
        path: the file as named.
        blocks: the page's blocks in order.
        url: the address the copy names (an HTML canonical link, or an ``http(s)`` address in a Markdown
            comment), None when it names none.
        html: True when it was read as HTML.
        text: the decoded text (what language detection counts).
    """

    path: Path
    blocks: list[Block]
    url: Optional[str]
    html: bool
    text: str


def _decode(raw: bytes) -> str:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise ImportRefused("not readable text: its UTF-16 byte order mark is followed by invalid bytes") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportRefused(f"not UTF-8 text (invalid byte at offset {exc.start}); save the page as UTF-8") from None


def _url_in(comment: str) -> Optional[str]:
    found = re.search(r"https?://[^\s<>\"')]+", comment)
    return found.group().rstrip(".,;") if found else None


def read_page(path: Path, limit: int = MAX_PAGE_BYTES) -> Page:
    """Read and parse ``path``.

    Raises:
        ImportRefused: the file is missing, not a regular file, larger than ``limit`` bytes (checked before
            reading), empty, binary or not decodable.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ImportRefused("no such file") from None
    except OSError as exc:
        raise ImportRefused(f"cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise ImportRefused("is a folder; give the page file")
    if not stat.S_ISREG(info.st_mode):
        raise ImportRefused("is not a regular file; give the page file")
    if info.st_size > limit:
        raise ImportRefused(f"is {info.st_size} bytes, over the {limit}-byte limit for a release-note page")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced since the stat
                raise ImportRefused("is not a regular file; give the page file")
            chunks, size = [], 0
            while size <= limit:
                chunk = os.read(fd, limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            raw = b"".join(chunks)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ImportRefused(f"cannot be read: {exc.strerror or exc}") from None
    if len(raw) > limit:  # grew after the stat
        raise ImportRefused(f"is over the {limit}-byte limit for a release-note page")
    if not raw.strip():
        raise ImportRefused("is empty")
    if b"\x00" in raw and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ImportRefused("is binary (it holds NUL bytes), not a page copy")
    text = _decode(raw)
    if not text.strip():
        raise ImportRefused("is empty")
    if looks_like_html(text):
        blocks, url, _title = html_blocks(text)
        return Page(Path(path), blocks, url, True, text)
    lines = max(text.count("\n"), text.count("\r")) + 1
    if lines > MAX_PAGE_LINES:
        raise ImportRefused(f"has {lines} lines, more than any release-note page copy ({MAX_PAGE_LINES})")
    return Page(Path(path), markdown_blocks(text), _url_in(comment_text(text)), False, text)
