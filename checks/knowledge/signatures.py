"""Matching log lines against the error signatures of the bundle, and reading the facts logs state.

:class:`SignatureSet` compiles the bundle's signatures once: every pattern's literal and every
:data:`~lingjun.checks.knowledge.log_statements.STATEMENTS` literal go into one regular expression, a
trie of the literals (so a block of the log is searched in one pass of the ``re`` engine rather than
once per literal).  :class:`Scanner` feeds blocks of whole lines (bytes) or single lines (text) through
it; only a line holding a literal is decoded, and only then is a pattern's own expression run, on at
most :data:`LINE_LIMIT` characters of it, so the cost of a pattern is bounded whatever the input.

Lines quoted in a report are masked whole (:func:`~lingjun.checks.core.redaction.mask_text`: secrets, and
identifiers such as IP addresses and home-directory user names), before any window or cut, once per line, and
only then cut to :data:`QUOTE_LIMIT` characters around the match; they are escaped where they are printed.
Standard library only.
"""

from __future__ import annotations

import collections
import functools
import re
import threading
import time
from typing import Any, Callable, Iterable, Iterator, Optional

from lingjun.checks.core.line_pattern import matches
from lingjun.checks.core.redaction import mask_text
from lingjun.checks.evidence import ERROR_LEVEL_KEPT, CatalogHit, Evidence, LogLine, NotJudged, SignatureHit, StatedFact
from lingjun.checks.knowledge import error_level
from lingjun.checks.knowledge.catalog_lines import LITERALS as CATALOG_LITERALS
from lingjun.checks.knowledge.log_statements import STATEMENTS, Statement, read_statement

__all__ = ["quote", "QUOTE_LIMIT", "LINE_LIMIT", "MAX_HITS_PER_SIGNATURE", "SignatureSet", "Scanner", "literal_regex"]

#: characters of a matched line quoted in a report
QUOTE_LIMIT = 400
#: characters of a line a pattern's expression runs on (a longer line is examined around its literal)
LINE_LIMIT = 8192
#: characters of a line its literals are looked for in at once; a longer line is read in windows of this size, one
#: around each literal the windows before it did not hold
FEED_LIMIT = 4 * LINE_LIMIT
#: the longest literal a signature may have (schema: SignaturePattern.literal), in bytes of UTF-8 at most 4 per character
_LONGEST_LITERAL = 4 * 200
#: lines below an exception line that may still be its message (:meth:`Scanner._cover_exception_above`)
_CONTINUED = 3
#: the length of a literal's piece the prefilter looks for (:meth:`SignatureSet.prefilter`)
PREFILTER_GRAM = 4
#: a block at least this long (a log of some MiB) is searched through a prefilter chosen from its own bytes: choosing
#: one takes about 0.1 s and reads such a block about five times faster
PREFILTER_BLOCK = 2 << 20
#: what the prefilter's choice reads of the first such block: this many slices of 16 KiB across it
_SAMPLE_SLICES = 4

#: lines counted per signature before counting stops (the count is then "at least")
MAX_HITS_PER_SIGNATURE = 1_000_000
#: distinct catalog entries (sets of them, one per line kind) kept per input before further ones are only counted
MAX_CATALOG_ENTRIES = 200
_CATALOG_LITERALS = frozenset(CATALOG_LITERALS)
#: the literals that start an error-level form (:mod:`~lingjun.checks.knowledge.error_level`)
_LEVEL_LITERALS = frozenset(error_level.LITERALS)
#: catalog literals that only an error line holds (the kernel module's Xid report, NCCL's WARN, an error enum's prefix)
_MARKERS = frozenset({"NVRM: Xid", "Xid=", "NCCL WARN", "CUDA_ERROR_", "cudaError", "NVML_ERROR_"})
#: Python's traceback header, and the exception line that ends a traceback (``RuntimeError: ...``,
#: ``torch.OutOfMemoryError: ...``, after any prefix such as ``[rank0]: ``): the last such line of a log with a
#: traceback is the failure, and when no signature knows it the report quotes it as an unknown error line
TRACEBACK = "Traceback (most recent call last)"
_EXCEPTION_LITERALS = ("Error: ", "Exception: ")
#: lines that end a process whatever printed them (the C++ runtime's uncaught exception, the shell's report of a fatal
#: signal): a failure even when no signature names its cause, quoted as an unknown error line, never "OK"
_TERMINATE = "terminate called after throwing an instance of"
_FATAL_LITERALS = (_TERMINATE, "Aborted (core dumped)",
                   "Floating point exception (core dumped)", "Illegal instruction (core dumped)")
_EXCEPTION = re.compile(r"(?:^|[\s\]:>])((?:[A-Za-z_]\w{0,40}\.){0,6}(?:[A-Z]\w{0,60}(?:Error|Exception)|Exception)): ")
#: an exception line that opens its line (after a ``[rank0]:`` or ``(pid=1)`` prefix): a log pasted without its
#: traceback (``RuntimeError: NCCL communicator was aborted on rank 1.``) still ends in the failure
_LEADING_EXCEPTION = re.compile(r"^\s{0,8}(?:\[[^\]\s]{1,80}\]:?\s{0,4}|\([^)]{1,80}\)\s{1,4}){0,3}"
                                r"((?:[A-Za-z_]\w{0,40}\.){0,6}(?:[A-Z]\w{0,60}(?:Error|Exception)|Exception)): \S")


