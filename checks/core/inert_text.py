"""Text from input made inert before it reaches a terminal or a JSON consumer.

Values from input (file names, ``--release``, GPU names, environment values,
YAML keys) may hold characters that rewrite a terminal or forge a line of a
report: C0 controls (ESC starts an ANSI sequence, CR and LF start a new
line), DEL, C1 controls (U+0080-U+009F; U+009B is a one-byte CSI on some
terminals), the Unicode line and paragraph separators (U+2028, U+2029) and
the bidirectional marks, embeddings, overrides and isolates (U+061C,
U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which reorder what is shown,
and the invisible characters (zero-width space, joiners, word joiner, the byte
order mark U+FEFF, soft hyphen, Hangul fillers): a name made only of them
would be shown as nothing, the other format characters of Unicode's category Cf (the tag characters U+E0001 and
U+E0020-U+E007F, interlinear annotation U+FFF9-U+FFFB, ...), and lone surrogates (U+D800-U+DFFF: bytes that were not
UTF-8), which no output can hold as they are.

:func:`inert` writes each of them as a visible escape (``\\n``, ``\\r``,
``\\t``, ``\\xNN`` below U+0100, ``\\uNNNN`` above, ``\\UNNNNNNNN`` above U+FFFF; JSON: its surrogate pair), so one line stays one
line, and shortens a long value to ``limit`` characters followed by
``… (N more characters)``.  :func:`dumps` is :func:`json.dumps` with every
string shortened the same way and every one of those characters written as
a ``\\uNNNN`` escape (``json.dumps`` escapes only U+0000-U+001F).

Both command lines (``lingjun-check`` and ``lingjun-kb``) and both report
formats use these two functions; a backslash already in the input is left as
it is (the output is inert, not reversible).

Examples:
    >>> inert("eth0\\x1b[31m\\nERROR")
    'eth0\\\\x1b[31m\\\\nERROR'
    >>> inert("a\\u202eb")
    'a\\\\u202eb'
    >>> inert("x" * 10, limit=4)
    'xxxx… (6 more characters)'
    >>> dumps({"name": "A\\u009b2J"})
    '{"name": "A\\\\u009b2J"}'
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

__all__ = ["UNSAFE", "ECHO_LIMIT", "NAME_LIMIT", "inert", "capped", "quoted", "error_line", "shorten_words", "remember_inputs", "dumps",
           "escape_json_text"]

#: the code points never written as they are (see the module docstring)
UNSAFE = frozenset(
    [*range(0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    # invisible: soft hyphen, combining grapheme joiner, Hangul fillers, Mongolian vowel separator, zero-width space,
    # non-joiner and joiner, word joiner, invisible operators, zero-width no-break space (the byte order mark)
    + [0x00AD, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x180E, 0x200B, 0x200C, 0x200D, *range(0x2060, 0x2065), 0xFEFF]
    # lone surrogates (undecodable input bytes read with surrogateescape, a JSON "\udc80"): no UTF-8 output can hold
    # them, and writing them as "?" would make two different names one
    + [*range(0xD800, 0xE000)]
    # the other format characters (Unicode category Cf), invisible too: Arabic number signs, the deprecated format
    # controls, interlinear annotation, Egyptian, shorthand and musical format controls, and the tag characters
    # (U+E0001, U+E0020-U+E007F) that can hide text inside a name
    + [*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, *range(0x206A, 0x2070), *range(0xFFF9, 0xFFFC),
       0x110BD, 0x110CD, *range(0x13430, 0x13440), *range(0x1BCA0, 0x1BCA4), *range(0x1D173, 0x1D17B), 0xE0001,
       *range(0xE0020, 0xE0080)]
)

#: characters of one value (a report line, a JSON string) shown before it is shortened
ECHO_LIMIT = 4096
#: characters of a name quoted inside a sentence (a path, a ``--release`` value in an error message)
NAME_LIMIT = 256

_NAMED = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
_ESCAPES = {c: _NAMED.get(c, f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}")
            for c in UNSAFE}
_ESCAPES_KEEPING_BREAKS = {c: e for c, e in _ESCAPES.items() if c not in (0x0A, 0x0D)}


def _char_class(points: "list[int]") -> str:
    """A regular-expression class of ``points`` (sorted), runs of consecutive code points written as ranges."""
    parts, start, prev = [], None, None
    for c in points + [-2]:
        if prev is not None and c == prev + 1:
            prev = c
            continue
        if start is not None:
            parts.append(f"\\U{start:08x}" if start == prev else f"\\U{start:08x}-\\U{prev:08x}")
        start = prev = c
    return "[" + "".join(parts) + "]"


_UNSAFE_RE = re.compile(_char_class(sorted(UNSAFE)))
#: in serialised JSON, the ones json.dumps leaves raw (it escapes U+0000-U+001F itself)
_JSON_RAW_RE = re.compile(_char_class([c for c in sorted(UNSAFE) if c >= 0x20]))


def capped(text: str, limit: Optional[int] = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, followed by ``… (N more characters)`` when it was longer.

    ``limit`` None means no limit.  Characters are code points, not bytes.
    """
    if limit is None or len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit} more characters)"


