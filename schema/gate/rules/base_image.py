"""``data.base-image``: a release's base image is a recorded release of a base family."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.base-image", Severity.error,
           "base_image.release names a recorded release whose family has role `base` (ngc-pytorch:25.01).", order=160,
           needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report base-image references that are unrecorded or point at a product family."""
    refs = corpus.release_refs
    for doc, record in corpus.releases():
        if record.base_image is None:
            continue
        ref = record.base_image.release
        family = ref.partition(":")[0]
        if not corpus.is_base_family(family):
            yield Issue(doc.path, ("base_image", "release"),
                        f"{ref}: family {family!r} is not a family with role `base` in releases/families.yaml")
        elif ref not in refs:
            yield Issue(doc.path, ("base_image", "release"),
                        f"base image {ref} is not recorded; add releases/{family}/{ref.partition(':')[2]}.yaml")
        elif ref == record.ref:
            yield Issue(doc.path, ("base_image", "release"), "a release cannot be its own base image")
