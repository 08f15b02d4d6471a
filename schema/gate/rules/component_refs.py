"""``data.component-refs``: component ids named outside the component list resolve in the catalog."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.component-refs", Severity.error,
           "Component ids in highlights, bug fixes, acknowledged downgrades, each image's presence_unknown and known "
           "issues are in the catalog.", order=60, needs=("components",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report component ids that the catalog does not hold."""
    catalog = corpus.kb.components

    def unknown(component_id: str) -> str:
        return f"component {component_id!r} is not in releases/components.yaml"

    for doc, record in corpus.releases():
        for section in ("highlights", "bug_fixes"):
            for i, item in enumerate(getattr(record, section)):
                for j, component_id in enumerate(item.components):
                    if component_id not in catalog:
                        yield Issue(doc.path, (section, i, "components", j), unknown(component_id))
        for i, downgrade in enumerate(record.acknowledged_downgrades):
            if downgrade.component not in catalog:
                yield Issue(doc.path, ("acknowledged_downgrades", i, "component"), unknown(downgrade.component))
    for located in corpus.images():
        for i, component_id in enumerate(located.image.presence_unknown):
            if component_id not in catalog:
                yield Issue(located.doc.path, (*located.loc, "presence_unknown", i), unknown(component_id))
    for doc, issue in corpus.known_issues():
        for component_id in issue.affects.components:
            if component_id not in catalog:
                yield Issue(doc.path, ("affects", "components", component_id), unknown(component_id))
        if issue.condition is not None:
            for component_id in issue.condition.components:
                if component_id not in catalog:
                    yield Issue(doc.path, ("condition", "components", component_id), unknown(component_id))
