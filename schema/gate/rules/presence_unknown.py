"""``data.presence-unknown``: a component whose presence is unknown is named as such, consistently.

A ``source_conflicts`` entry on ``components.<id>`` that keeps no value
(``kept`` left out) while the record lists no entry for ``<id>`` says the
record does not know whether the image ships the component.  The site then
must not report it as added or removed, so the record names it in
``presence_unknown``; the rule reports such a conflict whose component is
not named there, a ``presence_unknown`` id the record also lists in
``components`` (it cannot be both listed and of unknown presence), one no
source conflict explains, and an id named twice.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity



def conflict_prefix(variant_id: str | None) -> str:
    """The ``source_conflicts[].field`` prefix naming a component of an image: ``components.`` for a release
    without variants, ``variants.<id>.components.`` for a variant (``variants.vllm.components.flash-attn``)."""
    return f"variants.{variant_id}.components." if variant_id else "components."


@gate_rule("data.presence-unknown", Severity.error,
           "A component a source conflict leaves unknown (no value kept, not listed) is named in the presence_unknown "
           "of its image (the release, or the variant: field variants.<id>.components.<component>); every "
           "presence_unknown id is explained by such a conflict and is not also listed.", order=77)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each image's ``presence_unknown`` with its ``components`` and the record's ``source_conflicts``."""
    for located in corpus.images():
        doc, record, image = located.doc, located.record, located.image
        prefix = conflict_prefix(image.variant_id)
        listed = {e.id for e in image.components}
        unknown = {c.field[len(prefix):]: i for i, c in enumerate(record.source_conflicts)
                   if c.field.startswith(prefix) and c.kept is None and c.field[len(prefix):] not in listed}
        named: set[str] = set()
        for index, component in enumerate(image.presence_unknown):
            where = (*located.loc, "presence_unknown", index)
            if component in named:
                yield Issue(doc.path, where, f"{component} is named twice in presence_unknown")
                continue
            named.add(component)
            if component in listed:
                yield Issue(doc.path, where,
                            f"{component} is in presence_unknown but "
                            f"{f'variant {image.variant_id}' if image.variant_id else 'the record'} lists it in components; "
                            "remove one of the two")
            elif component not in unknown:
                yield Issue(doc.path, where,
                            f"{component} is in presence_unknown but no source_conflicts entry on "
                            f"`{prefix}{component}` (without `kept`) says why; add one")
        for component, index in unknown.items():
            if component not in named:
                shown = ".".join(str(p) for p in (*located.loc, "presence_unknown"))
                yield Issue(doc.path, ("source_conflicts", index, "field"),
                            f"source conflict {record.source_conflicts[index].id} leaves {component} unknown (no "
                            f"value kept, not listed), but {shown} does not name it; add "
                            f"`presence_unknown: [{component}]` there so the site never reports it added or removed")
