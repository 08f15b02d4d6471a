"""``data.introduced``: a component marked new in a release is not listed by the family's earlier releases.

``introduced: true`` on a component entry records that the release's own
page calls the component new, and the site then shows "new, as <release>'s
page states" where the previous list is not complete.  The rule looks back
from the image through the same image (the same variant, by id) of the
family's earlier releases, down to the nearest one whose component list is
``complete`` (a partial list in between does not show whether the component
was there, the complete one does); an earlier release without that image is
skipped.  When one of them lists the component, the claim contradicts the
records; it is a warning naming that release, unless a ``source_conflicts``
entry of the release names the component (``components.<id>``, or
``variants.<variant>.components.<id>`` for a variant), saying which reading it
keeps.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus, matching_image
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.gate.rules.presence_unknown import conflict_prefix
from lingjun.schema.models import ListState, Severity
from lingjun.schema.release_images import release_images


@gate_rule("data.introduced", Severity.warning,
           "A component marked `introduced` (the page calls it new) is not listed by the same image (variant) of the "
           "family's earlier releases, back to the nearest one whose component list is complete, unless a "
           "source_conflicts entry names it.", order=125)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each image's ``introduced`` entries with the same image of the family's earlier releases."""
    for releases in corpus.ordered_families.values():  # data.family-incomplete and data.release-order name the rest
        for position, (doc, record) in enumerate(releases):
            explained = {c.field for c in record.source_conflicts}
            for image_index, image in enumerate(release_images(record)):
                loc = ("variants", image_index) if image.variant is not None else ()
                prefix = conflict_prefix(image.variant_id)
                for index, entry in enumerate(image.components):
                    if not entry.introduced or f"{prefix}{entry.id}" in explained:
                        continue
                    for _, earlier_record in reversed(releases[:position]):
                        earlier = matching_image(earlier_record, image.variant_id)
                        if earlier is None:
                            continue
                        listed = [e.version for e in earlier.components if e.id == entry.id]
                        if listed:
                            yield Issue(doc.path, (*loc, "components", index, "introduced"),
                                        f"{entry.id} is marked new in {image.ref}, but {earlier.ref} lists it "
                                        f"({listed[0]}); remove `introduced`, or add a source_conflicts entry whose "
                                        f"field is `{prefix}{entry.id}` if the page says so anyway")
                            break
                        if earlier.component_list is ListState.complete:
                            break