#: ``re.escape`` of each byte value (the trie is built of single bytes, a few thousand of them)
_ESCAPED_BYTES = tuple(re.escape(bytes([byte])) for byte in range(256))


class _EscapedChars(dict):
    """``re.escape`` of each character, made on first use."""

    def __missing__(self, ch: str) -> str:
        self[ch] = escaped = re.escape(ch)
        return escaped


def _trie(words: Iterable, escaped=_ESCAPED_BYTES, empty=b""):
    """A regular expression matching any of ``words`` (a trie of alternatives, shortest words kept): of ``bytes``
    words by default; of ``str`` words with ``escaped`` an :class:`_EscapedChars` and ``empty`` ``""``."""
    group, bar, close, optional = (b"(?:", b"|", b")", b"?") if isinstance(empty, bytes) else ("(?:", "|", ")", "?")
    root: dict = {}
    for word in words:
        node = root
        for unit in word:
            node = node.setdefault(unit, {})
        node[None] = True

    def expression(node: dict):
        end = node.pop(None, False)
        branches = [escaped[unit] + expression(node[unit]) for unit in sorted(node)]
        if not branches:
            return empty
        body = branches[0] if len(branches) == 1 else group + bar.join(branches) + close
        return group + body + close + optional if end else body

    return expression(root)


def literal_regex(literals: Iterable[str]) -> "re.Pattern[bytes]":
    """One compiled expression (bytes) that finds any of ``literals`` (UTF-8 encoded)."""
    return _literal_regex(tuple(sorted({lit.encode("utf-8") for lit in literals if lit})))


@functools.lru_cache(maxsize=8)
def _literal_regex(encoded: "tuple[bytes, ...]") -> "re.Pattern[bytes]":
    """:func:`literal_regex` of the sorted, distinct ``encoded`` literals; kept, since every check of a process
    (a fleet's many snapshots) has the same bundle's literals."""
    return re.compile(_trie(encoded) if encoded else b"(?!)")


