"""``data.component-downgrade``: component versions do not go down between releases unless acknowledged."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.checks.core.version_match import parse_version
from lingjun.schema.models import ReleaseRecord, Severity


def _versions(record: ReleaseRecord) -> dict[tuple[str, frozenset], tuple[int, str]]:
    """(component id, architectures) -> (index, version) of a release's component list."""
    return {(e.id, frozenset(e.architectures)): (i, e.version) for i, e in enumerate(record.components)}


@gate_rule("data.component-downgrade", Severity.warning,
           "A component version lower than in the family's previous release is listed in acknowledged_downgrades; "
           "every acknowledgement matches a real downgrade.", order=120)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each release with the previous release of its family (PEP 440; unparseable versions are skipped)."""
    for releases in corpus.complete_families.values():  # data.family-incomplete names the rest
        for (_, previous), (doc, record) in zip(releases, releases[1:]):
            before = _versions(previous)
            acknowledged = {(a.component, a.from_version, a.to_version) for a in record.acknowledged_downgrades}
            used: set[tuple[str, str, str]] = set()
            for key, (index, version) in _versions(record).items():
                if key not in before:
                    continue
                old = before[key][1]
                if old == version:
                    continue
                new_v, old_v = parse_version(version), parse_version(old)
                if new_v is None or old_v is None or not new_v < old_v:
                    continue
                triple = (key[0], old, version)
                if triple in acknowledged:
                    used.add(triple)
                    continue
                yield Issue(doc.path, ("components", index, "version"),
                            f"{key[0]} goes down from {old} ({previous.ref}) to {version}; if this is what the page "
                            "publishes, add it to acknowledged_downgrades with the reason")
            for index, ack in enumerate(record.acknowledged_downgrades):
                if (ack.component, ack.from_version, ack.to_version) not in used:
                    yield Issue(doc.path, ("acknowledged_downgrades", index),
                                f"no downgrade of {ack.component} from {ack.from_version} to {ack.to_version} against "
                                f"{previous.ref}; remove or correct this entry")
    # the oldest release of a family has nothing to be acknowledged against
    for releases in corpus.complete_families.values():
        doc, record = releases[0]
        for index, ack in enumerate(record.acknowledged_downgrades):
            yield Issue(doc.path, ("acknowledged_downgrades", index),
                        f"{record.ref} is the oldest release of its family: there is no previous version to go down from")
