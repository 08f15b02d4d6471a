"""``data.sources``: records cite the pages their facts come from.

The schema already requires at least one source on releases and known
issues; this rule adds the family catalog (every family cites a page) and
catches the same URL cited twice in one record.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.sources", Severity.error,
           "Every family cites at least one page (releases and known issues must by schema); "
           "no record cites the same URL twice (warning).", order=200)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report families without sources and repeated source URLs."""
    for doc in corpus.documents:
        if doc.kind not in ("release", "known-issue"):
            continue
        seen: set[str] = set()
        for index, source in enumerate(doc.model.sources):  # type: ignore[attr-defined]
            if source.url in seen:
                yield Issue(doc.path, ("sources", index, "url"), f"{source.url} is cited twice", Severity.warning)
            seen.add(source.url)
    for doc in corpus.of_kind("families"):
        for index, family in enumerate(doc.model.families):  # type: ignore[attr-defined]
            if not family.sources:
                yield Issue(doc.path, ("families", index, "id"),
                            f"family {family.id!r} cites no page; add its official page to sources")
