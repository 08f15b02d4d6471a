"""``data.duplicate-component``: a component appears once per CPU architecture in a release."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.duplicate-component", Severity.error,
           "An image (a release or each variant) and each runtime lists a component once for any CPU architecture "
           "(no entry may overlap another of the same id).", order=70)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a second entry of the same id whose architectures overlap the first (no architectures = all),
    list by list (an image's own list and each runtime's are separate: a runtime may carry its own torch)."""
    for listed in corpus.component_lists():
        doc = listed.doc
        where = ".".join(str(part) for part in (*listed.loc, "components"))
        seen: dict[str, list[tuple[int, frozenset]]] = {}
        for index, entry in enumerate(listed.components):
            archs = frozenset(entry.architectures)
            for other_index, other in seen.get(entry.id, []):
                if not archs or not other or archs & other:
                    shared = ", ".join(sorted(a.value for a in archs & other)) if archs and other else "all architectures"
                    yield Issue(doc.path, (*listed.loc, "components", index, "id"),
                                f"{entry.id!r} is already listed as {where}.{other_index} for {shared}; "
                                "keep one entry (a page that prints it twice is noted in source_conflicts)")
                    break
            seen.setdefault(entry.id, []).append((index, archs))
