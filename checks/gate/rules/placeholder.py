"""``data.placeholder``: no placeholder left by ``lingjun-kb new`` remains."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.checks.gate.walk import iter_strings
from lingjun.schema.models import Severity

#: the marker ``lingjun-kb new`` writes into every value the release engineer must fill in
PLACEHOLDER = "TODO(lingjun-kb new)"
#: the placeholder it writes where only an id fits (``known_issues``)
PLACEHOLDER_ID = "todo.lingjun-kb-new"


@gate_rule("data.placeholder", Severity.error,
           f"No text still holds the {PLACEHOLDER} (or id {PLACEHOLDER_ID}) marker that `lingjun-kb new` writes.")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every string holding the placeholder marker."""
    for doc in corpus.documents:
        if doc.kind != "release":
            continue
        dumped = doc.model.model_dump_json()
        if PLACEHOLDER not in dumped and PLACEHOLDER_ID not in dumped:
            continue  # the JSON dump is a fast pre-filter; the walk below finds the places
        for loc, text in iter_strings(doc.model):
            if PLACEHOLDER in text or text == PLACEHOLDER_ID:
                yield Issue(doc.path, loc, f"placeholder not filled in: {text!r}; write the real value or remove the entry")
