"""Text for a terminal: display width (CJK characters take two columns), padding and wrapping by it.

A terminal shows a wide or full-width character (``unicodedata.east_asian_width`` ``W`` or ``F``: Chinese
characters, full-width punctuation such as ``，`` and ``：``) in two columns and a combining mark in none, so
``str.ljust`` misaligns columns after Chinese text and ``textwrap`` (which counts characters) overfills lines.
The functions here count display columns.  Wrapping breaks at blanks, and between two characters where either
is wide (Chinese has no blanks between words), never before closing punctuation (``，。、；：）》”``) or after
opening punctuation (``（《“``); a word longer than the line (a long URL) is cut at the line's end, so no line
exceeds the width.

The width is that of the terminal (:func:`terminal_width`): ``COLUMNS`` when set, else the terminal's, else 80
(output to a file or a pipe).  Standard library only: this module ships in ``lingjun-check.pyz``; the site
generator's ``lingjun-kb which`` uses it too.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from typing import Iterator

__all__ = ["char_width", "display_width", "ljust", "wrap", "hanging_wrap", "wrap_block", "terminal_width", "MIN_WIDTH"]

#: the narrowest width wrapped to (a smaller ``COLUMNS`` is raised to it)
MIN_WIDTH = 30
#: an ANSI SGR sequence (colour), which takes no column
_SGR = re.compile(r"\x1b\[[0-9;]*m")
#: characters a line must not start with / end with (closing / opening punctuation, CJK and ASCII)
_NO_LINE_START = set("，。、；：！？）》」』】〕”’,.;:!?)]}%")
_NO_LINE_END = set("（《「『【〔“‘([{")


def char_width(char: str) -> int:
    """Columns one character takes: 2 for wide and full-width characters, 0 for combining marks and zero-width
    format characters (``U+200B``), 1 otherwise."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (colour sequences take none).

    >>> display_width("警告"), display_width("WARN"), display_width("\\x1b[33mWARN\\x1b[0m")
    (4, 4, 4)
    """
    shown = _SGR.sub("", text) if "\x1b" in text else text
    if shown.isascii():  # every ASCII character takes one column (a test holds char_width to it)
        return len(shown)
    return sum(char_width(c) for c in shown)


def ljust(text: str, width: int) -> str:
    """``text`` padded with blanks to ``width`` display columns (unchanged when already as wide)."""
    return text + " " * max(0, width - display_width(text))


def _units(text: str) -> Iterator[tuple[str, bool]]:
    """``(unit, is_blank)``: runs of blanks, runs of narrow non-blank characters, and each wide character alone."""
    run, kind = "", None
    for char in text:
        this = "blank" if char == " " else ("wide" if char_width(char) == 2 else "narrow")
        if this == "wide" or this != kind:
            if run:
                yield run, kind == "blank"
            run, kind = char, this
        else:
            run += char
    if run:
        yield run, kind == "blank"


def _may_break(before: str, after: str) -> bool:
    """Whether a line may end after the unit ``before`` and the next start with ``after`` (no blank between)."""
    if after[0] in _NO_LINE_START or before[-1] in _NO_LINE_END:
        return False
    return char_width(before[-1]) == 2 or char_width(after[0]) == 2


#: a token a reader copies whole: a URL, a path, an image reference (``registry/ns/name:tag``)
_UNBREAKABLE = re.compile(r"://|/[^\s/]+/|^[\w.-]+/[\w./-]+:[\w.-]+$")


def _unbreakable(word: str) -> bool:
    """Whether ``word`` is a URL, a path or an image reference, which :func:`wrap` never cuts.

    >>> _unbreakable("https://docs.nvidia.com/x"), _unbreakable("registry.example/ns/img:25.07"), _unbreakable("word")
    (True, True, False)
    """
    return bool(_UNBREAKABLE.search(word.strip("()[]<>\"'.,;:«»（）：，。")))


def _cut(word: str, room: int) -> tuple[str, str]:
    """``word`` split so its head takes at most ``room`` columns (at least one character)."""
    used, i = 0, 0
    while i < len(word) and used + char_width(word[i]) <= room:
        used += char_width(word[i])
        i += 1
    i = max(i, 1)
    return word[:i], word[i:]


def wrap(text: str, width: int, first: int = 0, rest: int = 0) -> list[str]:
    """``text`` (one paragraph) as lines of at most ``width`` display columns, the first line taking ``first``
    columns less (its prefix), the others ``rest`` less; the lines carry no prefix and no trailing blanks.

    >>> wrap("发布说明要求设为 hpn0。", 12)
    ['发布说明要求', '设为 hpn0。']
    """
    lines: list[str] = []
    line, used = "", 0
    room = max(1, width - first)
    # groups: a break is allowed only between groups; a group never breaks unless it alone is too wide
    groups: list[tuple[str, bool]] = []
    for unit, blank in _units(text):
        if blank or not groups or groups[-1][1] or _may_break(groups[-1][0], unit):
            groups.append((unit, blank))
        else:
            groups[-1] = (groups[-1][0] + unit, False)
    for unit, blank in groups:
        size = display_width(unit)
        if blank:
            if line:
                line, used = line + unit, used + size
            continue
        if used + size > room and line.strip():
            lines.append(line.rstrip())
            line, used, room = "", 0, max(1, width - rest)
        if size > room - used and _unbreakable(unit):
            # a URL, path or image reference wider than the line is never cut (a cut one cannot be copied or
            # clicked): it takes a line of its own, which the terminal folds
            line, used = line + unit, used + size
            continue
        # without a colour sequence the columns add up: what is left of a cut word is its width less the head's
        coloured = "\x1b" in unit
        while size > room - used:  # a word wider than the line: cut it at the line's end
            head, unit = _cut(unit, room - used) if room - used > 0 else ("", unit)
            if not head:
                lines.append(line.rstrip())
                line, used, room = "", 0, max(1, width - rest)
                continue
            lines.append((line + head).rstrip())
            line, used, room = "", 0, max(1, width - rest)
            size = display_width(unit) if coloured else size - display_width(head)
        line, used = line + unit, used + size
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def hanging_wrap(prefix: str, text: str, width: int, indent: int) -> list[str]:
    """``prefix + text`` wrapped to ``width`` columns, the continuation lines indented by ``indent`` blanks."""
    parts = wrap(text, width, first=display_width(prefix), rest=indent)
    return [prefix + parts[0], *(" " * indent + part for part in parts[1:])]


#: where a table row's last column starts: after the last run of two or more blanks
_COLUMN_GAP = re.compile(r"\S( {2,})(?=\S)")
#: the fewest columns a continuation keeps for its text
_MIN_TEXT = 24


def _longest_word(text: str) -> int:
    return max((display_width(w) for w in text.split()), default=0)


def wrap_block(text: str, width: int) -> str:
    """Every line of ``text`` wider than ``width`` columns wrapped, words kept whole where they fit on a line.

    A table row (columns separated by two or more blanks) continues under its last column; when that leaves
    fewer than 24 columns, or fewer than its longest word, the last column moves to the lines below, 4 blanks
    past the row's indent.  Another line continues under its first character, moved left as far as its longest
    word needs.
    """
    out: list[str] = []
    for line in text.split("\n"):
        if display_width(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        gaps = [m.end(1) for m in _COLUMN_GAP.finditer(line)]
        if gaps:
            head, last = line[:gaps[-1]], line[gaps[-1]:]
            column = display_width(head)
            need = max(_MIN_TEXT, _longest_word(last))
            if width - column >= need:
                out.extend(hanging_wrap(head, last, width, column))
                continue
            out.extend(wrap_block(head.rstrip(), width).split("\n"))
            under = max(0, min(indent + 4, width - need))
            out.extend(hanging_wrap(" " * under, last, width, under))
            continue
        under = max(0, min(indent, width - max(_MIN_TEXT, _longest_word(line))))
        out.extend(hanging_wrap(" " * under, line[indent:], width, under))
    return "\n".join(out)


def terminal_width() -> int:
    """The width to wrap to: ``COLUMNS`` when it is a positive number, else the terminal's (standard output), else
    80 (a file or a pipe); never less than :data:`MIN_WIDTH` (``shutil.get_terminal_size``)."""
    return max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)
