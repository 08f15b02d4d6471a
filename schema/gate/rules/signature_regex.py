"""``data.signature-regex``: every error-signature regex runs in bounded time on hostile lines.

The checker searches each pattern's ``regex`` in every log line that holds the literal, and log lines
can be long and repetitive.  The schema already refuses an expression that does not compile; this rule
refuses one that can backtrack without bound, proving each expression safe by its shape before running it:

* a quantifier that repeats an unbounded quantifier (``(a+)+``, ``(?:\\w*\\s)*``), the shape of catastrophic
  backtracking (:func:`nested_quantifier`);
* a part repeated without bound that can match the empty string, or has an alternative that can (``(?:x|)*``,
  :func:`empty_repeat`);
* a repeated part that reads one text in two ways (``(?:\\d\\.|\\d|\\.)*`` reads "1." as one alternative or two,
  ``(?:xy|x|y)*``, ``(?:\\d?\\d)*``): exponential backtracking, found on the expression's position automaton
  (:func:`ambiguous_repeat`);
* two unbounded repeats in a row, with only optional parts between them, that can both repeat one text (``\\d+\\d+``,
  ``\\w*\\s?\\w*``, ``.*.*``; ``.*?x.*``, ``[^ ]+ \\S+`` and ``(?:a\\d)+(?:b\\d)+`` are fine): a long run of that text
  splits between them anywhere, polynomial backtracking (:func:`adjacent_repeats`).

* a backreference, a conditional, a positive lookaround, or a lookaround that repeats without bound or holds another
  (``(?=Q).*:.*:.*!``, ``(Q)\\1...``): a text the line must hold that the timed lines below lack, so a slow part
  behind it would never be reached when timed (:func:`hidden_requirement`); a negative lookaround of bounded length
  (``(?!-9 )``) is allowed.

Such an expression is not run at all.  The others are timed: each is searched in hostile lines of 8192 characters
(one character repeated, for characters common in logs and every character of the pattern; each example line
repeated; the literal followed by repeated characters) and in adversarial lines made of its own parts (the text
before each repeated part, then many copies of each alternative's shortest match and of each pair of them, and not
what must come next: "NCCL WARN " + "0.0.0." ... for ``NCCL WARN (?:\\d\\.|\\d|\\.)* failed``,
:func:`adversarial_lines`); a search that takes more than :data:`BUDGET_S` is refused.  A few of those lines repeat
the text before a repeated part and a run of it from start to end (:func:`_tiled`), so that bounded repeats in a row,
only somewhat slow from one start, are timed from every start a long line offers; and an expression with negative
lookarounds, word boundaries or comments is timed again with them left out (:func:`without_negative_lookarounds`):
an assertion that turns away the gate's own lines (``(?![^b])``, a ``\\b`` after a word) would otherwise hide a
slow part behind it.  One whose text without them does not compile is refused.

Where the platform allows it (the main thread of a Unix process) a search is also interrupted after
:data:`HARD_LIMIT_S`, so that one expression the static tests let through cannot stop the gate.
"""

from __future__ import annotations

import functools
import re
import signal
import threading
import time
from typing import Iterable, Iterator, Optional

try:  # Python 3.11+
    import re._parser as _sre_parse  # type: ignore[import-not-found]
    from re._constants import MAXREPEAT  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre_parse  # type: ignore[no-redef]
    from sre_constants import MAXREPEAT  # type: ignore[no-redef]

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["BUDGET_S", "LINE_LENGTH", "MAX_ADVERSARIAL", "adjacent_repeats", "adversarial_lines", "ambiguous_repeat",
           "empty_repeat", "hidden_requirement", "hostile_lines", "without_negative_lookarounds", "nested_quantifier", "slowest_search", "static_refusal", "timing_refusal",
           "check"]

#: the longest one search may take on a hostile line
BUDGET_S = 0.05
#: a search that runs this long is interrupted (where signals allow it) and reported
HARD_LIMIT_S = 1.0
#: the length of a hostile line
LINE_LENGTH = 8192
#: characters that fill log lines
_COMMON = "a 0.:/-_=,'\"\t"


class _Interrupted(Exception):
    """Raised by the alarm of :func:`slowest_search` in a search that ran past :data:`HARD_LIMIT_S`."""


# --- the parse tree ----------------------------------------------------------------------------------------------------
#
# ``re``'s parser gives a list of ``(op, argument)`` items; the helpers below read it.

def _parse(regex: str):
    """The parse tree of ``regex`` (a list of ``(op, argument)`` items), or None when it does not parse."""
    try:
        return _sre_parse.parse(regex)
    except (re.error, RecursionError, OverflowError):
        return None


def _repeats(op: object) -> bool:
    """True for the ops of ``x*``, ``x*?``, ``x*+`` and their ``{m,n}`` forms (argument ``(low, high, items)``)."""
    return str(op) in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _unbounded(high: int) -> bool:
    """True for a repeat's upper bound read as without bound: none, or over 64 copies."""
    return high == MAXREPEAT or high > 64


def _children(name: str, av) -> list:
    """The item lists directly inside the item ``(name, av)``: a group's body, each branch, a lookaround's body,
    both arms of a conditional, a repeat's body; ``[]`` for an item that holds none (a character, an anchor)."""
    if name == "SUBPATTERN":
        return [av[-1]]
    if name == "BRANCH":
        return list(av[1])
    if name in ("ASSERT", "ASSERT_NOT"):
        return [av[1]]
    if name == "GROUPREF_EXISTS":
        return [part for part in av[1:] if part is not None]
    if name == "ATOMIC_GROUP":
        return [av]
    if _repeats(name):
        return [av[2]]
    return []


def _contains_unbounded_repeat(items: Iterable) -> bool:
    """True when ``items`` hold, at any depth, a repeat without bound (or over 64)."""
    for op, av in items:
        if _repeats(op) and _unbounded(av[1]):
            return True
        if any(_contains_unbounded_repeat(sub) for sub in _children(str(op), av)):
            return True
    return False


