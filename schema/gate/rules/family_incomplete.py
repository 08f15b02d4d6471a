"""``data.family-incomplete``: say which families the family-wide rules skipped, and why.

A release record with errors is left out of the corpus.  Rules that judge
a family's records as a set (:mod:`~lingjun.schema.gate.rules.single_current`,
:mod:`~lingjun.schema.gate.rules.component_downgrade`) would then draw
conclusions from an incomplete set, such as "the family has no current
release" when the current record is the one that failed, so they skip such
families (:attr:`~lingjun.schema.gate.corpus.Corpus.complete_families`).
This rule reports that once per family, as info, at its first failing file.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

#: the rules that skip incomplete families
SKIPPING_RULES = ("data.single-current", "data.component-downgrade")


@gate_rule("data.family-incomplete", Severity.info,
           "A family with a release record that has errors is left out of the family-wide rules "
           "(single current release, downgrades); said once per family.", order=180)
def check(corpus: Corpus) -> Iterator[Issue]:
    """One info per family listed in :attr:`Corpus.incomplete_families` that also has records that loaded."""
    for family, paths in corpus.incomplete_families.items():
        if family not in corpus.by_family:
            continue  # nothing of the family loaded: there was nothing to compare anyway
        count = len(paths)
        yield Issue(paths[0], (),
                    f"family {family!r}: {count} of its records {'has' if count == 1 else 'have'} errors, so "
                    f"{' and '.join(SKIPPING_RULES)} did not run for it (they would judge an incomplete set of "
                    "records); fix the errors and validate again")
