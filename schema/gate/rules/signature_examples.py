"""``data.signature-examples``: every example line matches its own signature and no other one.

Matching is :func:`lingjun.checks.core.line_pattern.matches`, the definition the checker uses: a line
matches a signature when any of its patterns matches it.  An example that another signature matches too
is refused unless one of the two lists the other in ``overlaps`` (the checker would report both).
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.core.line_pattern import matches
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ErrorSignature, Severity

__all__ = ["check", "signature_matches"]

Compiled = list[tuple[str, Optional["re.Pattern[str]"]]]


def _compile(signature: ErrorSignature) -> Compiled:
    return [(p.literal, re.compile(p.regex) if p.regex is not None else None) for p in signature.patterns]


def signature_matches(patterns: Compiled, line: str) -> bool:
    """True when any of ``patterns`` (``(literal, compiled regex or None)``) matches ``line``."""
    return any(matches(literal, regex, line) for literal, regex in patterns)


@gate_rule("data.signature-examples", Severity.error,
           "Every error-signature example matches its own signature and no other one that overlaps does not name.",
           order=251)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Match every example against every signature (``data.signature-regex`` has timed the expressions)."""
    signatures = [(doc, signature, _compile(signature)) for doc, signature in corpus.signatures()]
    for doc, signature, own in signatures:
        for index, example in enumerate(signature.examples):
            loc = ("examples", index, "line")
            if not signature_matches(own, example.line):
                literals = ", ".join(repr(p.literal) for p in signature.patterns)
                yield Issue(doc.path, loc, f"example does not match signature {signature.id!r} (no pattern of "
                                           f"{literals} with its regex matches it); fix the pattern or the example")
            for _, other, theirs in signatures:
                if other is signature or other.id == signature.id:
                    continue
                if signature.id in other.overlaps or other.id in signature.overlaps:
                    continue
                if signature_matches(theirs, example.line):
                    yield Issue(doc.path, loc, f"example of {signature.id!r} also matches signature {other.id!r}; "
                                               f"narrow a pattern, or list {other.id!r} in overlaps when both apply")
