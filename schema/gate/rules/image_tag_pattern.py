"""``data.image-tag-pattern``: tags start with the release version and references follow the family's registry.

When a tag is wrong the reference is never checked against that wrong tag
(that would ask the user to copy the mistake into the reference): if the
tag starts with another ``YY.MM`` (a typo such as ``25.01-serverless`` in
the 25.10 record) the expected reference is built from the corrected tag
(``25.10-serverless``); otherwise the message only says that the reference
does not follow the family pattern.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.image_tags import expected_reference
from lingjun.schema.models import Severity

_VERSION_PREFIX = re.compile(r"^[0-9]{2}\.[0-9]{2}(?=-|$)")


def corrected_tag(tag: str, version: str) -> Optional[str]:
    """``tag`` with its leading ``YY.MM`` replaced by ``version`` (``25.01-serverless`` -> ``25.10-serverless``).

    None when ``tag`` does not start with a ``YY.MM`` followed by ``-`` or the end.
    """
    match = _VERSION_PREFIX.match(tag)
    return version + tag[match.end():] if match else None


def _tag_matches(tag: str, version: str) -> bool:
    return tag == version or tag.startswith(version + "-")


@gate_rule("data.image-tag-pattern", Severity.error,
           "An image tag starts with the release version (25.07, 25.07-serverless) and its reference is the "
           "family's public_registry_pattern filled in.", order=90)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report tags that do not start with ``<version>`` or ``<version>-`` and references that do not match."""
    for doc, record in corpus.releases():
        family = corpus.kb.families.get(record.family)
        for index, image in enumerate(record.image_tags):
            tag_ok = _tag_matches(image.tag, record.version)
            fixed = image.tag if tag_ok else corrected_tag(image.tag, record.version)
            if not tag_ok:
                hint = f"it should be {fixed!r}" if fixed else f"e.g. {record.version}-serverless"
                yield Issue(doc.path, ("image_tags", index, "tag"),
                            f"tag {image.tag!r} does not start with the release version {record.version!r} ({hint})")
            if family is None:
                continue
            pattern = family.public_registry_pattern
            if fixed is not None:
                expected = expected_reference(pattern, family.image_name, fixed)
                if image.reference != expected:
                    yield Issue(doc.path, ("image_tags", index, "reference"),
                                f"reference should be {expected!r} (family pattern {pattern!r}"
                                + ("" if tag_ok else f" with the corrected tag {fixed!r}")
                                + f"), not {image.reference!r}")
            elif image.reference != expected_reference(pattern, family.image_name, image.tag):
                yield Issue(doc.path, ("image_tags", index, "reference"),
                            f"reference {image.reference!r} does not follow the family pattern {pattern!r}; "
                            "correct the tag first, then fill the pattern with it")