def _nested(items: Iterable) -> bool:
    """True when ``items`` hold a repeat of over one copy whose body holds a repeat without bound."""
    for op, av in items:
        if _repeats(op) and av[1] > 1 and _contains_unbounded_repeat(av[2]):
            return True
        if any(_nested(sub) for sub in _children(str(op), av)):
            return True
    return False


def _hidden_requirement(items: Iterable, inside: bool = False) -> Optional[str]:
    """What in ``items`` the position automaton and the adversarial lines cannot see through, as a phrase, or None:
    a backreference or a conditional on a group, a positive lookaround (a text the rest of the line must hold, which
    the adversarial lines lack, so a slow part after it is never reached when timed), or a lookaround holding another
    lookaround or a repeat without bound (its body runs again at every position the search tries)."""
    for op, av in items:
        name = str(op)
        if name == "GROUPREF":
            return "a backreference"
        if name == "GROUPREF_EXISTS":
            return "a conditional on a group"
        if name in ("ASSERT", "ASSERT_NOT"):
            if name == "ASSERT":
                return "a positive lookaround"
            if inside:
                return "a lookaround inside a lookaround"
            if _contains_unbounded_repeat(av[1]):
                return "a lookaround that repeats without bound"
            found = _hidden_requirement(av[1], True)
            if found is not None:
                return found
            continue
        for sub in _children(name, av):
            found = _hidden_requirement(sub, inside)
            if found is not None:
                return found
    return None


def hidden_requirement(regex: str) -> Optional[str]:
    """The first part of ``regex`` that hides what a line must hold from the static proofs and the timed lines (see
    :func:`_hidden_requirement`), or None; a negative lookaround of bounded length (``(?!-9 )``, ``(?<!["'])``) is
    allowed: it can only make a match fail.

    >>> hidden_requirement(r"NCCL WARN (?=Q).*:.*!"), hidden_requirement(r"(Q)\\1.*:.*!"), hidden_requirement(r"(?!-9 )-?\\d+")
    ('a positive lookaround', 'a backreference', None)
    """
    tree = _parse(regex)
    return None if tree is None else _hidden_requirement(tree)


def nested_quantifier(regex: str) -> bool:
    """True when ``regex`` repeats a part that itself holds an unbounded (or over 64) repetition.

    >>> nested_quantifier(r"(a+)+b"), nested_quantifier(r"(?:\\w+\\s?)*x"), nested_quantifier(r"NET/IB ?: ?\\w+")
    (True, True, False)
    """
    tree = _parse(regex)
    return tree is not None and _nested(tree)


