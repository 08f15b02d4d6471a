"""Image references: the public ones (tags and the products each is for) and the VPC pattern.

References are taken from the assets section (and the contents table), never
from the quick start, whose ``:[tag]`` examples are not tags.  A sentence
naming a reference and products (``…:25.03-serverless镜像适用于ACS产品形态、灵骏多租产品形态，不适用于
灵骏单租产品形态``) gives that tag's ``products`` and ``not_for``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from lingjun.generator.importer._blocks import Block

__all__ = ["Reference", "Assets", "read_assets", "REFERENCE"]

#: a registry reference: host/path:tag (a VPC pattern keeps its ``{region-id}`` and ``{image:tag}``); hosts and
#: paths are bounded, so a long line costs linear time
REFERENCE = re.compile(r"(?<![A-Za-z0-9_.{-])([a-z0-9][a-z0-9.{}-]{0,200}\.aliyuncs\.com/[a-z0-9._/-]{1,200}"
                       r"(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|/\{image:tag\}))")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.{}-")


def find_references(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, reference)`` of every registry reference in ``text``, in order.

    Each match is tried only from the host start found left of a ``.aliyuncs.com/`` (at most 200 characters),
    so the cost stays linear in the length of the text.
    """
    found: list[tuple[int, int, str]] = []
    at = 0
    while True:
        hit = text.find(".aliyuncs.com/", at)
        if hit < 0:
            return found
        start = hit
        while start > 0 and hit - start < 200 and text[start - 1] in _HOST_CHARS:
            start -= 1
        match = REFERENCE.match(text, start)
        while match is None and start < hit:
            start += 1
            match = REFERENCE.match(text, start)
        if match is not None:
            found.append((match.start(1), match.end(1), match.group(1)))
            at = match.end(1)
        else:
            at = hit + 1
_PRODUCTS = [("acs", re.compile(r"(?<![A-Za-z])ACS(?![A-Za-z])")),
             ("lingjun-multi-tenant", re.compile(r"灵骏多租|multi-tenant|multi tenant|multitenant|multi-penyewa", re.I)),
             ("lingjun-single-tenant", re.compile(r"灵骏单租|single-tenant|single tenant|penyewa tunggal|satu penyewa"
                                                   r"|single-penyewa", re.I))]
_NOT = re.compile(r"不适用|请勿|not (?:suitable|applicable|for|intended)|do not use|tidak (?:cocok|berlaku|didukung)", re.I)


@dataclass
class Reference:
    """A public image reference and what the page says about its use."""

    reference: str
    tag: str
    line: int
    products: list[str] = field(default_factory=list)
    not_for: list[str] = field(default_factory=list)


@dataclass
class Assets:
    """The public references (page order, each once) and the VPC pattern (None when the page shows none)."""

    public: list[Reference] = field(default_factory=list)
    vpc: Optional[str] = None
    vpc_line: int = 0


def _products(text: str) -> list[str]:
    return [name for name, pattern in _PRODUCTS if pattern.search(text)]


def read_assets(blocks: list[Block]) -> Assets:
    """References in ``blocks`` (the assets and contents sections)."""
    assets = Assets()
    seen: dict[str, Reference] = {}
    for block in blocks:
        text = block.text if not block.cells else " ".join(block.cells)
        references = find_references(text)
        for number, (_start, end, found) in enumerate(references):
            value = found.rstrip(".")
            if "{region-id}" in value or "-vpc" in value.split("/")[0]:
                if assets.vpc is None:
                    assets.vpc, assets.vpc_line = value, block.line
                continue
            if "{" in value or ":" not in value.rsplit("/", 1)[-1]:
                continue
            ref = seen.get(value)
            if ref is None:
                ref = seen[value] = Reference(value, value.rsplit(":", 1)[1], block.line)
                assets.public.append(ref)
            # the products sentence: what follows this reference up to the next one
            clause = text[end: references[number + 1][0]] if number + 1 < len(references) else text[end:]
            if _products(clause):
                cut = _NOT.search(clause)
                ref.products = _products(clause[: cut.start()] if cut else clause) or ref.products
                ref.not_for = _products(clause[cut.start():]) if cut else ref.not_for
    return assets
