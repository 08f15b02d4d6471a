"""``data.catalog-not-loaded``: say which catalog failed the schema and which rules therefore did not run.

A catalog document (``releases/components.yaml``, ``releases/families.yaml``, a reference table) that
fails the schema is left out of the corpus, all of it: one entry without ``probe`` drops the whole
component catalog.  Rules that read it (:attr:`~lingjun.schema.gate.rules.GateRule.needs`) would then
report every reference to it as missing ("component 'ubuntu' is not in the catalog" hundreds of times),
consequences of one mistake, as if the catalog were absent.  The runner skips them, and this rule
says so once per file, at the file, as info: the file's own schema errors are the ones to fix.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.gate.rules._registry import GATE_RULES
from lingjun.schema.models import Severity


@gate_rule("data.catalog-not-loaded", Severity.info,
           "A catalog file (components, families, reference tables) with schema errors is named once, with the rules "
           "that read it and did not run; they would report every reference to it as missing.", order=181)
def check(corpus: Corpus) -> Iterator[Issue]:
    """One info per catalog file in :attr:`Corpus.unloaded_catalogs` that some rule needs."""
    for kind, paths in sorted(corpus.unloaded_catalogs.items()):
        skipped = sorted(rule.id for rule in GATE_RULES.values() if kind in rule.needs)
        if not skipped:
            continue
        for path in paths:
            yield Issue(path, (), f"not checked: {path} did not load (see its errors), so {', '.join(skipped)} "
                                  "did not run; fix its errors and validate again")
