"""``data.image-tag-pattern``: tags start with the release version and references follow the family's registry."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.schema.models import Severity


def expected_reference(pattern: str, image: str, tag: str) -> str:
    """Fill ``{image}`` and ``{tag}`` of a registry pattern (``registry/ns/{image}:{tag}``)."""
    return pattern.replace("{image}", image).replace("{tag}", tag)


@gate_rule("data.image-tag-pattern", Severity.error,
           "An image tag starts with the release version (25.07, 25.07-serverless) and its reference is the "
           "family's public_registry_pattern filled in.")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report tags that do not start with ``<version>`` or ``<version>-`` and references that do not match."""
    for doc, record in corpus.releases():
        family = corpus.kb.families.get(record.family)
        for index, image in enumerate(record.image_tags):
            if not (image.tag == record.version or image.tag.startswith(record.version + "-")):
                yield Issue(doc.path, ("image_tags", index, "tag"),
                            f"tag {image.tag!r} does not start with the release version {record.version!r} "
                            f"(e.g. {record.version}-serverless)")
            if family is not None:
                expected = expected_reference(family.public_registry_pattern, family.image_name, image.tag)
                if image.reference != expected:
                    yield Issue(doc.path, ("image_tags", index, "reference"),
                                f"reference should be {expected!r} (family pattern "
                                f"{family.public_registry_pattern!r}), not {image.reference!r}")
