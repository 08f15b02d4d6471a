"""``data.release-path``: files live where the site and the tools look for them."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.release-path", Severity.error,
           "A release is stored as <family>/<release>.yaml (25.07.yaml, 2026-10-20.yaml) and a known issue as known-issues/<id>.yaml.", order=20)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each release's file (``<family>/<release>.yaml``) and each known issue's file with its family, release or id."""
    for doc, record in corpus.releases():
        expected = f"{record.family}/{record.version}.yaml"
        actual = f"{doc.path.parent.name}/{doc.path.name}"
        if actual != expected:
            yield Issue(doc.path, ("version",), f"release {record.ref} is in {actual}; move it to {expected}")
    for doc, issue in corpus.known_issues():
        if doc.path.name != f"{issue.id}.yaml" or doc.path.parent.name != "known-issues":
            yield Issue(doc.path, ("id",), f"known issue {issue.id!r} must be stored as known-issues/{issue.id}.yaml")
