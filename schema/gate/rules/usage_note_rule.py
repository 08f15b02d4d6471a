"""``data.usage-note-rule``: a usage note enforced by the checker names a real checker rule."""

from __future__ import annotations

import difflib
from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.usage-note-rule", Severity.error,
           "usage_notes[].rule is the id of a lingjun-check rule.", order=190, needs=("checker_rules",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report usage-note rule ids the checker does not have (:attr:`Corpus.checker_rules`, from its registry)."""
    known = corpus.checker_rules or frozenset()
    for doc, record in corpus.releases():
        for index, note in enumerate(record.usage_notes):
            if note.rule is not None and note.rule not in known:
                close = difflib.get_close_matches(note.rule, sorted(known), n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                yield Issue(doc.path, ("usage_notes", index, "rule"), f"{note.rule!r} is not a lingjun-check rule{hint}")
