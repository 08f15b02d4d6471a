"""``data.family-exists``: every release belongs to a family of the catalog."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.family-exists", Severity.error, "A release's family is listed in releases/families.yaml.", order=40, needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report releases whose ``family`` is not in the family catalog."""
    families = corpus.kb.families
    for doc, record in corpus.releases():
        if record.family not in families:
            known = ", ".join(sorted(families)) or "none: releases/families.yaml is missing"
            yield Issue(doc.path, ("family",), f"family {record.family!r} is not in the family catalog (known: {known})")
