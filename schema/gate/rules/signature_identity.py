"""``data.signature-identity``: error-signature ids are unique, each written in ``troubleshooting/<id>.yaml``."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["check"]

_SUFFIXES = (".yaml", ".yml")


@gate_rule("data.signature-identity", Severity.error,
           "Every error-signature id is used once and is its file's name (troubleshooting/<id>.yaml).", order=253)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a signature whose id another file already uses, or whose file is named after something else."""
    first: dict[str, str] = {}
    for doc, signature in corpus.signatures():
        stem = doc.path.name
        for suffix in _SUFFIXES:
            if stem.endswith(suffix):
                stem = stem[: -len(suffix)]
                break
        if stem != signature.id:
            yield Issue(doc.path, ("id",), f"signature {signature.id!r} is written in {doc.path.name}; "
                                           f"rename the file to {signature.id}.yaml or change the id")
        if signature.id in first:
            yield Issue(doc.path, ("id",), f"signature id {signature.id!r} is already used by {first[signature.id]}")
        else:
            first[signature.id] = str(doc.path)