class SignatureSet:
    """The bundle's signatures, compiled: ``signatures`` is the list of signature dicts (bundle JSON).

    Raises:
        re.error: never for validated data (the gate compiles every pattern); a hand-made ``--data``
            file with a broken expression raises it when compiled.
    """

    def __init__(self, signatures: list[dict[str, Any]], message_literals: Iterable[str] = ()) -> None:
        """``message_literals``: the CUDA messages a line is read against the catalogs for besides
        :data:`~lingjun.checks.knowledge.catalog_lines.LITERALS` (:attr:`~lingjun.checks.knowledge.bundle.KnowledgeData.catalog_message_literals`)."""
        self.signatures = {sig["id"]: sig for sig in signatures}
        #: literal -> [(signature id, compiled regex or None)]
        self._patterns: dict[str, list[tuple[str, Optional["re.Pattern[str]"]]]] = {}
        for sig in signatures:
            for pattern in sig.get("patterns") or []:
                regex = pattern.get("regex")
                self._patterns.setdefault(pattern["literal"], []).append(
                    (sig["id"], re.compile(regex) if regex else None))
        self._statements: dict[str, list[Statement]] = {}
        for statement in STATEMENTS:
            self._statements.setdefault(statement.literal, []).append(statement)
        messages = frozenset(lit for lit in message_literals if lit)
        #: the literals that send a line to the error catalogs
        self.catalog_literals = _CATALOG_LITERALS | messages
        self.literals = sorted(set(self._patterns) | set(self._statements) | {TRACEBACK, *_EXCEPTION_LITERALS, *_FATAL_LITERALS,
                                                                          *error_level.LITERALS}
                               | self.catalog_literals)
        #: the literals other than the CUDA messages, tested one by one on a line; the messages (a few hundred) only
        #: after one search of their trie finds one (:meth:`line_literals`); a message that is also a signature's or a
        #: statement's literal stays a plain one
        self._plain_literals = [lit for lit in self.literals if lit not in messages or lit in _CATALOG_LITERALS
                                or lit in self._patterns or lit in self._statements]
        self._messages = sorted(messages - set(self._plain_literals))
        #: the error catalogs, read on the first line that needs them (:meth:`catalogs`)
        self._catalogs: "Optional[Any]" = None
        self._catalog_problem: Optional[str] = None

    def catalogs(self) -> "Optional[Any]":
        """The embedded :class:`~lingjun.checks.knowledge.error_catalogs.ErrorCatalogs`, read on first use; None
        when they cannot be read (:attr:`catalog_problem` says why)."""
        if self._catalogs is None and self._catalog_problem is None:
            from lingjun.checks.knowledge.error_catalogs import CatalogError, embedded  # deferred: only a log line holding a catalog literal needs it

            try:
                self._catalogs = embedded()
            except (CatalogError, ValueError, KeyError, TypeError) as exc:
                self._catalog_problem = str(exc) or type(exc).__name__
        return self._catalogs

    @property
    def catalog_problem(self) -> Optional[str]:
        """Why the error catalogs could not be read, or None."""
        return self._catalog_problem

    @functools.cached_property
    def regex(self) -> "re.Pattern[bytes]":
        """The expression that finds any of :attr:`literals` (built when a block is first searched: a check
        without a log to scan never needs it)."""
        return literal_regex(self.literals)

    def prefilter(self, sample: bytes) -> "re.Pattern[bytes]":
        """An expression that finds, in every line holding one of :attr:`literals`, a piece of it: for each literal
        the :data:`PREFILTER_GRAM`-byte piece that is rarest in ``sample`` (a few slices of the input itself), whose
        first byte is rare too, since the matcher skips bytes that cannot start a piece at C speed.  A line the
        prefilter does not find holds no literal, so only the lines it finds are searched with :attr:`regex`
        (:meth:`Scanner.feed_block`).

        Args:
            sample: bytes of the input (64 KiB is enough); only its byte and piece frequencies are read.
        """
        freq = [0] * 256
        for byte, count in collections.Counter(sample).items():
            freq[byte] = count
        grams = set()
        for literal in self.literals:
            encoded = literal.encode("utf-8")
            k = min(PREFILTER_GRAM, len(encoded))
            starts = sorted(range(len(encoded) - k + 1), key=lambda i: freq[encoded[i]])[:4]
            best = min(starts, key=lambda i: (freq[encoded[i]] + 1) * (sample.count(encoded[i:i + k]) + 1))
            grams.add(encoded[best:best + k])
        return re.compile(_trie(sorted(grams)))

    def scanner(self, evidence: Evidence, source: str) -> "Scanner":
        """A :class:`Scanner` adding what ``source`` shows to ``evidence`` (``source`` is appended to its sources)."""
        if source not in evidence.sources:
            evidence.sources.append(source)
        return Scanner(self, evidence, source)

    def line_literals(self, line: str) -> list[str]:
        """The literals ``line`` holds (a few hundred substring tests, run only on lines the block search found; the
        CUDA messages only when their trie finds one)."""
        found = self._present(line)
        # a message matters only to a line no other catalog literal sends to the catalogs: catalog_lines reads a line
        # by the message it quotes only then
        if self._messages and not any(lit in _CATALOG_LITERALS for lit in found) and self._message_regex.search(line):
            found += [lit for lit in self._messages if lit in line]
        return found

    def _present(self, line: str) -> list[str]:
        """The plain literals ``line`` holds, in :attr:`_plain_literals`' order: at each position the trie finds the
        longest literal starting there (in C, however many literals there are), and with it every literal that is a
        prefix of it, since all literals starting at one position lie on one path of the trie."""
        seen: set[str] = set()
        for m in self._plain_regex.finditer(line):
            longest = m.group(1)
            if longest not in seen:
                seen.update(self._prefixes[longest])
        order = self._plain_order
        return sorted(seen, key=order.__getitem__)

    @functools.cached_property
    def _plain_regex(self) -> "re.Pattern[str]":
        """At every position, the longest plain literal that starts there (a lookahead, so matches may overlap)."""
        return re.compile("(?=(" + _trie(self._plain_literals, _EscapedChars(), "") + "))")

    @functools.cached_property
    def _plain_order(self) -> dict[str, int]:
        return {lit: i for i, lit in enumerate(self._plain_literals)}

    @functools.cached_property
    def _prefixes(self) -> dict[str, tuple[str, ...]]:
        """Each plain literal -> the plain literals that are prefixes of it, itself included."""
        literals = set(self._plain_literals)
        return {lit: tuple(lit[:n] for n in range(1, len(lit) + 1) if lit[:n] in literals) for lit in literals}

    @functools.cached_property
    def _message_regex(self) -> "re.Pattern[str]":
        """One expression (text) that finds any of the CUDA message literals."""
        return re.compile(_trie(self._messages, _EscapedChars(), ""))

    def matches_any(self, line: str,
                    search: "Optional[Callable[[re.Pattern[str], str], Optional[bool]]]" = None) -> Optional[bool]:
        """True when a signature's pattern matches ``line``; None when none did and one could not be judged (``search``,
        default :func:`timed_search`, gave up: a :meth:`Scanner.search` gives up once its input's time is spent);
        False otherwise."""
        search = search or timed_search
        gave_up = False
        for lit in self.line_literals(line):
            for _, regex in self.patterns_of(lit):
                for window in _windows(line, lit):
                    judged = matches(lit, regex, window, search)
                    if judged:
                        return True
                    gave_up = gave_up or judged is None
        return None if gave_up else False

    def patterns_of(self, literal: str) -> list[tuple[str, Optional["re.Pattern[str]"]]]:
        """The ``(signature id, expression)`` pairs whose literal is ``literal``."""
        return self._patterns.get(literal, [])

    def statements_of(self, literal: str) -> list[Statement]:
        """The log statements whose literal is ``literal``."""
        return self._statements.get(literal, [])


def _word_cut_bounds(text, start: int, end: int, keep_from: int, keep_to: int) -> tuple[int, int]:
    """Where to cut ``text[start:end]`` (a ``str`` or ``bytes``) so that no word is cut in two at either end: a cut
    that falls inside a word moves to the blank after it (before it, at the end), never into ``[keep_from, keep_to)``,
    the part that must stay. A token cut in two no longer has the shape masking knows it by, so no part of it may
    reach a report."""
    if start > 0 and not text[start - 1:start].isspace():
        while start < min(keep_from, end) and not text[start:start + 1].isspace():
            start += 1
    if end < len(text) and not text[end:end + 1].isspace():
        while end > max(keep_to, start) and not text[end - 1:end].isspace():
            end -= 1
    return start, end


#: how much of a line before its literal a window keeps whatever the words around (an expression's own prefix)
_BEFORE_LITERAL = 256
#: the most windows of one long line searched for one literal (a part fed is at most :data:`FEED_LIMIT`, four windows)
MAX_WINDOWS = 8


