"""``data.placeholder``: no placeholder left by ``lingjun-kb new`` remains."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.checks.gate.walk import iter_strings
from lingjun.schema.models import Severity

#: the marker ``lingjun-kb new`` writes into every value the release engineer must fill in
PLACEHOLDER = "TODO(lingjun-kb new)"


@gate_rule("data.placeholder", Severity.error,
           f"No text still holds the {PLACEHOLDER} marker that `lingjun-kb new` writes.")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every string holding the placeholder marker."""
    for doc in corpus.documents:
        if doc.kind != "release" or PLACEHOLDER not in doc.model.model_dump_json():
            continue  # the JSON dump is a fast pre-filter; the walk below finds the places
        for loc, text in iter_strings(doc.model):
            if PLACEHOLDER in text:
                yield Issue(doc.path, loc, f"placeholder not filled in: {text!r}; write the real value or remove the entry")
