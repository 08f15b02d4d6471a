"""``data.not-captured``: a section is not both "not captured" and "stated none", and is named once.

``not_captured: [usage_notes]`` records that the copy of the official page the
record was made from does not show that section (see
:class:`lingjun.schema.models.ReleaseRecord`); ``stated_none: [usage_notes]``
records that the page says the section is empty.  One record cannot know both.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.not-captured", Severity.error,
           "A section named in not_captured (the page's section was not seen) is not also stated none, and is named once.",
           order=77)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report each ``not_captured`` section also named in ``stated_none``, or named twice."""
    for doc, record in corpus.releases():
        said_none = {s.value for s in record.stated_none}
        seen: set[str] = set()
        for index, section in enumerate(record.not_captured):
            name = section.value
            if name in seen:
                yield Issue(doc.path, ("not_captured", index), f"{name} is named twice in not_captured")
                continue
            seen.add(name)
            if name in said_none:
                yield Issue(doc.path, ("not_captured", index),
                            f"{name} is named in not_captured (the page's section was not seen) and in stated_none "
                            f"(the page says it is empty); keep the one the page shows")
