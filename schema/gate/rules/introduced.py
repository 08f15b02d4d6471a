"""``data.introduced``: a component marked new in a release is not listed by the family's earlier releases.

``introduced: true`` on a component entry records that the release's own
page calls the component new, and the site then shows "new, as <release>'s
page states" where the previous list is not complete.  The rule looks back
from the release through the family's earlier releases down to the nearest
one whose component list is ``complete`` (a partial list in between does not
show whether the component was there, the complete one does).  When one of
them lists the component, the claim contradicts the records; it is a
warning naming that release, unless a ``source_conflicts`` entry of the
release names the component (``components.<id>``), saying which reading it
keeps.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ListState, Severity


@gate_rule("data.introduced", Severity.warning,
           "A component marked `introduced` (the page calls it new) is not listed by the family's earlier releases, back "
           "to the nearest one whose component list is complete, unless a source_conflicts entry names it.", order=125)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each release's ``introduced`` entries with the family's earlier releases, back to a complete list."""
    for releases in corpus.complete_families.values():  # data.family-incomplete names the rest
        for position, (doc, record) in enumerate(releases):
            explained = {c.field for c in record.source_conflicts}
            for index, entry in enumerate(record.components):
                if not entry.introduced or f"components.{entry.id}" in explained:
                    continue
                for _, earlier in reversed(releases[:position]):
                    listed = [e.version for e in earlier.components if e.id == entry.id]
                    if listed:
                        yield Issue(doc.path, ("components", index, "introduced"),
                                    f"{entry.id} is marked new in {record.ref}, but {earlier.ref} lists it "
                                    f"({listed[0]}); remove `introduced`, or add a source_conflicts entry whose "
                                    f"field is `components.{entry.id}` if the page says so anyway")
                        break
                    if earlier.component_list is ListState.complete:
                        break