def _windows(line: str, *literals: str) -> "list[str]":
    """The windows of ``line`` an expression of ``literals`` (one, or several a reader reads alike) is tried on: the
    line itself, or for a line longer than :data:`LINE_LIMIT` a window around each occurrence of a literal that the
    previous window does not hold whole (an early mention of ``Got completion`` cannot hide the error line's own later
    one), at most :data:`MAX_WINDOWS` (:func:`_window_spans`)."""
    return [line[lo:hi] for lo, hi, _, _ in _window_spans(line, *literals)]


def _window_spans(line: str, *literals: str) -> "list[tuple[int, int, Optional[int], str]]":
    """``(start, end, at, literal)`` of each window of :func:`_windows`: where it starts and ends in ``line``, and the
    occurrence of a literal it was opened for (``at`` its place, None for a line that is one window: a quote of what
    the window read is cut around it, by default around the first occurrence of the first literal).
    The occurrences a window holds whole are passed over (looked for past it), so a line costs at most
    :data:`MAX_WINDOWS` searches of each literal, whatever it holds."""
    if len(line) <= LINE_LIMIT:  # one window, its quote cut around the first literal's first occurrence
        return [(0, len(line), None, literals[0])]
    out: "list[tuple[int, int, Optional[int], str]]" = []
    next_at = {literal: line.find(literal) for literal in literals}  # each literal's next occurrence no window holds
    while len(out) < MAX_WINDOWS:
        found = [(at, literal) for literal, at in next_at.items() if at >= 0]
        if not found:
            break
        at, literal = min(found)
        start = max(0, min(at - LINE_LIMIT // 2, len(line) - LINE_LIMIT))
        # the text an expression reads before its literal stays, even when a run without blanks ends at it (a
        # window is matched, never quoted: the quote masks the whole line)
        lo, hi = _word_cut_bounds(line, start, start + LINE_LIMIT, max(start, at - _BEFORE_LITERAL), at + len(literal))
        out.append((lo, hi, at, literal))
        # where the window really ends (its word cut may end it early): an occurrence ending past it is not inside it
        next_at = {other: where if where < 0 or where + len(other) > hi else line.find(other, hi - len(other) + 1)
                   for other, where in next_at.items()}
    if out:
        return out
    # none of them in the line: its first characters
    lo, hi = _word_cut_bounds(line, 0, LINE_LIMIT, 0, len(literals[0]))
    return [(lo, hi, None, literals[0])]


#: the longest time one expression may search one window, in seconds; past it the line is not judged by that pattern
SEARCH_BUDGET_S = 0.2
#: the time all patterns together may take on one input, in seconds; past it the lines holding a pattern's literal
#: are not judged by its expression (a log of many crafted lines cannot hold the check for hours)
INPUT_BUDGET_S = 2.0
#: what each search may take without spending :data:`INPUT_BUDGET_S`: the timer's own set-up and a safe pattern's
#: search, a few microseconds (80,000 Xid lines spend nothing); every search spends what it takes beyond this, so
#: many searches of a few milliseconds each (a crafted log, the red team's F2) spend the budget as one long one does
SEARCH_ALLOWANCE_S = 0.0002


class _Expired(Exception):
    pass


def _expire(signum: int, frame: Any) -> None:
    raise _Expired


def timed_search(regex: "re.Pattern[str]", text: str, budget_s: Optional[float] = None) -> Optional[bool]:
    """``regex.search(text) is not None``, or None when the search ran past ``budget_s`` seconds (default
    :data:`SEARCH_BUDGET_S`) and was given up: in the main thread of a platform with ``setitimer``; elsewhere the
    search is not interrupted."""
    import signal  # deferred: not every check needs it

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return regex.search(text) is not None
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, SEARCH_BUDGET_S if budget_s is None else budget_s)
    try:
        return regex.search(text) is not None
    except _Expired:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@functools.lru_cache(maxsize=4)
def _masked_line(text: str) -> str:
    """``text`` (a whole line, its line end stripped) masked: secrets and identifiers (:func:`mask_text`). The last few
    are kept: a line quoted for several literals (a signature, a catalog entry, a stated fact) is masked once."""
    return mask_text(text)


def _masked_at(text: str, masked: str, at: int, literal: str) -> int:
    """Where the occurrence of ``literal`` at ``at`` in ``text`` stands in ``masked`` (``text`` masked): the same
    occurrence of the literal, or when masking hid it (``token: CUDA error``) of the text just after or before it,
    when masking kept every occurrence of that anchor; else the same place in proportion."""
    if not literal or not text.startswith(literal, at):
        return at * len(masked) // max(len(text), 1)
    end = at + len(literal)
    # (anchor's start in text, anchor, how far the literal's start is past the anchor's start)
    anchors = ((at, literal, 0), (end, text[end:end + _ANCHOR], -len(literal)), (max(at - _ANCHOR, 0), text[max(at - _ANCHOR, 0):at], min(at, _ANCHOR)))
    for start, anchor, shift in anchors:
        if len(anchor) < 8 and anchor is not literal:
            continue
        total = text.count(anchor)
        if total and masked.count(anchor) == total:
            before = text.count(anchor, 0, start)
            found = -len(anchor)
            for _ in range(before + 1):
                found = masked.find(anchor, found + len(anchor))
            return max(found + shift, 0)
    return at * len(masked) // max(len(text), 1)


#: characters of the text beside a literal masking hid that find its place in the masked line
_ANCHOR = 24


def quote(line: str, literal: str, whole: Optional[str] = None, offset: int = 0, at: Optional[int] = None) -> str:
    """``line`` masked (secrets, identifiers: :func:`~lingjun.checks.core.redaction.mask_text`) and cut to about
    :data:`QUOTE_LIMIT` characters around ``literal`` (its occurrence at ``at`` in ``line``, by default its first;
    ``…`` marks a cut).

    ``whole``: the whole line when ``line`` is a part of it (a window of a line longer than :data:`FEED_LIMIT`),
    ``line`` starting at ``offset`` in it. The whole line is masked before anything is cut, so no cut can split a
    token, part a key from its value or open a quote masking would have closed."""
    text = (line if whole is None else whole).rstrip("\r\n")
    at = min(offset + (max(line.find(literal), 0) if at is None else at), len(text))
    masked = _masked_line(text)
    if len(masked) <= QUOTE_LIMIT:
        return masked
    found = _masked_at(text, masked, at, literal)
    start = max(0, min(found - QUOTE_LIMIT // 4, len(masked) - QUOTE_LIMIT))
    end = min(len(masked), start + QUOTE_LIMIT)
    return ("…" if start else "") + masked[start:end] + ("…" if end < len(masked) else "")


class _WholeLine:
    """The whole of a line longer than :data:`FEED_LIMIT` (its bytes) while a window of it, ``lo`` bytes in, is fed:
    decoded only when a quote needs it."""

    __slots__ = ("raw", "lo", "_text")

    def __init__(self, raw: "bytes | str", lo: int) -> None:
        self.raw, self.lo, self._text = raw, lo, None

    def text_and_offset(self) -> "tuple[str, int]":
        """The line as text and where the window starts in it (characters)."""
        if self._text is None:
            if isinstance(self.raw, bytes):
                self._text = (self.raw.decode("utf-8", "replace"), len(self.raw[:self.lo].decode("utf-8", "replace")))
            else:
                self._text = (self.raw, self.lo)
        return self._text


class Scanner:
    """Adds the lines of one input to an :class:`~lingjun.checks.evidence.Evidence` (see :meth:`feed_block`)."""

    def __init__(self, sigset: SignatureSet, evidence: Evidence, source: str) -> None:
        self.sigset = sigset
        self.evidence = evidence
        self.source = source
        self.lines = 0  # lines fed so far (the number of the last line)
        self.traceback = False  # a Python traceback was seen
        #: the last exception line (its number, text, exception name, the part fed and where the name stands in it)
        #: and whether a signature or catalog read it
        self.last_exception: Optional[tuple[tuple[Optional[int], str, str, Any, int], bool]] = None
        #: the last exception line that opens its line (:data:`_LEADING_EXCEPTION`), read when there is no traceback
        self.last_leading_exception: Optional[tuple[tuple[Optional[int], str, str, Any, int], bool]] = None
        #: the C++ runtime's last "terminate called after throwing ..." line kept as an unknown error line: its
        #: exception's ``what():`` message follows (:meth:`_cover_terminate_above`)
        self._terminate: Optional[LogLine] = None
        #: the number of the line fed last, the signatures it matched and the catalog entries it showed
        self._matched: tuple[Optional[int], set[str], set[tuple]] = (None, set(), set())
        #: seconds the patterns' expressions have taken on this input (:data:`INPUT_BUDGET_S`)
        self.pattern_seconds = 0.0
        #: ``evidence.catalog_hits`` by key, and how many of them are indexed (:meth:`_catalog_hit`)
        self._hit_index: "tuple[dict, int]" = ({}, 0)
        #: the prefilter of this input (:meth:`SignatureSet.prefilter`), chosen on its first long block; None before
        self._prefilter: "Optional[re.Pattern[bytes]]" = None
        #: the line the part being fed belongs to when it is not the whole of it, and where the part starts in it
        self._whole: Optional[_WholeLine] = None
        self._part: "tuple[Optional[_WholeLine], int]" = (None, 0)

    def feed_block(self, block: bytes) -> None:
        """Scan ``block``: whole lines of UTF-8 text (bytes; the last may lack its newline).

        Line numbers continue from the previous block.  Only lines holding a literal are decoded.
        """
        base = self.lines
        counted_to = 0
        counted = 0
        next_start = 0
        # a line longer than FEED_LIMIT is read in windows, one around each literal the windows before did not hold
        long_start = long_end = window_end = -1
        for m in self._literal_matches(block):
            pos = m.start()
            if pos < next_start:
                continue  # a later literal of a line already read
            if pos < long_end:  # the same long line, past its last window
                if m.end() <= window_end:
                    continue  # the last window held it whole
                start, end = long_start, long_end
            else:
                start = block.rfind(b"\n", 0, pos) + 1
                end = block.find(b"\n", pos)
                end = len(block) if end < 0 else end
                counted += block.count(b"\n", counted_to, start)
                counted_to = start
            number = base + counted + 1
            raw = block[start:end]
            if len(raw) > FEED_LIMIT:  # a very long line: the part around the literal found, cut between words
                at = pos - start
                lo = max(0, min(at - FEED_LIMIT // 2, len(raw) - FEED_LIMIT))
                lo, hi = _word_cut_bounds(raw, lo, lo + FEED_LIMIT, at, at + 1)
                long_start, long_end, window_end = start, end, start + hi
                next_start = max(pos + 1, window_end - _LONGEST_LITERAL)  # a literal across the window's end is read next
                self._whole = _WholeLine(raw, lo)  # quoted from the whole line, masked before any cut
                try:
                    self.feed_line(raw[lo:hi].decode("utf-8", "replace"), number)
                finally:
                    self._whole = None
                continue
            self.feed_line(raw.decode("utf-8", "replace"), number)
            next_start = end + 1
        newlines = block.count(b"\n")
        self.lines = base + newlines + (0 if block.endswith(b"\n") or not block else 1)

    def _literal_matches(self, block: bytes) -> "Iterator[re.Match[bytes]]":
        """Every match of the literals' expression in ``block``, in order: of the whole block when it is short, else
        of the lines the input's prefilter finds (a line it does not find holds no literal)."""
        regex = self.sigset.regex
        if self._prefilter is None and len(block) >= PREFILTER_BLOCK:
            step = len(block) // _SAMPLE_SLICES
            self._prefilter = self.sigset.prefilter(b"".join(block[i * step:i * step + (16 << 10)]
                                                             for i in range(_SAMPLE_SLICES)))
        if self._prefilter is None:
            yield from regex.finditer(block)
            return
        search, find, rfind, end_of_block = self._prefilter.search, block.find, block.rfind, len(block)
        at = 0
        while True:
            found = search(block, at)
            if found is None:
                return
            start = rfind(b"\n", 0, found.start()) + 1
            end = find(b"\n", found.end())
            end = end_of_block if end < 0 else end
            yield from regex.finditer(block, start, end)
            at = end + 1

    def feed_line(self, line: str, number: Optional[int]) -> None:
        """Match one line (text; ``number`` its line number, None for an entry of a list of error lines).

        Literals are looked for in the whole line (at most :data:`FEED_LIMIT` characters); a pattern's expression and
        a statement's run on at most :data:`LINE_LIMIT` characters around their literal, under a time limit
        (:meth:`search`); what is quoted is masked before it is cut, so no secret is cut in half.
        """
        whole = self._whole
        if len(line) > FEED_LIMIT:
            if whole is None:
                whole = _WholeLine(line, 0)  # quoted from the whole line, masked before any cut
            line = line[:FEED_LIMIT]
        at = 0
        for part in line.split("\r") if "\r" in line else (line,):  # a progress bar's carriage returns end lines too
            self._part = (whole, at)
            self._feed_part(part, number)
            at += len(part) + 1
        self._part = (None, 0)

    def _quote(self, line: str, literal: str, part: "Optional[tuple[Optional[_WholeLine], int]]" = None,
               at: Optional[int] = None) -> str:
        """:func:`quote` of ``line``, the part being fed (or ``part``, one kept), from its whole line when it is a
        part of a longer one; cut around the occurrence of ``literal`` at ``at`` in ``line`` (by default its first:
        the one a window read, when it was not the first window)."""
        whole, offset = self._part if part is None else part
        if whole is None:
            return quote(line, literal, at=at)
        text, start = whole.text_and_offset()
        return quote(line, literal, text, start + offset, at)

    def _feed_part(self, line: str, number: Optional[int]) -> None:
        # signatures this line matched (one hit each, however many literals, windows of a long line or \r parts)
        if number is None or self._matched[0] != number:
            self._matched = (number, set(), set())
        matched = self._matched[1]
        literals = self.sigset.line_literals(line)
        if TRACEBACK in literals:
            self.traceback = True
        for literal in literals:
            spans = _window_spans(line, literal)
            self._match_patterns(line, number, literal, spans, matched)
            for statement in self.sigset.statements_of(literal):
                for lo, hi, at, _ in spans:  # the first window that states it: an early mention hides no later one
                    stated = read_statement(statement, line[lo:hi])
                    if stated:
                        for name, value in stated:
                            self._state(line, number, literal, name, value, at)
                        break
        catalog_literals = [lit for lit in literals if lit in self.sigset.catalog_literals]
        named = False  # a catalog named the line (its first copy reported, later ones counted)
        if catalog_literals:
            named = self._match_catalogs(line, number, catalog_literals, bool(matched))
        if matched and number is not None:
            self._cover_exception_above(number)
        if (matched or named) and number is not None:
            self._cover_terminate_above(number)
        fatal = next((lit for lit in _FATAL_LITERALS if lit in literals), None)
        if fatal is not None and not matched and len(self.evidence.unmatched) < MAX_CATALOG_ENTRIES:
            kept = LogLine(self.source, number, self._quote(line, fatal))
            self.evidence.unmatched.append(kept)
            if fatal == _TERMINATE:
                self._terminate = kept
        elif not matched and not named:
            self._error_level(line, number, literals)
        exception_literals = [lit for lit in _EXCEPTION_LITERALS if lit in literals]
        # the first exception line of any window (a path or an echoed command holding "Error: " comes before it)
        for lo, hi, _, _ in _window_spans(line, *exception_literals) if exception_literals else ():
            found = _EXCEPTION.search(line[lo:hi])
            if found:
                # kept as printed and quoted (masked) at the end, around its name: only the last one is ever reported
                self.last_exception = ((number, line, found.group(1), self._part, lo + found.start(1)),
                                       bool(matched) or named)
                leading = _LEADING_EXCEPTION.match(line)
                if leading:
                    self.last_leading_exception = self.last_exception
                break

    def _cover_terminate_above(self, number: int) -> None:
        """A signature or catalog read line ``number``: the C++ runtime's "terminate called after throwing an instance
        of ..." just above it (at most :data:`_CONTINUED` lines) is the header of the exception whose ``what():``
        message this line is (libtorch's ``what():  nvrtc: error: ...``), so it is no unknown error line of its own."""
        kept = self._terminate
        if kept is None or kept.number is None or not 0 < number - kept.number <= _CONTINUED:
            return
        self._terminate = None
        unmatched = self.evidence.unmatched
        for at in range(len(unmatched) - 1, -1, -1):
            if unmatched[at] is kept:
                del unmatched[at]
                return

    def _cover_exception_above(self, number: int) -> None:
        """A signature matched line ``number``: an exception line just above it (at most :data:`_CONTINUED` lines)
        is taken as read, since its message goes on in this line (Triton's "RuntimeError: Internal Triton PTX
        codegen error:" followed by ptxas' own line)."""
        for name in ("last_exception", "last_leading_exception"):
            last = getattr(self, name)
            if last is not None and not last[1] and last[0][0] is not None and 0 < number - last[0][0] <= _CONTINUED:
                setattr(self, name, (last[0], True))

    def _error_level(self, line: str, number: Optional[int], literals: list[str]) -> None:
        """Keep ``line`` as an error-level line (:mod:`~lingjun.checks.knowledge.error_level`) when one of its literals
        starts such a form: counted always, quoted while fewer than :data:`ERROR_LEVEL_KEPT` distinct ones are kept."""
        found = [(literal, kind) for literal in literals if literal in _LEVEL_LITERALS
                 for kind in (error_level.kind_of(line, literal),) if kind is not None]
        # a failure's own words ("ERROR: failed to solve: ...") rank above the level they are logged at
        found.sort(key=lambda pair: pair[1] not in error_level.FAILURE_KINDS)
        if not found:
            return
        literal, kind = found[0]
        evidence = self.evidence
        if self._matched[0] == number and number is not None and "error-level" in self._matched[2]:
            return  # another part or window of a line already counted
        if number is not None:
            self._matched[2].add("error-level")
        evidence.error_level_count += 1
        if len(evidence.error_level) < ERROR_LEVEL_KEPT:
            quoted = LogLine(self.source, number, self._quote(line, literal))
            if all(kept.text != quoted.text for kept in evidence.error_level):
                evidence.error_level.append(quoted)
                evidence.error_level_kinds.append(kind)

    def _match_patterns(self, line: str, number: Optional[int], literal: str, spans: "list[tuple[int, int, Optional[int], str]]",
                        matched: set[str]) -> None:
        """Count a hit for each signature of ``literal`` whose expression matches one of the line's windows
        (:func:`_window_spans`; added to ``matched``), quoted around the occurrence of the window that matched."""
        evidence = self.evidence
        for sig_id, regex in self.sigset.patterns_of(literal):
            if sig_id in matched:
                continue
            judged: Optional[bool] = False
            quoted_at: Optional[int] = None
            for lo, hi, at, _ in spans:
                answer = matches(literal, regex, line[lo:hi], self.search)  # None: could not finish in time
                if answer:
                    judged, quoted_at = True, at
                    break
                if answer is None:
                    judged = None
            if judged is None:
                self._not_judged(sig_id, line, number, literal)
            if not judged:
                continue
            matched.add(sig_id)
            hit = evidence.hit(sig_id)
            if hit is None:
                evidence.hits.append(SignatureHit(sig_id, LogLine(self.source, number, self._quote(line, literal, at=quoted_at))))
            elif hit.count < MAX_HITS_PER_SIGNATURE:
                hit.count += 1

    def search(self, regex: "re.Pattern[str]", window: str) -> Optional[bool]:
        """The pattern's answer on ``window``, or None when it ran out of time (:data:`SEARCH_BUDGET_S`) or this input's
        time for patterns (:data:`INPUT_BUDGET_S`, spent by what each search takes beyond :data:`SEARCH_ALLOWANCE_S`) was
        spent."""
        left = INPUT_BUDGET_S - self.pattern_seconds
        if left <= 0:
            return None
        # the CPU time of this thread, not the wall clock: a search preempted on a busy node spends nothing for the
        # time another process ran
        start = time.thread_time()
        try:
            # at least a millisecond: setitimer rounds a smaller interval to zero, which turns the timer off
            return timed_search(regex, window, max(min(SEARCH_BUDGET_S, left), 0.001))
        finally:
            took = time.thread_time() - start
            if took > SEARCH_ALLOWANCE_S:  # a safe pattern's search never spends the budget
                self.pattern_seconds += took - SEARCH_ALLOWANCE_S

    def _not_judged(self, sig_id: str, line: str, number: Optional[int], literal: str) -> None:
        """Count a line ``sig_id``'s expression could not judge (:class:`~lingjun.checks.evidence.NotJudged`)."""
        known = next((n for n in self.evidence.not_judged if n.signature == sig_id), None)
        if known is not None:
            if known.count < MAX_HITS_PER_SIGNATURE:
                known.count += 1
            return
        why = "input" if self.pattern_seconds >= INPUT_BUDGET_S else "line"
        self.evidence.not_judged.append(NotJudged(sig_id, literal, LogLine(self.source, number, self._quote(line, literal)), why))

    def _match_catalogs(self, line: str, number: Optional[int], literals: "list[str]", covered: bool) -> bool:
        """Add the catalog entries ``line`` shows (:func:`~lingjun.checks.knowledge.catalog_lines.recognise`), one
        :class:`CatalogHit` per distinct set of entries, counted; ``literals``: the catalog literals the line holds;
        ``covered``: a signature matched the line. A line longer than :data:`LINE_LIMIT` is read in the window around
        each occurrence of them (:func:`_window_spans`) as a shorter line is read whole: by the first window whose
        entries the catalogs name, else the first that shows any (an unknown message), so an earlier mention (a
        path, an echoed command read as an unknown ``CUDA error``) hides no later error.

        Returns:
            True when a catalog read the line (a new entry, or another copy of one already reported)."""
        from lingjun.checks.knowledge.catalog_lines import recognise  # deferred: with the catalogs

        catalogs = self.sigset.catalogs()
        if catalogs is None:  # the line is still an error line (below), judged by the signatures only
            problem = self.sigset.catalog_problem
            note = (f"the error catalogs could not be read ({problem}): Xid, CUDA and NCCL lines are judged by the "
                    "error signatures only", f"无法读取错误目录（{problem}）：Xid、CUDA 与 NCCL 行只按错误特征判断")
            if note not in self.evidence.notes:
                self.evidence.notes.append(note)
        literal, at = literals[0], None
        matches: tuple = ()
        for lo, hi, opened_at, opened_by in _window_spans(line, *literals) if catalogs is not None else ():
            shown = tuple(recognise(line[lo:hi], catalogs))
            names = any(m.info is not None for m in shown)
            if shown and (names or not matches):
                matches, literal, at = shown, opened_by, opened_at
                if names:
                    break
        if not matches:
            # a printer's own error marker whose number or name no form reads (an Xid of ten digits, in hex, an enum
            # name no catalog lists), or any such line while the catalogs cannot be read, is still an error line:
            # quoted as one no signature knows, never "OK"
            if not covered and literal in _MARKERS and len(self.evidence.unmatched) < MAX_CATALOG_ENTRIES:
                self.evidence.unmatched.append(LogLine(self.source, number, self._quote(line, literal)))
                return True  # already an unknown error line: not quoted a second time as the traceback's end
            return False
        evidence = self.evidence
        key = tuple(m.key for m in matches)
        known = self._catalog_hit(key)
        seen = self._matched[2] if self._matched[0] == number and number is not None else set()
        if known is not None:
            if known.count < MAX_HITS_PER_SIGNATURE and key not in seen:  # counted once per line
                known.count += 1
            seen.add(key)
            return True
        seen.add(key)
        if len(evidence.catalog_hits) >= MAX_CATALOG_ENTRIES:
            return True
        evidence.catalog_hits.append(CatalogHit(matches, LogLine(self.source, number, self._quote(line, literal, at=at)),
                                                covered=covered))
        for match in matches:
            if match.catalog == "cuda" and match.info is not None:
                self._state(line, number, literal, "cuda.error", match.info.name, at)
        return True

    def _catalog_hit(self, key: tuple) -> "Optional[CatalogHit]":
        """The hit of ``evidence.catalog_hits`` with ``key``, by an index kept up with the list (other scanners of the
        same evidence append to it too): a log of many catalog lines costs one look-up a line, not one per hit."""
        hits = self.evidence.catalog_hits
        index, indexed = self._hit_index
        if indexed != len(hits):
            for hit in hits[indexed:]:
                index.setdefault(hit.key, hit)
            self._hit_index = (index, len(hits))
        return index.get(key)

    def _state(self, line: str, number: Optional[int], literal: str, name: str, value: Any, at: Optional[int] = None) -> None:
        """Keep one fact the line states (quoted around the occurrence of ``literal`` at ``at``, by default its first);
        the first line stating it is kept, a different value marks a conflict."""
        evidence = self.evidence
        if isinstance(value, str):  # a value the log states is shown as the line is: masked
            value = mask_text(value)
        if name == "kernel.xid":
            if value not in evidence.xids:
                evidence.xids.append(value)
            name = f"kernel.xid.{value}"
        elif name == "kernel.xid_pid":  # an aggregate: how many processes the Xid lines name, from the first line
            if value not in evidence.xid_pids and len(evidence.xid_pids) < MAX_CATALOG_ENTRIES:
                evidence.xid_pids.append(value)
            first = evidence.stated.get("kernel.xid_processes")
            where = first.line if first is not None else LogLine(self.source, number, self._quote(line, literal, at=at))
            evidence.stated["kernel.xid_processes"] = StatedFact("kernel.xid_processes", len(evidence.xid_pids), where)
            return
        known = evidence.stated.get(name)
        if known is None:
            evidence.stated[name] = StatedFact(name, value, LogLine(self.source, number, self._quote(line, literal, at=at)))
        elif known.value != value:  # two pods, two runs: which one the error belongs to is not known
            seen = evidence.conflicts.setdefault(name, [known.value])
            if value not in seen:
                seen.append(value)

    def finish(self) -> None:
        """At the end of the input: a traceback whose last exception line no signature knows is an unknown error line
        (``evidence.unmatched``), so a failed job never reads as "no known error"; without a traceback, so is the last
        exception line that opens its line (a paste of the failure's last line)."""
        last = self.last_exception if self.traceback else self.last_leading_exception
        if last is not None and not last[1]:
            number, line, name, part, at = last[0]
            self.evidence.unmatched.append(LogLine(self.source, number, self._quote(line, name, part, at)))