def hostile_lines(regex: str, literal: str, examples: Iterable[str]) -> list[str]:
    """The lines a pattern is timed on, each :data:`LINE_LENGTH` characters long: one character repeated (for the
    characters of :data:`_COMMON`, of ``regex`` and of ``literal``), ``literal`` then a run of one character, each
    example repeated, and each run of plain characters of ``regex`` followed by a short filler repeated."""
    chars = dict.fromkeys(_COMMON + "".join(ch for ch in regex + literal if ch.isprintable()))
    lines = [ch * LINE_LENGTH for ch in chars]
    for ch in ("a", " ", "0"):
        lines.append((literal + " " + ch * LINE_LENGTH)[:LINE_LENGTH])
    for example in examples:
        if example:
            lines.append((example * (LINE_LENGTH // len(example) + 1))[:LINE_LENGTH])
    # the expression's own words, then a run its classes take: "WARN " + "aaaa..." for WARN (?:[a-z]|[a-z][a-z])*!
    for run in _literal_runs(regex):
        for filler in ("a", "a1", "a ", "0", " ", "ab"):
            lines.append((run + filler * LINE_LENGTH)[:LINE_LENGTH])
    return lines


def _literal_runs(regex: str) -> list[str]:
    """The runs of plain characters in ``regex`` (``WARN `` and ``!`` in ``WARN (?:[a-z]|[a-z][a-z])*!``), each once."""
    runs: list[str] = []
    current = ""
    for op, arg in _parse(regex) or []:
        if str(op) == "LITERAL":
            current += chr(arg)
            continue
        if current:
            runs.append(current)
        current = ""
    if current:
        runs.append(current)
    return list(dict.fromkeys(run for run in runs if run.strip()))


# --- the automaton the static ambiguity rules read ------------------------------------------------------------------
#
# An expression is turned into its position automaton (Glushkov): one state per character-matching atom, an edge
# p -> q when q can match right after p.  The backtracker tries every path of that automaton that reads the line, so
# it runs long exactly when one text can be read along many paths:
#
# * exponentially many when a state q has two different loops q -> ... -> q that read the same text (``(?:\d\.|\d|\.)*``
#   reads "1." as one part or as two; ``(?:x?x?)*`` reads "xx" in three ways): found on the product of the automaton
#   with itself, where such a loop is a cycle through a pair (q, q) and a pair (p, p') of different states;
# * polynomially many when two unbounded repeats follow each other with only optional parts between and both repeat
#   one text (``\d+\d+``, ``\w*\s?\w*``, ``.*.*``): found on the product of three copies of the automaton, where it is a
#   path from (p, p, q) to (p, q, q) for a state p of the first repeat and q of the second.
#
# Characters are compared on a finite sample (below): the pattern's own characters, the ends of its ranges, ASCII and
# Latin, and a few characters of each Unicode class (\d, \w, \s and neither), so that two classes that share any
# character share one of the sample.  Lookarounds are read as empty and backreferences as one character of any kind;
# the timing lines still cover them.  A bounded repeat is expanded as written when small, and read as unbounded
# (more paths, never fewer) when over :data:`_EXPAND` copies or when expanding it would make the automaton too big.

#: a bounded repeat repeated more than this many times (its count times those of the bounded repeats around it) is read
#: as unbounded by the ambiguity test
_EXPAND = 8
#: the most states the automaton is built with before every bounded repeat is read as unbounded
_MAX_STATES = 2000
#: the most state triples the adjacent-repeats test searches for two repeats before it falls back to comparing characters
_MAX_TRIPLES = 200_000
#: the most adversarial lines timed per pattern
MAX_ADVERSARIAL = 24
_SAMPLE_EXTRA = "\u00a0\u1680\u2003\u2028\u3000\u0663\u0967\uff11\u00b2\u4e2d\u3042\u0430\u03b1\u00e9\u2019\u2014\u00b7\ufffd\U0001f600"
_PREFERRED = "a0 .:-_/,=1xAZ!"
_CATEGORY_RE = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
                "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}


class _TooBig(Exception):
    pass


class _Sample:
    """The characters two classes are compared on, and classes as bit masks over them."""

    def __init__(self, regex: str, tree) -> None:
        extra: dict[str, None] = dict.fromkeys(ch for ch in regex)
        for lo, hi in _ranges(tree):
            for code in (lo, lo + 1, (lo + hi) // 2, hi - 1, hi):
                if lo <= code <= hi:
                    extra[chr(code)] = None
        base = _base_sample()
        self.chars = base + [ch for ch in extra if ch not in _BASE_INDEX]
        self.index = {ch: i for i, ch in enumerate(self.chars)}
        self.all = (1 << len(self.chars)) - 1
        self._categories: dict[str, int] = {}
        self._picked: dict[int, str] = {}
        self.ignore_case = bool(_flags(tree) & re.IGNORECASE)
        self.dotall = bool(_flags(tree) & re.DOTALL)

    def category(self, name: str) -> int:
        if name not in self._categories:
            pattern = _CATEGORY_RE.get(name)
            if pattern is None:  # a locale class: any character
                self._categories[name] = self.all
            else:
                base = len(_BASE_INDEX)
                self._categories[name] = _base_category(name) | _category_mask(name, self.chars[base:], base)
        return self._categories[name]

    def char(self, code: int) -> int:
        return 1 << self.index[chr(code)] if chr(code) in self.index else 0

    def fold(self, mask: int) -> int:
        """``mask`` with the other case of each of its characters (under ``(?i)``)."""
        if not self.ignore_case:
            return mask
        out = mask
        for i, ch in enumerate(self.chars):
            if not mask >> i & 1:
                for other in (ch.lower(), ch.upper(), ch.swapcase()):
                    j = self.index.get(other)
                    if j is not None and mask >> j & 1:
                        out |= 1 << i
                        break
        return out

    def label(self, op: str, av) -> int:
        if op == "LITERAL":
            return self.fold(self.char(av))
        if op == "NOT_LITERAL":
            return self.all & ~self.fold(self.char(av))
        if op == "ANY":
            return self.all if self.dotall else self.all & ~self.char(10)
        # IN
        mask, negate = 0, False
        for item_op, item in av:
            name = str(item_op)
            if name == "NEGATE":
                negate = True
            elif name == "LITERAL":
                mask |= self.char(item)
            elif name == "RANGE":
                lo, hi = item
                mask |= sum(1 << i for i, ch in enumerate(self.chars) if lo <= ord(ch) <= hi)
            elif name == "CATEGORY":
                mask |= self.category(str(item))
            else:  # pragma: no cover - an item this test does not know: any character
                mask = self.all
        mask = self.fold(mask)
        return self.all & ~mask if negate else mask

    def pick(self, mask: int) -> str:
        """One character of ``mask``, a plain one where it has one."""
        if mask not in self._picked:
            self._picked[mask] = self._pick(mask)
        return self._picked[mask]

    def _pick(self, mask: int) -> str:
        for ch in _PREFERRED:
            if mask >> self.index[ch] & 1:
                return ch
        for i, ch in enumerate(self.chars):
            if mask >> i & 1 and ch.isprintable():
                return ch
        return self.chars[(mask & -mask).bit_length() - 1] if mask else ""


_BASE_INDEX: dict[str, int] = {}
_BASE_CATEGORIES: dict[str, int] = {}


def _base_sample() -> list[str]:
    """The characters every sample holds (ASCII, Latin and :data:`_SAMPLE_EXTRA`), built once."""
    if not _BASE_INDEX:
        for ch in [chr(code) for code in range(0x250)] + list(_SAMPLE_EXTRA):
            _BASE_INDEX.setdefault(ch, len(_BASE_INDEX))
    return list(_BASE_INDEX)


def _category_mask(name: str, chars: list[str], offset: int) -> int:
    """The bits, from ``offset`` on, of those of ``chars`` in the class ``name`` (in Unicode or in ASCII mode)."""
    uni, asc = re.compile(_CATEGORY_RE[name]), re.compile(_CATEGORY_RE[name], re.ASCII)
    return sum(1 << (offset + i) for i, ch in enumerate(chars) if uni.match(ch) or asc.match(ch))


def _base_category(name: str) -> int:
    """The bits of :func:`_base_sample` in the class ``name`` (``CATEGORY_DIGIT`` ...), computed once."""
    if name not in _BASE_CATEGORIES:
        _BASE_CATEGORIES[name] = _category_mask(name, _base_sample(), 0)
    return _BASE_CATEGORIES[name]


def _ranges(items) -> Iterator[tuple[int, int]]:
    """The ranges and the characters (as one-character ranges) ``items`` name, escapes included."""
    for op, av in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            yield av, av
        elif name == "IN":
            for item_op, item in av:
                if str(item_op) == "RANGE":
                    yield item
                elif str(item_op) == "LITERAL":
                    yield item, item
        else:
            for sub in _children(name, av):
                yield from _ranges(sub)


def _flags(tree) -> int:
    """The flags ``tree`` sets, globally or on any group (``(?i:...)``), or-ed together."""
    flags = getattr(getattr(tree, "state", None), "flags", 0)

    def scoped(items) -> int:
        out = 0
        for op, av in items:
            name = str(op)
            if name == "SUBPATTERN" and av[1]:
                out |= av[1]
            for sub in _children(name, av):
                out |= scoped(sub)
        return out

    return flags | scoped(tree)


class _Loop:
    """A repeat read as a loop of the automaton: its states (the numbers it was built with, a range), whether it is
    without bound, and its first and last states (the sets the loop's back edges join)."""

    __slots__ = ("states", "unbounded", "first", "last")

    def __init__(self, states: range, unbounded: bool, first: set, last: set) -> None:
        self.states, self.unbounded, self.first, self.last = states, unbounded, first, last


class _Part:
    """What a part of the expression adds to the automaton: the states it can start and end with (each marked True
    when that start or end is reached in two ways through parts that match nothing, as ``(?:x|x)``, which the parser
    writes ``x(?:|)``, ends), whether it can match the empty string, and whether in two ways."""

    __slots__ = ("first", "last", "nullable", "twice")

    def __init__(self, first: dict, last: dict, nullable: bool, twice: bool = False) -> None:
        self.first, self.last, self.nullable, self.twice = first, last, nullable, twice


_EMPTY = _Part({}, {}, True)


class _Automaton:
    """The position automaton of an expression (see above)."""

    def __init__(self, tree, sample: _Sample, expand: int) -> None:
        self.sample = sample
        self.expand = expand
        self.labels: list[int] = []
        #: state -> {next state: True when the step is taken in two ways}
        self.follow: list[dict[int, bool]] = []
        self.loops: list[_Loop] = []
        #: repeats without bound (or over 64) whose repeated part can match the empty string
        self.empty_repeats = 0
        whole = self._sequence(tree, 1)
        self.start = whole.first

    def _state(self, label: int) -> int:
        if len(self.labels) >= _MAX_STATES:
            raise _TooBig
        self.labels.append(label)
        self.follow.append({})
        return len(self.labels) - 1

    def _link(self, last: dict, first: dict) -> None:
        for p, p_twice in last.items():
            follow = self.follow[p]
            for q, q_twice in first.items():
                follow[q] = q in follow or p_twice or q_twice

    def _concat(self, a: _Part, b: _Part) -> _Part:
        self._link(a.last, b.first)
        first = dict(a.first)
        if a.nullable:
            for q, twice in b.first.items():
                first[q] = q in first or twice or a.twice
        last = dict(b.last)
        if b.nullable:
            for p, twice in a.last.items():
                last[p] = p in last or twice or b.twice
        nullable = a.nullable and b.nullable
        return _Part(first, last, nullable, nullable and (a.twice or b.twice))

    @staticmethod
    def _union(parts: list) -> _Part:
        first: dict[int, bool] = {}
        last: dict[int, bool] = {}
        for part in parts:
            for q, twice in part.first.items():
                first[q] = q in first or twice
            for p, twice in part.last.items():
                last[p] = p in last or twice
        empty = [part for part in parts if part.nullable]
        return _Part(first, last, bool(empty), len(empty) > 1 or any(part.twice for part in empty))

    def _sequence(self, items, mult: int) -> _Part:
        whole = _EMPTY
        for op, av in items:
            whole = self._concat(whole, self._node(str(op), av, mult))
        return whole

    def _node(self, name: str, av, mult: int) -> _Part:
        if name in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
            p = self._state(self.sample.label(name, av))
            return _Part({p: False}, {p: False}, False)
        if name == "GROUPREF":
            p = self._state(self.sample.all)
            return _Part({p: False}, {p: False}, True)
        if name in ("SUBPATTERN", "BRANCH", "GROUPREF_EXISTS", "ATOMIC_GROUP"):
            parts = _children(name, av)
            if name == "GROUPREF_EXISTS" and av[2] is None:
                parts = parts + [[]]
            return self._union([self._sequence(part, mult) for part in parts])
        if _repeats(name):
            lo, hi, sub = av
            unbounded = hi == MAXREPEAT or hi > 64
            if unbounded or hi * mult > self.expand:
                begin = len(self.labels)
                body = self._sequence(sub, mult)
                self._link(body.last, body.first)
                self.loops.append(_Loop(range(begin, len(self.labels)), unbounded, set(body.first), set(body.last)))
                if unbounded and (body.nullable or any(_nullable(part) for part in _alternatives(sub))):
                    self.empty_repeats += 1
                # an empty pass through the repeated part ends the repeat (the matcher does not loop on it)
                return _Part(body.first, body.last, lo == 0 or body.nullable, body.nullable and body.twice)
            return self._bounded(sub, lo, hi, mult * max(hi, 1))
        # AT, ASSERT, ASSERT_NOT and anything else that reads no character
        return _EMPTY

    def _bounded(self, sub, lo: int, hi: int, mult: int) -> _Part:
        """``sub{lo,hi}`` as ``sub`` written ``lo`` times, then ``(?:sub(?:sub...)?)?`` for the rest (one path per count)."""
        whole = _EMPTY
        for _ in range(lo):
            whole = self._concat(whole, self._sequence(sub, mult))
        if hi > lo:
            whole = self._concat(whole, self._optional_chain(sub, hi - lo, mult))
        return whole

    def _optional_chain(self, sub, count: int, mult: int) -> _Part:
        """``(?:sub(?:sub...)?)?``, ``sub`` ``count`` times."""
        inner = self._sequence(sub, mult)
        if count > 1:
            inner = self._concat(inner, self._optional_chain(sub, count - 1, mult))
        # skipped, or taken and matching nothing: two ways when the part can match the empty string
        return _Part(inner.first, inner.last, True, inner.nullable)

    # -- the tests --------------------------------------------------------------------------------------------------

    def _pairs(self, p: int, q: int) -> Iterator[tuple[tuple[int, int], int, bool]]:
        """The pairs that (p, q) reads into, each with the characters both states of the step take and, for a step from
        (p, p) to (a, a), whether p reaches a in two ways."""
        labels = self.labels
        follow_q = self.follow[q]
        for a, twice in self.follow[p].items():
            la = labels[a]
            for b in follow_q:
                both = la & labels[b]
                if both:
                    yield (a, b) if a <= b else (b, a), both, twice and p == q and a == b

    def ambiguous(self) -> Optional[tuple[int, str]]:
        """:meth:`ambiguous_loop`, found once."""
        if not hasattr(self, "_ambiguous"):
            self._ambiguous = self.ambiguous_loop()
        return self._ambiguous

    def ambiguous_loop(self) -> Optional[tuple[int, str]]:
        """``(q, text)`` when state ``q`` reads ``text`` from itself back to itself along two different paths."""
        in_loop = sorted({p for loop in self.loops for p in loop.states})
        if not in_loop:
            return None
        # Tarjan's strongly connected components of the pair graph, from every pair (q, q) of a state in a loop
        index: dict[tuple[int, int], int] = {}
        low: dict[tuple[int, int], int] = {}
        on_stack: set[tuple[int, int]] = set()
        stack: list[tuple[int, int]] = []
        counter = 0
        for root in ((p, p) for p in in_loop):
            if root in index:
                continue
            work = [(root, iter(list(self._pairs(*root))))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                node, edges = work[-1]
                advanced = False
                for nxt, _, _ in edges:
                    if nxt not in index:
                        index[nxt] = low[nxt] = counter
                        counter += 1
                        stack.append(nxt)
                        on_stack.add(nxt)
                        work.append((nxt, iter(list(self._pairs(*nxt)))))
                        advanced = True
                        break
                    if nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                if advanced:
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found = self._two_ways(component)
                    if found is not None:
                        return found
        return None

    def _two_ways(self, component: list) -> Optional[tuple[int, str]]:
        """``(q, text)`` when the pair component holds (q, q) and either a pair of two different states or a step
        between two of its pairs (p, p) -> (a, a) that p takes in two ways (the shortest such text); None otherwise."""
        members = set(component)
        edges: dict[tuple[int, int], list] = {m: [] for m in component}
        back: dict[tuple[int, int], list] = {m: [] for m in component}
        forks = []  # (from, to, characters): a step that leaves the diagonal or is taken in two ways
        for member in component:
            for nxt, both, twice in self._pairs(*member):
                if nxt in members:
                    edges[member].append((nxt, both))
                    back[nxt].append((member, both))
                    if twice or (member[0] == member[1]) != (nxt[0] == nxt[1]) and member[0] == member[1]:
                        forks.append((member, nxt, both))
        homes = [m for m in component if m[0] == m[1]]
        if not homes or not forks:
            return None
        best: Optional[tuple[int, int, str]] = None
        for home in homes[:16]:
            there = self._paths(home, edges)
            again = self._paths(home, back)
            for source, target, both in forks:
                if source in there and target in again:
                    text = there[source] + self.sample.pick(both) + again[target][::-1]
                    if best is None or len(text) < best[1]:
                        best = (home[0], len(text), text)
        return None if best is None else (best[0], best[2])

    def _paths(self, source: tuple[int, int], edges: dict) -> dict:
        """pair -> the text of a shortest path from ``source`` along ``edges`` (written backwards for reversed edges)."""
        texts = {source: ""}
        queue = [source]
        for node in queue:
            for nxt, both in edges[node]:
                if nxt not in texts:
                    texts[nxt] = texts[node] + self.sample.pick(both)
                    queue.append(nxt)
        return texts

    def text_to(self, target: int) -> str:
        """The text of a shortest path from the start that ends reading ``target``."""
        previous: dict[int, Optional[int]] = {p: None for p in self.start}
        queue = list(self.start)
        for node in queue:
            if node == target:
                break
            for nxt in self.follow[node]:
                if nxt not in previous:
                    previous[nxt] = node
                    queue.append(nxt)
        if target not in previous:
            return ""
        text = []
        node: Optional[int] = target
        while node is not None:
            text.append(self.sample.pick(self.labels[node]))
            node = previous[node]
        return "".join(reversed(text))

    def adjacent_repeats(self) -> Optional[str]:
        """A shortest text that two unbounded repeats in a row (only optional parts between them) can both repeat,
        if there is one (:meth:`_adjacent_loops`, :meth:`_common_round`)."""
        found = [self._common_round(a, b) for a, b in self._adjacent_loops()]
        texts = [text for _, text in filter(None, found)]
        return min(texts, key=len) if texts else None

    def split_runs(self) -> list[tuple[int, str]]:
        """``(p, w)`` for every two unbounded repeats A before B, in a row or not, that both repeat a text ``w``
        (:meth:`_common_round`; p is the state of A it starts from): the runs that the timing lines repeat, since
        ``\\w*x.*!`` splits a run of "xa" at any "x" (polynomial backtracking the static rules let through)."""
        unbounded = [loop for loop in self.loops if loop.unbounded]
        return [found for a in unbounded for b in unbounded if a.states.stop <= b.states.start
                for found in [self._common_round(a, b)] if found is not None]

    def _adjacent_loops(self) -> Iterator[tuple[_Loop, _Loop]]:
        """``(A, B)`` for two unbounded repeats, neither inside the other, where B can start right after A ends
        (an edge from a last state of A to a first state of B: only optional parts between them)."""
        unbounded = [loop for loop in self.loops if loop.unbounded]
        for a in unbounded:
            after = {q for p in a.last for q in self.follow[p]}
            for b in unbounded:
                inside = (a.states.start <= b.states.start and b.states.stop <= a.states.stop
                          or b.states.start <= a.states.start and a.states.stop <= b.states.stop)
                if b is not a and not inside and after & b.first:
                    yield a, b  # one inside the other is the nested-quantifier rule's case

    def _common_round(self, a: _Loop, b: _Loop) -> Optional[tuple[int, str]]:
        """``(p, w)``: a shortest non-empty text ``w`` and a state p of ``a`` such that, for some state q of ``b``, ``a``
        reads ``w`` from p back to p, ``b`` from q back to q, and the automaton from p to q; None when there is none.

        Then a run of ``w`` splits between the two repeats at any copy, and a search that fails after them tries
        every split: polynomial backtracking (``\\d+\\d+``: ``w`` = "0"; ``(?:a\\d)+(?:b\\d)+`` has none).  Found on
        the product of three copies of the automaton (the first kept in ``a``, the third in ``b``); where that
        product would exceed :data:`_MAX_TRIPLES` triples, a character the two repeats share (if any) is the
        answer, which refuses more, never less."""
        size = len(a.states) * len(b.states)
        if size * size * len(self.labels) > _MAX_TRIPLES:
            return self._shared_character(a, b)
        best: Optional[tuple[int, str]] = None
        for p in a.states:
            for q in b.states:
                text = self._round_from(p, q, a.states, b.states)
                if text is not None and (best is None or len(text) < len(best[1])):
                    best = (p, text)
        return best

    def _round_from(self, p: int, q: int, in_a: range, in_b: range) -> Optional[str]:
        """A shortest non-empty text read from p to p inside ``in_a``, from p to q, and from q to q inside ``in_b``
        (breadth-first search over state triples from (p, p, q) to (p, q, q)); None when there is none."""
        start, goal = (p, p, q), (p, q, q)
        texts: dict[tuple[int, int, int], str] = {start: ""}
        queue = [start]
        for node in queue:
            x, y, z = node
            for x2 in self.follow[x]:
                if x2 not in in_a:
                    continue
                for y2 in self.follow[y]:
                    xy = self.labels[x2] & self.labels[y2]
                    if not xy:
                        continue
                    for z2 in self.follow[z]:
                        both = xy & self.labels[z2] if z2 in in_b else 0
                        if not both:
                            continue
                        text = texts[node] + self.sample.pick(both)
                        if (x2, y2, z2) == goal:
                            return text
                        if (x2, y2, z2) not in texts:
                            texts[(x2, y2, z2)] = text
                            queue.append((x2, y2, z2))
        return None

    def _shared_character(self, a: _Loop, b: _Loop) -> Optional[tuple[int, str]]:
        """``(p, c)``: a character c that a state p of ``a`` and some state of ``b`` both take, or None."""
        chars_b = 0
        for q in b.states:
            chars_b |= self.labels[q]
        for p in a.states:
            shared = self.labels[p] & chars_b
            if shared:
                return p, self.sample.pick(shared)
        return None


def _alternatives(items) -> list:
    """The alternatives of a repeated part: the branches of an alternation it is made of, else the part itself."""
    items = list(items)
    while len(items) == 1 and str(items[0][0]) == "SUBPATTERN":
        items = list(items[0][1][-1])
    if len(items) == 1 and str(items[0][0]) == "BRANCH":
        return list(items[0][1][1])
    return [items]


def _nullable(items) -> bool:
    for op, av in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
            return False
        if name in ("SUBPATTERN", "ATOMIC_GROUP"):
            if not _nullable(_children(name, av)[0]):
                return False
        elif name == "BRANCH":
            if not any(_nullable(part) for part in av[1]):
                return False
        elif name == "GROUPREF_EXISTS":
            if av[2] is not None and not any(_nullable(part) for part in av[1:]):
                return False
        elif _repeats(name):
            if av[0] > 0 and not _nullable(av[2]):
                return False
    return True


@functools.lru_cache(maxsize=1024)
def _automaton(regex: str) -> Optional[_Automaton]:
    """The position automaton of ``regex`` (bounded repeats expanded up to :data:`_EXPAND` copies, or read as
    unbounded where that makes it too big), built once per expression; None when it does not parse or is too big."""
    tree = _parse(regex)
    if tree is None:
        return None
    sample = _Sample(regex, tree)
    try:
        return _Automaton(tree, sample, _EXPAND)
    except _TooBig:
        try:
            return _Automaton(tree, sample, 1)
        except _TooBig:
            return None


def empty_repeat(regex: str) -> bool:
    """True when a part repeated without bound (or over 64 times), or one of its alternatives, can match the empty string.

    >>> empty_repeat(r"(?:x|)*y"), empty_repeat(r"(?:x?)+y"), empty_repeat(r"(?:x|y)*z")
    (True, True, False)
    """
    automaton = _automaton(regex)
    return automaton is not None and automaton.empty_repeats > 0


def ambiguous_repeat(regex: str) -> Optional[str]:
    """A text that a repeated part of ``regex`` reads in two different ways (its repetition backtracks exponentially),
    or None when every repeated part reads each text in one way only.

    >>> ambiguous_repeat(r"WARN (?:\\d\\.|\\d|\\.)* failed"), ambiguous_repeat(r"(?:xy|x|y)*z"), ambiguous_repeat(r"(?:foo|bar)+baz")
    ('0..', 'xyy', None)
    """
    automaton = _automaton(regex)
    if automaton is None:
        return None
    found = automaton.ambiguous()
    return None if found is None else found[1]


def adjacent_repeats(regex: str) -> Optional[str]:
    """A shortest text that two unbounded repeats in a row (only optional parts between them) can both repeat, so that
    a long run of it splits between them anywhere (polynomial backtracking), or None.

    >>> adjacent_repeats(r"\\d+\\d+x"), adjacent_repeats(r"\\w*\\s?\\w*"), adjacent_repeats(r"(?:ab)+(?:ab)+!")
    ('0', 'a', 'ba')
    >>> adjacent_repeats(r".*?x.*"), adjacent_repeats(r"[^ ]+ \\S+"), adjacent_repeats(r"(?:a\\d)+(?:b\\d)+!")
    (None, None, None)
    """
    automaton = _automaton(regex)
    return None if automaton is None else automaton.adjacent_repeats()


# --- adversarial lines -----------------------------------------------------------------------------------------------

def _shortest(items, sample: _Sample) -> str:
    """A shortest text ``items`` match (lookarounds and anchors read as empty)."""
    out = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name in ("NOT_LITERAL", "ANY", "IN"):
            out.append(sample.pick(sample.label(name, av)))
        elif name in ("SUBPATTERN", "ATOMIC_GROUP"):
            out.append(_shortest(_children(name, av)[0], sample))
        elif name in ("BRANCH", "GROUPREF_EXISTS"):
            parts = [_shortest(part, sample) for part in _children(name, av)]
            if name == "GROUPREF_EXISTS" and av[2] is None:
                parts.append("")
            out.append(min(parts, key=len) if parts else "")
        elif _repeats(name):
            out.append(_shortest(av[2], sample) * min(av[0], 64))
    return "".join(out)


def _repeated_parts(items, before: str, sample: _Sample) -> Iterator[tuple[str, list]]:
    """``(text before it, its alternatives)`` for every repeat of over one time, outermost first."""
    prefix = before
    for op, av in items:
        name = str(op)
        if _repeats(name):
            if av[1] > 1:
                yield prefix, _alternatives(av[2])
            yield from _repeated_parts(av[2], prefix, sample)
        elif name not in ("ASSERT", "ASSERT_NOT"):
            for part in _children(name, av):
                yield from _repeated_parts(part, prefix, sample)
        prefix += _shortest([(op, av)], sample)


def _filled(prefix: str, unit: str) -> str:
    """``prefix``, then ``unit`` over and over, then a character no pattern expects: :data:`LINE_LENGTH` characters."""
    room = LINE_LENGTH - len(prefix) - 1
    if room <= 0 or not unit:
        return (prefix + "\x01")[:LINE_LENGTH].ljust(LINE_LENGTH, "\x01")
    return prefix + (unit * (room // len(unit) + 1))[:room] + "\x01"


#: how many characters of a repeated part one start of a tiled line gives it (:func:`_tiled`)
TILE_RUN = 300


def _tiled(prefix: str, unit: str) -> str:
    """``prefix`` and :data:`TILE_RUN` characters of ``unit``, over and over: :data:`LINE_LENGTH` characters, so that a
    search that is only somewhat slow from one start (bounded repeats in a row, ``[a-z]{0,64}`` four times) is timed
    from every start a long line offers."""
    piece = prefix + ((unit * (TILE_RUN // max(len(unit), 1) + 1))[:TILE_RUN] if unit else "")
    return (piece * (LINE_LENGTH // max(len(piece), 1) + 1))[:LINE_LENGTH] if piece else ""


_ZERO_WIDTH = ("(?!", "(?<!", "\\b", "\\B", "(?#", "$", "^", "\\A", "\\Z")


def without_negative_lookarounds(regex: str) -> Optional[str]:
    """``regex`` with what only narrows where it matches left out: its negative lookarounds (``(?!...)``,
    ``(?<!...)``), its word boundaries (``\\b``, ``\\B``) and comments (``(?#...)``), read outside character
    classes; None when it has none of them. The text left matches every line the expression does, and it is timed
    too, so that an assertion that turns away the gate's own lines (``(?![^b])``, which demands a ``b``; a ``\\b``
    after a word, which the gate's letters never pass) cannot hide a slow part behind it. Raises :class:`ValueError`
    when the text left does not compile (the assertions cannot be told apart from the rest)."""
    if not any(mark in regex for mark in _ZERO_WIDTH):
        return None
    out, i, n, in_class, found = [], 0, len(regex), False, False
    while i < n:
        ch = regex[i]
        if ch == "\\":
            if not in_class and regex[i + 1:i + 2] in ("b", "B", "A", "Z"):
                found, i = True, i + 2
                continue
            out.append(regex[i:i + 2])
            i += 2
            continue
        if in_class:
            out.append(ch)
            if ch == "]" and not (regex[i - 1] == "[" or regex[i - 2:i] == "[^"):
                in_class = False
            i += 1
            continue
        if ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            continue
        if ch in "$^":  # an anchor inside the expression (``(?:$|b)``): a branch the gate's lines always fail
            found, i = True, i + 1
            continue
        if regex.startswith(("(?!", "(?<!", "(?#"), i):
            found = True
            if regex.startswith("(?#", i):
                close = regex.find(")", i)
                i = n if close < 0 else close + 1
                continue
            depth, j, inner_class = 0, i, False
            while j < n:
                c = regex[j]
                if c == "\\":
                    j += 2
                    continue
                if inner_class:
                    inner_class = not (c == "]" and not (regex[j - 1] == "[" or regex[j - 2:j] == "[^"))
                elif c == "[":
                    inner_class = True
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            i = j + 1
            continue
        out.append(ch)
        i += 1
    if not found:
        return None
    stripped = "".join(out)
    try:
        re.compile(stripped)
    except re.error as exc:
        raise ValueError(f"{regex!r} without its assertions does not compile") from exc
    return stripped


def adversarial_lines(regex: str) -> list[str]:
    """Lines made of the expression's own parts, each :data:`LINE_LENGTH` characters, at most :data:`MAX_ADVERSARIAL`:

    for every repeated part, the text before it (its shortest match) followed by many copies of each alternative's
    shortest match and of each pair of alternatives, and not by what must come next ("NCCL WARN " + "0.0.0." ... for
    ``NCCL WARN (?:\\d\\.|\\d|\\.)* failed``); where the ambiguity test finds one, the text it reads two ways; and for
    every two unbounded repeats that both repeat one text (:meth:`_Automaton.split_runs`), the text that leads to the
    first then many copies of that one ("W a" + "xaxa..." for ``W \\w*x.*?!``).
    """
    tree = _parse(regex)
    if tree is None:
        return []
    automaton = _automaton(regex)
    sample = automaton.sample if automaton is not None else _Sample(regex, tree)
    lines: dict[str, None] = {}
    found = automaton.ambiguous() if automaton is not None else None
    if found is not None:
        lines[_filled(automaton.text_to(found[0]), found[1])] = None
    for state, run in automaton.split_runs()[:MAX_ADVERSARIAL // 2] if automaton is not None else ():
        lines[_filled(automaton.text_to(state), run)] = None
    tiles = 0
    for prefix, alternatives in _repeated_parts(tree, "", sample):
        units = [text for text in dict.fromkeys(_shortest(part, sample) for part in alternatives[:8]) if text]
        wanted = units + [a + b for a in units for b in units if a != b]
        for unit in wanted:
            lines[_filled(prefix, unit)] = None
            if tiles < 4 and prefix:  # the same from many starts: a few, the first parts
                lines[_tiled(prefix, unit)] = None
                tiles += 1
            if len(lines) >= MAX_ADVERSARIAL:
                return list(lines)
    return list(lines)


def _search_time(compiled: "re.Pattern[str]", line: str) -> float:
    """Seconds one ``compiled.search(line)`` takes."""
    start = time.perf_counter()
    compiled.search(line)
    return time.perf_counter() - start


def slowest_search(compiled: "re.Pattern[str]", lines: Iterable[str]) -> tuple[float, Optional[str]]:
    """The longest search of ``compiled`` over ``lines`` (a slow one is timed again and its faster run kept,
    so that a busy machine does not refuse a sound expression) and the line it was; ``inf`` when a search
    ran past :data:`HARD_LIMIT_S` and was interrupted."""
    use_alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    previous = None
    if use_alarm:
        def interrupt(signum, frame):  # noqa: ARG001
            raise _Interrupted

        previous = signal.signal(signal.SIGALRM, interrupt)
    worst, worst_line = 0.0, None
    try:
        for line in lines:
            try:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, HARD_LIMIT_S)
                took = _search_time(compiled, line)
                if took > BUDGET_S:
                    took = min(took, _search_time(compiled, line))
            except _Interrupted:
                return float("inf"), line
            finally:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            if took > worst:
                worst, worst_line = took, line
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, previous)
    return worst, worst_line


def _describe(line: str) -> str:
    """``line`` as the report shows it: its first 24 characters and its length."""
    head = line[:24]
    return f"{head!r}... ({len(line)} characters)"


#: a group with flags of its own (``(?i:b)``, ``(?-i:x)``): the gate's lines are built with the expression's flags
#: read as one set for the whole of it, so such a group would make them miss the text after it
_SCOPED_FLAGS = re.compile(r"\(\?[aiLmsux]*-?[aiLmsux]+:")


def static_refusal(regex: str) -> Optional[str]:
    """Why ``regex`` is refused without being run (the first of the five shapes of the module's docstring that it
    has, as the end of a sentence that begins "regex R of signature S"), or None when it has none of them."""
    if _SCOPED_FLAGS.search(regex):
        return ("holds a group with flags of its own ((?i:...)), which the gate's timed lines read as the whole "
                "expression's, so a slow part after it goes untested; put the flag at the start ((?i)...) or write "
                "both cases as a class ([Bb])")
    hidden = hidden_requirement(regex)
    if hidden is not None:
        return (f"holds {hidden}, which the gate's proofs and timed lines cannot see through (a text a line must hold, "
                "or a part run again at every position tried), so a slow part goes untested; write the required text out as plain characters, and keep lookarounds "
                "negative and of bounded length")
    if nested_quantifier(regex):
        return ("repeats a part that itself repeats without bound (catastrophic backtracking on long lines); rewrite it "
                "without the nested quantifier")
    if empty_repeat(regex):
        return ("repeats without bound a part that can match the empty string (or has an alternative that can), which the "
                "matcher retries at every position; give every alternative of the repeated part at least one character")
    twice = ambiguous_repeat(regex)
    if twice is not None:
        return (f"repeats a part that reads {twice!r} in more than one way (alternatives or optional parts that match the "
                f"same text), so a long run of {twice!r} backtracks exponentially; make the repeated alternatives start "
                "with different characters")
    shared = adjacent_repeats(regex)
    if shared is not None:
        return (f"has two unbounded repeats in a row that both take {shared!r} (only optional parts between them), so a "
                f"long run of {shared!r} backtracks polynomially; merge them or put a required character between them")
    return None


def timing_refusal(regex: str, literal: str, examples: list[str]) -> Optional[str]:
    """Why ``regex`` is refused after timing it on :func:`hostile_lines` and :func:`adversarial_lines` (a search over
    :data:`BUDGET_S`, or one interrupted after :data:`HARD_LIMIT_S`), or None when every search stays in budget."""
    lines = hostile_lines(regex, literal, examples) + adversarial_lines(regex)
    took, line = slowest_search(re.compile(regex), lines)
    widened = ""
    try:
        stripped = without_negative_lookarounds(regex)
    except ValueError:
        return ("cannot be timed with its negative lookarounds, word boundaries and comments left out (the text left "
                "does not compile), so a slow part behind them would go untested; write it without them")
    if took <= BUDGET_S and stripped is not None:
        # the expression without its negative lookarounds, on lines of its own parts: what a line that passes them meets
        took, line = slowest_search(re.compile(stripped), hostile_lines(stripped, literal, examples)
                                    + adversarial_lines(stripped))
        widened = (" with its negative lookarounds and word boundaries left out (a line they let pass reaches that "
                   "part)")
    if took <= BUDGET_S or line is None:
        return None
    shown = "over %.0f s (interrupted)" % HARD_LIMIT_S if took == float("inf") else "%.0f ms" % (took * 1000)
    return (f"takes {shown}{widened} on the hostile line {_describe(line)}, more than {BUDGET_S * 1000:.0f} ms; "
            "make it narrower")


_ANCHORED = ("is anchored to the start of the line; logs put prefixes before the message (kubectl logs --prefix, "
             "[rank0]:, time stamps), so drop the anchor")


@gate_rule("data.signature-regex", Severity.error,
           "Every error-signature regex is unanchored at the line start, free of nested quantifiers, of repeated parts that "
           "match empty or one text in two ways and of overlapping unbounded repeats in a row, and searches each hostile "
           "and adversarial 8192-character line in under 50 ms.",
           order=250)
def check(corpus: Corpus) -> Iterator[Issue]:
    """One issue per refused ``regex`` of every pattern of every signature, at ``patterns.N.regex``: an anchored
    expression, then :func:`static_refusal`, then (for the expressions that pass it) :func:`timing_refusal`."""
    for doc, signature in corpus.signatures():
        examples = [example.line for example in signature.examples]
        for index, pattern in enumerate(signature.patterns):
            regex = pattern.regex
            if regex is None:
                continue
            if regex.startswith("^") or regex.startswith("\\A"):
                reason: Optional[str] = _ANCHORED
            else:
                reason = static_refusal(regex) or timing_refusal(regex, pattern.literal, examples)
            if reason is not None:
                yield Issue(doc.path, ("patterns", index, "regex"), f"regex {regex!r} of signature {signature.id!r} {reason}")
