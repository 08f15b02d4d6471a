"""``data.unique-release``: each family+version is recorded once."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.unique-release", Severity.error, "Each family and release version is recorded by one file only.", order=10)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every release record whose ``family:version`` an earlier file already holds."""
    first: dict[str, str] = {}
    for doc, record in corpus.releases():
        if record.ref in first:
            yield Issue(doc.path, ("version",), f"{record.ref} is already recorded in {first[record.ref]}")
        else:
            first[record.ref] = str(doc.path)
