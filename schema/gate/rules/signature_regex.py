"""``data.signature-regex``: every error-signature regex runs in bounded time on hostile lines.

The checker searches each pattern's ``regex`` in every log line that holds the literal, and log lines
can be long and repetitive.  The schema already refuses an expression that does not compile; this rule
refuses one that can backtrack without bound:

* statically, a quantifier that repeats an unbounded quantifier (``(a+)+``, ``(?:\\w*\\s)*``), the shape
  of catastrophic backtracking; such an expression is not run at all;
* by timing, each expression searched in hostile lines of 8192 characters (one character repeated, for
  characters common in logs and every character of the pattern; each example line repeated; the literal
  followed by repeated characters): a search that takes more than :data:`BUDGET_S` is refused.

Where the platform allows it (the main thread of a Unix process) a search is also interrupted after
:data:`HARD_LIMIT_S`, so that one expression the static test lets through cannot stop the gate.
"""

from __future__ import annotations

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

__all__ = ["BUDGET_S", "LINE_LENGTH", "hostile_lines", "nested_quantifier", "slowest_search", "check"]

#: the longest one search may take on a hostile line
BUDGET_S = 0.05
#: a search that runs this long is interrupted (where signals allow it) and reported
HARD_LIMIT_S = 1.0
#: the length of a hostile line
LINE_LENGTH = 8192
#: characters that fill log lines
_COMMON = "a 0.:/-_=,'\"\t"


class _Interrupted(Exception):
    pass


def _repeats(op: object) -> bool:
    return str(op) in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _contains_unbounded_repeat(items: Iterable) -> bool:
    for op, arg in items:
        if _repeats(op):
            low, high, sub = arg
            if high == MAXREPEAT or high > 64:
                return True
            if _contains_unbounded_repeat(sub):
                return True
        elif _walk_children(op, arg, _contains_unbounded_repeat):
            return True
    return False


def _walk_children(op: object, arg: object, visit) -> bool:
    name = str(op)
    if name == "SUBPATTERN":
        return visit(arg[-1])
    if name == "BRANCH":
        return any(visit(branch) for branch in arg[1])
    if name in ("ASSERT", "ASSERT_NOT"):
        return visit(arg[1])
    if name == "GROUPREF_EXISTS":
        return any(visit(part) for part in arg[1:] if part is not None)
    if name == "ATOMIC_GROUP":
        return visit(arg)
    return False


def _nested(items: Iterable) -> bool:
    for op, arg in items:
        if _repeats(op):
            low, high, sub = arg
            if (high == MAXREPEAT or high > 1) and _contains_unbounded_repeat(sub):
                return True
            if _nested(sub):
                return True
        elif _walk_children(op, arg, _nested):
            return True
    return False


def nested_quantifier(regex: str) -> bool:
    """True when ``regex`` repeats a part that itself holds an unbounded (or over 64) repetition.

    >>> nested_quantifier(r"(a+)+b"), nested_quantifier(r"(?:\\w+\\s?)*x"), nested_quantifier(r"NET/IB ?: ?\\w+")
    (True, True, False)
    """
    return _nested(_sre_parse.parse(regex))


def hostile_lines(regex: str, literal: str, examples: Iterable[str]) -> list[str]:
    """The lines a pattern is timed on, each :data:`LINE_LENGTH` characters long."""
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
    try:
        items = list(_sre_parse.parse(regex))
    except (re.error, RecursionError, OverflowError):
        return []
    runs: list[str] = []
    current = ""
    for op, arg in items:
        if str(op) == "LITERAL":
            current += chr(arg)
            continue
        if current:
            runs.append(current)
        current = ""
    if current:
        runs.append(current)
    return list(dict.fromkeys(run for run in runs if run.strip()))


def _search_time(compiled: "re.Pattern[str]", line: str) -> float:
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
    head = line[:24]
    return f"{head!r}... ({len(line)} characters)"


@gate_rule("data.signature-regex", Severity.error,
           "Every error-signature regex is unanchored at the line start, free of nested quantifiers and searches a hostile "
           "8192-character line in under 50 ms.",
           order=250)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Time every pattern's regex of every signature on :func:`hostile_lines`."""
    for doc, signature in corpus.signatures():
        examples = [example.line for example in signature.examples]
        for index, pattern in enumerate(signature.patterns):
            if pattern.regex is None:
                continue
            loc = ("patterns", index, "regex")
            if pattern.regex.startswith("^") or pattern.regex.startswith("\\A"):
                yield Issue(doc.path, loc, f"regex {pattern.regex!r} is anchored to the start of the line; logs put prefixes "
                                           "before the message (kubectl logs --prefix, [rank0]:, time stamps), so drop the anchor")
                continue
            if nested_quantifier(pattern.regex):
                yield Issue(doc.path, loc, f"regex {pattern.regex!r} repeats a part that itself repeats without bound "
                                           "(catastrophic backtracking on long lines); rewrite it without the nested quantifier")
                continue
            compiled = re.compile(pattern.regex)
            took, line = slowest_search(compiled, hostile_lines(pattern.regex, pattern.literal, examples))
            if took > BUDGET_S and line is not None:
                shown = "over %.0f s (interrupted)" % HARD_LIMIT_S if took == float("inf") else "%.0f ms" % (took * 1000)
                yield Issue(doc.path, loc, f"regex {pattern.regex!r} takes {shown} on the hostile line {_describe(line)}, "
                                           f"more than {BUDGET_S * 1000:.0f} ms; make it narrower")
