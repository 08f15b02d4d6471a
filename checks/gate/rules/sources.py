"""``data.sources``: records cite the pages their facts come from."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.schema.models import FamilyRole, Severity


@gate_rule("data.sources", Severity.error,
           "Every release and known issue cites at least one page, no record cites the same URL twice, "
           "and product families cite a page (warning).")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report records without sources and repeated source URLs."""
    for doc in corpus.documents:
        if doc.kind not in ("release", "known-issue"):
            continue
        sources = doc.model.sources  # type: ignore[attr-defined]
        if not sources:
            yield Issue(doc.path, ("sources",), "cite at least one official page this record comes from")
        seen: set[str] = set()
        for index, source in enumerate(sources):
            if source.url in seen:
                yield Issue(doc.path, ("sources", index, "url"), f"{source.url} is cited twice", Severity.warning)
            seen.add(source.url)
    for doc in corpus.of_kind("families"):
        for index, family in enumerate(doc.model.families):  # type: ignore[attr-defined]
            if family.role is FamilyRole.product and not family.sources:
                yield Issue(doc.path, ("families", index, "id"),
                            f"family {family.id!r} cites no page; add its official page to sources", Severity.warning)
