"""``data.unique-image-tag``: an image tag and its reference belong to one image of one release.

Every image counts: a release's own tags and each variant's (:func:`~lingjun.schema.release_images.release_images`),
so two variants of one release, or variants of two releases, never share a tag.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.unique-image-tag", Severity.error,
           "No two images (releases, variants, or two entries of one image) publish the same image tag or reference.",
           order=80)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report image tags and references already claimed by an earlier entry of any image of any release."""
    tags: dict[tuple[str, str], str] = {}
    references: dict[str, str] = {}
    for located in corpus.images():
        doc, record = located.doc, located.record
        for index, image in enumerate(located.image.image_tags):
            loc = (*located.loc, "image_tags", index)
            where = f"{located.label} {'.'.join(str(part) for part in loc)}"
            key = (record.family, image.tag)
            if key in tags:
                yield Issue(doc.path, (*loc, "tag"), f"tag {image.tag!r} is already used by {tags[key]}")
            else:
                tags[key] = where
            if image.reference in references:
                yield Issue(doc.path, (*loc, "reference"),
                            f"reference {image.reference!r} is already used by {references[image.reference]}")
            else:
                references[image.reference] = where
