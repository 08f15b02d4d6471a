"""``data.introduced``: a component marked new in a release is not listed by the family's previous release.

``introduced: true`` on a component entry records that the release's own
page calls the component new, and the site then shows "new, as <release>'s
page states" where the previous list is not complete.  When the previous
release of the family does list the component, the claim contradicts the
records; it is a warning unless a ``source_conflicts`` entry of the release
names the component (``components.<id>``), saying which reading it keeps.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.introduced", Severity.warning,
           "A component marked `introduced` (the page calls it new) is not listed by the family's previous release, "
           "unless a source_conflicts entry names it.", order=125)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each release's ``introduced`` entries with the previous release of its family."""
    for releases in corpus.complete_families.values():  # data.family-incomplete names the rest
        for (_, previous), (doc, record) in zip(releases, releases[1:]):
            before = {e.id: e.version for e in previous.components}
            explained = {c.field for c in record.source_conflicts}
            for index, entry in enumerate(record.components):
                if not entry.introduced or entry.id not in before:
                    continue
                if f"components.{entry.id}" in explained:
                    continue
                yield Issue(doc.path, ("components", index, "introduced"),
                            f"{entry.id} is marked new in {record.ref}, but {previous.ref} lists it "
                            f"({before[entry.id]}); remove `introduced`, or add a source_conflicts entry whose field "
                            f"is `components.{entry.id}` if the page says so anyway")
