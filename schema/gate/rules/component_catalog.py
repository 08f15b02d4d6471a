"""``data.component-catalog``: every component of a release is in the catalog under a published name."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.component-catalog", Severity.error,
           "Each component id of a release, a variant or a runtime is in releases/components.yaml and its name is one "
           "of that entry's published_names.", order=50, needs=("components",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report unknown component ids and names the catalog entry does not list, in every image's and runtime's list."""
    catalog = corpus.kb.components
    for listed in corpus.component_lists():
        doc = listed.doc
        for index, entry in enumerate(listed.components):
            component = catalog.get(entry.id)
            if component is None:
                guess = corpus.kb.component_for_name(entry.name)
                hint = f"; did you mean {guess.id!r}?" if guess else "; add it to releases/components.yaml"
                yield Issue(doc.path, (*listed.loc, "components", index, "id"), f"component {entry.id!r} is not in the catalog{hint}")
            elif entry.name not in component.published_names:
                names = ", ".join(repr(n) for n in component.published_names)
                yield Issue(doc.path, (*listed.loc, "components", index, "name"),
                            f"{entry.name!r} is not a published name of {entry.id!r} ({names}); "
                            "fix the spelling or add it to published_names in releases/components.yaml")
