"""``data.unrecorded-release``: a family's ``unrecorded_releases`` name only releases we hold no record of.

An official page may name a release whose own page nobody could read; the family page then lists it
as "published, not yet recorded".  Once a record of it is added, the entry must go (the page would
otherwise show the release twice, once without its facts).  The same release listed twice, or a tag
it names that a recorded image already publishes, is an error too.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.unrecorded-release", Severity.error,
           "An unrecorded_releases entry names a release that has no record, once per family, and none of its "
           "image tags is published by a recorded image.", order=45)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each family's ``unrecorded_releases`` with the release records and their tags."""
    refs = corpus.release_refs
    tags = {(located.record.family, t.tag): located.label for located in corpus.images() for t in located.image.image_tags}
    for doc in corpus.of_kind("families"):
        for f_index, family in enumerate(doc.model.families):  # type: ignore[attr-defined]
            seen: dict[str, int] = {}
            for u_index, entry in enumerate(family.unrecorded_releases):
                loc = ("families", f_index, "unrecorded_releases", u_index)
                ref = f"{family.id}:{entry.version}"
                if entry.version in seen:
                    yield Issue(doc.path, (*loc, "version"),
                                f"{ref} is listed twice in unrecorded_releases (first as "
                                f"unrecorded_releases.{seen[entry.version]}); keep one entry")
                    continue
                seen[entry.version] = u_index
                if ref in refs:
                    yield Issue(doc.path, (*loc, "version"),
                                f"{ref}: it is recorded now: remove it from unrecorded_releases")
                    continue
                for t_index, tag in enumerate(entry.image_tags):
                    owner = tags.get((family.id, tag))
                    if owner is not None:
                        yield Issue(doc.path, (*loc, "image_tags", t_index),
                                    f"tag {tag!r} is published by the recorded image {owner}; the entry names a "
                                    "recorded release under another identifier: remove it, or correct the tag")
