"""``data.catalog-unique``: catalog ids, published names and known-issue ids are unique."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

_SINGLE_KINDS = ("families", "components", "cuda-drivers", "driver-branches", "gpus", "torch-wheels")


@gate_rule("data.catalog-unique", Severity.error,
           "One file per catalog kind; family ids, component ids, published names and known-issue ids are unique.", order=30)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report second catalog files, repeated ids, and a published name claimed by two components."""
    for kind in _SINGLE_KINDS:
        docs = corpus.of_kind(kind)
        for doc in docs[1:]:
            yield Issue(doc.path, ("kind",), f"a second `{kind}` document; the first is {docs[0].path}")
    for doc in corpus.of_kind("families"):
        seen: set[str] = set()
        for index, family in enumerate(doc.model.families):  # type: ignore[attr-defined]
            if family.id in seen:
                yield Issue(doc.path, ("families", index, "id"), f"family {family.id!r} is listed twice")
            seen.add(family.id)
    for doc in corpus.of_kind("components"):
        ids: set[str] = set()
        owner: dict[str, str] = {}
        for index, component in enumerate(doc.model.components):  # type: ignore[attr-defined]
            if component.id in ids:
                yield Issue(doc.path, ("components", index, "id"), f"component {component.id!r} is listed twice")
            ids.add(component.id)
            for n, name in enumerate(component.published_names):
                other = owner.get(name)
                if other is not None and other != component.id:
                    yield Issue(doc.path, ("components", index, "published_names", n),
                                f"published name {name!r} is also claimed by component {other!r}")
                owner.setdefault(name, component.id)
    first: dict[str, str] = {}
    for doc, issue in corpus.known_issues():
        if issue.id in first:
            yield Issue(doc.path, ("id",), f"known issue {issue.id!r} is already defined in {first[issue.id]}")
        first.setdefault(issue.id, str(doc.path))
