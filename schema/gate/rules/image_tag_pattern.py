"""``data.image-tag-pattern``: tags of a ``YY.MM`` release start with it, and references follow the family's registry.

Only a release named ``YY.MM`` (``25.07``) has tags that start with its name (``25.07-serverless``).  A
dated release (``2026-10-20``: ``ppu2.2-pytorch2.10.0-...-20261020``) or one named by the page
(``sglang0.5.4.post3-250105``) is not forced to any prefix, and a tag that starts with a ``YY.MM``
is compared with the release's identifier only when that identifier is a ``YY.MM`` too.  Every tag, of
the release or of each variant, must give the reference the family's ``public_registry_pattern`` builds.

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

from lingjun.checks.core.release_order import is_year_month
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
           "An image tag of a YY.MM release starts with it (25.07, 25.07-serverless; dated and named releases are "
           "not forced to a prefix) and every reference, of the release or a variant, is the family's "
           "public_registry_pattern filled in.", order=90, needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report tags of a ``YY.MM`` release that do not start with ``<version>`` or ``<version>-``, and references
    that do not match the family pattern, for every image of every release."""
    for located in corpus.images():
        doc, record = located.doc, located.record
        family = corpus.kb.families.get(record.family)
        prefixed = is_year_month(record.version)
        for index, image in enumerate(located.image.image_tags):
            loc = (*located.loc, "image_tags", index)
            tag_ok = not prefixed or _tag_matches(image.tag, record.version)
            fixed = image.tag if tag_ok else corrected_tag(image.tag, record.version)
            if not tag_ok:
                hint = f"it should be {fixed!r}" if fixed else f"e.g. {record.version}-serverless"
                yield Issue(doc.path, (*loc, "tag"),
                            f"tag {image.tag!r} does not start with the release version {record.version!r} ({hint})")
            if family is None:
                continue
            pattern = family.public_registry_pattern
            if fixed is not None:
                expected = expected_reference(pattern, family.image_name, fixed)
                if image.reference != expected:
                    yield Issue(doc.path, (*loc, "reference"),
                                f"reference should be {expected!r} (family pattern {pattern!r}"
                                + ("" if tag_ok else f" with the corrected tag {fixed!r}")
                                + f"), not {image.reference!r}")
            elif image.reference != expected_reference(pattern, family.image_name, image.tag):
                yield Issue(doc.path, (*loc, "reference"),
                            f"reference {image.reference!r} does not follow the family pattern {pattern!r}; "
                            "correct the tag first, then fill the pattern with it")
