"""``data.duplicate-component``: a component appears once per CPU architecture in a release."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.duplicate-component", Severity.error,
           "A release lists a component once for any CPU architecture (no entry may overlap another of the same id).", order=70)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a second entry of the same id whose architectures overlap the first (no architectures = all)."""
    for doc, record in corpus.releases():
        seen: dict[str, list[tuple[int, frozenset]]] = {}
        for index, entry in enumerate(record.components):
            archs = frozenset(entry.architectures)
            for other_index, other in seen.get(entry.id, []):
                if not archs or not other or archs & other:
                    shared = ", ".join(sorted(a.value for a in archs & other)) if archs and other else "all architectures"
                    yield Issue(doc.path, ("components", index, "id"),
                                f"{entry.id!r} is already listed as components.{other_index} for {shared}; "
                                "keep one entry (a page that prints it twice is noted in source_conflicts)")
                    break
            seen.setdefault(entry.id, []).append((index, archs))