# a run already shortened ends with "…": the ellipsis never counts, so a name is not shortened twice
_LONG_WORD = re.compile(r"[^\s…]{%d,}" % (NAME_LIMIT + 1))
_LONG_QUOTED = re.compile(r"'([^'\n…]{%d,})'" % (NAME_LIMIT + 1))
#: the command line's values longer than NAME_LIMIT (:func:`remember_inputs`), longest first
_long_inputs: list[str] = []


def remember_inputs(values: "list[str] | tuple[str, ...]") -> None:
    """Tell :func:`shorten_words` the values of this run's command line: each one longer than :data:`NAME_LIMIT`
    is shortened wherever an error line repeats it, blanks and all (``new 'a b a b …'``).  Called by each
    command's ``main`` with its arguments; replaces what an earlier call remembered."""
    _long_inputs[:] = sorted({v for v in values if isinstance(v, str) and len(v) > NAME_LIMIT}, key=len, reverse=True)


def shorten_words(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` with every long name :func:`capped` to ``limit``: a command-line value :func:`remember_inputs`
    was given, a quoted span (``'...'``) and a run of non-blank characters longer than ``limit``.

    The safety net of every error line (:func:`error_line`): a name quoted in a message (a path, a family, a
    ``--release`` value, an exception's text echoing its input) is never longer than :data:`NAME_LIMIT`, so
    the reason after it is always seen.
    """
    if len(text) <= limit:
        return text
    for value in _long_inputs:
        if value in text:
            text = text.replace(value, capped(value, limit))
    if limit == NAME_LIMIT:
        word, quoted_span = _LONG_WORD, _LONG_QUOTED
    else:
        word, quoted_span = re.compile(r"[^\s…]{%d,}" % (limit + 1)), re.compile(r"'([^'\n…]{%d,})'" % (limit + 1))
    text = quoted_span.sub(lambda m: f"'{capped(m.group(1), limit)}'", text)
    return word.sub(lambda m: capped(m.group(), limit), text)


def quoted(name: Any) -> str:
    """``repr`` of ``name`` cut to :data:`NAME_LIMIT` characters (:func:`capped`): a name inside a sentence."""
    return repr(capped(name if isinstance(name, str) else str(name), NAME_LIMIT))


def error_line(text: Any) -> str:
    """One error line: :func:`shorten_words` then :func:`inert` (names at most :data:`NAME_LIMIT` characters,
    controls escaped, the whole at most :data:`ECHO_LIMIT`)."""
    return inert(shorten_words(text if isinstance(text, str) else str(text)))


def inert(text: Any, limit: Optional[int] = ECHO_LIMIT, keep_line_breaks: bool = False) -> str:
    """``str(text)`` shortened (:func:`capped`) and with every :data:`UNSAFE` character written as an escape.

    With ``keep_line_breaks`` LF and CR are left for the caller to encode
    (GitHub annotations write them as ``%0A``/``%0D``).
    """
    text = capped(text if isinstance(text, str) else str(text), limit)
    if not _UNSAFE_RE.search(text):
        return text
    return text.translate(_ESCAPES_KEEPING_BREAKS if keep_line_breaks else _ESCAPES)


def escape_json_text(serialised: str) -> str:
    """Serialised JSON with the :data:`UNSAFE` characters ``json.dumps`` leaves raw written as ``\\uNNNN``.

    Safe on any output of :func:`json.dumps`: these characters can only occur
    inside its strings, where ``\\uNNNN`` means the same character.
    """
    return _JSON_RAW_RE.sub(_json_escape, serialised)


def _json_escape(match: "re.Match[str]") -> str:
    """``\\uNNNN``, or above U+FFFF the UTF-16 surrogate pair JSON writes such a character as."""
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _shortened(value: Any, limit: Optional[int]) -> Any:
    if isinstance(value, str):
        return capped(value, limit)
    if isinstance(value, dict):
        return {(capped(k, limit) if isinstance(k, str) else k): _shortened(v, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_shortened(v, limit) for v in value]
    return value


def dumps(value: Any, limit: Optional[int] = ECHO_LIMIT, **kwargs: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **kwargs)`` with every string (and key) :func:`capped` to ``limit``
    and every :data:`UNSAFE` character escaped; the result parses back to the same values (shortened).

    Raises:
        TypeError, ValueError: as :func:`json.dumps` does for a value it cannot serialise.
    """
    kwargs.setdefault("ensure_ascii", False)
    return escape_json_text(json.dumps(_shortened(value, limit), **kwargs))
