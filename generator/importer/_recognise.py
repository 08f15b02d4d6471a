"""Which page this is: its title, family, release and language.

The family and release come from the first block naming an image family
(``training-nv-pytorch 25.07``, ``本文介绍training-nv-pytorch 25.03版本``),
unless ``--family``/``--release`` say otherwise.  Some English pages are
machine-translated through Indonesian and call the family
``pelatihan-nv-pytorch`` ("pelatihan" is Indonesian for training,
"inferensi" for inference): the name is mapped back and the mismatch is
reported as a page inconsistency.  The language is Chinese when the page
holds at least a dozen CJK characters and they number at least a quarter of
its Latin words (component names, versions and often the headings stay in
English on Chinese pages), else English (``--lang`` wins).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from lingjun.generator.importer._blocks import Block

__all__ = ["Identity", "recognise", "INDONESIAN_WORDS"]

#: Indonesian words machine translation put into English family names, and the English word they stand for
INDONESIAN_WORDS = {"pelatihan": "training", "inferensi": "inference"}

_FAMILY = re.compile(r"(?<![a-z0-9-])((?:training|inference|pelatihan|inferensi)-(?:nv|xpu)-pytorch(?:-opt)?)(?![a-z0-9])",
                     re.I)
_RELEASE_AFTER = re.compile(
    r"^\s*(?:[:：]\s*)?(?:version\s+|版本\s*)?"
    r"(\d{4}-\d{2}-\d{2}|\d{2}\.\d{2}(?!\.\d)|[a-z]+\d[a-z0-9.]*-\d{6})", re.I)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z]{2,}")
#: a token holding one of these is an address, a path, a tag or code, not a word of prose
_NOT_WORD = re.compile(r"\S*[./:=_]\S*")


@dataclass
class Identity:
    """What the page says it is.

    Attributes:
        title: the page's title line (its first heading, else its first block), None for an empty page.
        family: the family id (Indonesian words mapped back), None when the page names none.
        release: the release identifier, None when the page names none next to the family.
        language: ``en``, ``zh`` (or ``id`` when given).
        named_as: the family name as the page wrote it, when it differs from ``family`` (``pelatihan-…``).
        line: where the family was found.
    """

    title: Optional[str]
    family: Optional[str]
    release: Optional[str]
    language: str
    named_as: Optional[str] = None
    line: int = 0


#: the fewest CJK characters a Chinese page holds (an English page may name a product in Chinese)
_CJK_AT_LEAST = 12


def _language(blocks: list[Block]) -> str:
    """``zh`` when the text is Chinese: CJK characters against Latin words (URLs, tags and code left out)."""
    # one pass over the whole text (a regular expression per block would cost a call per line)
    text = _NOT_WORD.sub(" ", "\n".join(b.text for b in blocks if b.kind != "code"))
    cjk = sum(1 for _ in _CJK.finditer(text))
    latin = sum(1 for _ in _WORD.finditer(text))
    # a Chinese page keeps component names, versions and often its headings in English, so Latin words may outnumber
    # the CJK characters; an English page (or one machine-translated from Indonesian) holds next to none
    return "zh" if cjk >= _CJK_AT_LEAST and cjk * 4 >= latin else "en"


def _title(blocks: list[Block], family_line: int) -> Optional[str]:
    """The first heading above the family's first mention, else that line itself when it reads as a title."""
    heading = next((b for b in blocks if b.kind == "heading"), None)
    if heading is not None and (not family_line or heading.line <= family_line):
        return heading.text
    at = next((b for b in blocks if b.line == family_line), None)
    if at is None or len(at.text) > 100 or at.text.endswith(("。", ".")):
        return heading.text if heading is not None and not family_line else None
    first, sep, second = at.text.partition(", ")
    return first if sep and first == second else at.text


def recognise(blocks: list[Block], text: str) -> Identity:
    """The page's identity as far as the page states it (arguments are applied by the caller)."""
    family = release = named_as = None
    line = 0
    for block in blocks[:60]:
        for match in _FAMILY.finditer(block.text):
            written = match.group(1)
            found = written.lower()
            head = found.split("-", 1)[0]
            if head in INDONESIAN_WORDS:
                found = INDONESIAN_WORDS[head] + found[len(head):]
            after = _RELEASE_AFTER.match(block.text[match.end():])
            if family is None:
                family, line = found, block.line
                named_as = written if written != found else None
            if found == family and after:
                release = after.group(1).lower()
                named_as = named_as or (written if written != found else None)
                break
        if release:
            break
    title = _title(blocks, line)
    return Identity(title=title, family=family, release=release, language=_language(blocks), named_as=named_as, line=line)
