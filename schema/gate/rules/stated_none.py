"""``data.stated-none``: a list the record says the page declares empty ("none") holds no item.

``stated_none: [bug_fixes]`` records that the official page says there are
no bug fixes; the site prints that instead of "not recorded".  A release
that says so and still lists bug fixes claims two things at once; the same
section named twice is a typo.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.stated-none", Severity.error,
           "A list named in stated_none (the page says 'none') holds no item, and is named once.", order=76)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report each ``stated_none`` section whose list in the same record is not empty, or is named twice."""
    for doc, record in corpus.releases():
        seen: set[str] = set()
        for index, section in enumerate(record.stated_none):
            name = section.value
            if name in seen:
                yield Issue(doc.path, ("stated_none", index), f"{name} is named twice in stated_none")
                continue
            seen.add(name)
            items = getattr(record, name)
            if items:
                yield Issue(doc.path, ("stated_none", index),
                            f"stated_none says the page lists no {name.replace('_', ' ')}, but the record lists "
                            f"{len(items)} ({name}); remove one of the two")
