"""The driver requirement: vendor, the minimum as stated, and NVIDIA's data-centre branch lists.

From the ``Requirements`` cell (``NVIDIA Driver release >= 570``) or the
driver section (``Driver version >= 1.1.0``; ``需要NVIDIA驱动程序版本570或更高版本``):

* ``stated_as``: the requirement sentence as the page words it (shortened to 300 characters);
* ``minimum``: the version after ``>=`` (or before "or later"/"或更高");
* ``forward_compatibility``: ``470.57 (or later R470)``, ``470.57 (or a later R470 version)``, ``470.57 (R470 or
  later)``, ``470.57+ (cabang R470)`` pairs, the data-centre branches usable through
  forward compatibility (``cuda-compat``);
* ``must_upgrade_branches``: the ``R418, R440, …`` of the sentence telling users to upgrade from them.

The vendor is NVIDIA when the text says NVIDIA or the family's accelerator
is an NVIDIA GPU, else the PPU driver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from lingjun.generator.importer._blocks import Block

__all__ = ["DriverText", "read_driver"]

_MINIMUM = [
    re.compile(r"(?:driver|驱动)[^。;；.]{0,40}?(?:>=|≥|＞=)\s*v?(\d+(?:\.\d+){0,3})", re.I),
    re.compile(r"(?:>=|≥)\s*v?(\d+(?:\.\d+){0,3})"),
    re.compile(r"(?:version|版本)\s*(\d{3}(?:\.\d+){0,3})\s*(?:or (?:later|higher|newer)|或更高|及以上|以上)", re.I),
]
_FORWARD = re.compile(r"(\d{3})\.(\d{1,3}(?:\.\d{1,3})?)\+?\s*[（(]\s*[^)）]{0,20}?R\s?(\d{3})(?!\d)[^)）]{0,20}[)）]")
_UPGRADE = re.compile(r"upgrade|升级|tingkatkan|meningkatkan", re.I)
_BRANCH = re.compile(r"R\s?(\d{3})(?!\d)")
_SENTENCE_END = re.compile(r"(?<=[。；;])|(?<=\.)\s+(?=[A-Z])")


@dataclass
class DriverText:
    """What the page states about the driver (``minimum`` None: no minimum found)."""

    vendor: str
    minimum: Optional[str] = None
    stated_as: Optional[str] = None
    line: int = 0
    forward_compatibility: list[tuple[int, str]] = field(default_factory=list)
    must_upgrade_branches: list[int] = field(default_factory=list)
    text: str = ""


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def read_driver(requirements: list[tuple[str, int]], section: list[Block], nvidia: bool) -> Optional[DriverText]:
    """The driver requirement from the requirements cells and the driver section; None when neither states one.

    Args:
        requirements: the contents table's Requirements values ``(text, line)`` (one per image column).
        section: the driver-requirements section's blocks.
        nvidia: the family's accelerator is an NVIDIA GPU (else a PPU).
    """
    candidates = [(text, line) for text, line in requirements if re.search(r"driver|驱动", text, re.I)]
    candidates += [(b.text, b.line) for b in section if b.kind != "code"]
    if not candidates:
        return None
    whole = " ".join(text for text, _ in candidates)
    vendor = "nvidia" if nvidia or re.search(r"nvidia|英伟达", whole, re.I) else "ppu"
    result = DriverText(vendor=vendor, text=whole)
    _read_minimum(result, candidates)
    if vendor == "nvidia":
        _read_branches(result, whole, candidates)
    return result


def _read_minimum(result: DriverText, candidates: list[tuple[str, int]]) -> None:
    """Set the minimum (and its sentence and line) from the first sentence a minimum pattern matches."""
    for text, line in candidates:
        for sentence in _sentences(text):
            for pattern in _MINIMUM:
                found = pattern.search(sentence)
                if found:
                    result.minimum, result.line = found.group(1), line
                    result.stated_as = sentence.rstrip("。.;；")[:300]
                    break
            if result.minimum:
                return


def _read_branches(result: DriverText, whole: str, candidates: list[tuple[str, int]]) -> None:
    """Set the NVIDIA forward-compatibility branches and the branches the page says to upgrade."""
    for major, rest, branch in _FORWARD.findall(whole):
        if major == branch and int(major) not in [b for b, _ in result.forward_compatibility]:
            result.forward_compatibility.append((int(major), f"{major}.{rest}"))
    # sentence by sentence within each block: a list item ("470.57+ (cabang R470)") never runs into the
    # paragraph after it
    for sentence in (s for text, _ in candidates for s in _sentences(text)):
        if _UPGRADE.search(sentence) and not _FORWARD.search(sentence):
            branches = [int(b) for b in _BRANCH.findall(sentence)]
            if len(branches) >= 2:
                result.must_upgrade_branches = list(dict.fromkeys(branches))
                break
