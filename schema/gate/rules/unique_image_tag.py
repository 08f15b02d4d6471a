"""``data.unique-image-tag``: an image tag and its reference belong to one release."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.unique-image-tag", Severity.error,
           "No two releases (or two entries of one release) publish the same image tag or reference.", order=80)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report image tags and references already claimed by an earlier entry."""
    tags: dict[tuple[str, str], str] = {}
    references: dict[str, str] = {}
    for doc, record in corpus.releases():
        for index, image in enumerate(record.image_tags):
            where = f"{record.ref} image_tags.{index}"
            key = (record.family, image.tag)
            if key in tags:
                yield Issue(doc.path, ("image_tags", index, "tag"), f"tag {image.tag!r} is already used by {tags[key]}")
            else:
                tags[key] = where
            if image.reference in references:
                yield Issue(doc.path, ("image_tags", index, "reference"),
                            f"reference {image.reference!r} is already used by {references[image.reference]}")
            else:
                references[image.reference] = where
