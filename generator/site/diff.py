"""What changed between two releases: component by component.

Versions are compared with :mod:`packaging` through
:mod:`lingjun.generator.site.ordering`; a pair that is not PEP 440 on both
sides and differs is reported as ``changed`` (direction unknown).  A release
can publish architecture-specific lists (25.10: amd64 and aarch64); such an
entry is keyed ``<component id>@<arch>`` so each architecture is compared
with the same architecture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Optional

from lingjun.schema.models import ComponentEntry, ReleaseRecord

from lingjun.generator.site.ordering import compare_versions

__all__ = ["ChangeKind", "ComponentChange", "ReleaseDiff", "diff_releases", "entry_key"]


class ChangeKind(str, Enum):
    """How one component differs between the older and the newer release."""

    upgraded = "upgraded"
    downgraded = "downgraded"
    added = "added"
    removed = "removed"
    changed = "changed"  # differs, but at least one side is not PEP 440
    unchanged = "unchanged"


@dataclass(frozen=True)
class ComponentChange:
    """One row of a diff.  ``old``/``new`` are versions as published, None when absent."""

    key: str
    component: str
    name: str
    architecture: Optional[str]
    kind: ChangeKind
    old: Optional[str]
    new: Optional[str]
    #: reason from the newer record's ``acknowledged_downgrades``, for downgrades it explains
    acknowledged: Optional[object] = None


@dataclass
class ReleaseDiff:
    """Diff of ``old`` -> ``new``.

    ``comparable`` is False when either release has no component list (the
    official page did not show one); ``changes`` is then empty and the page
    says so instead of reporting everything as added or removed.
    """

    old: ReleaseRecord
    new: ReleaseRecord
    comparable: bool
    changes: list[ComponentChange] = field(default_factory=list)

    def of_kind(self, kind: ChangeKind) -> list[ComponentChange]:
        """The changes of one kind, in key order."""
        return [c for c in self.changes if c.kind is kind]

    @property
    def counts(self) -> dict[str, int]:
        """Number of changes per kind (every kind present, zero included)."""
        return {k.value: len(self.of_kind(k)) for k in ChangeKind}


def entry_key(entry: ComponentEntry) -> str:
    """``id`` or ``id@arch1+arch2`` for architecture-restricted entries."""
    if entry.architectures:
        return entry.id + "@" + "+".join(sorted(a.value for a in entry.architectures))
    return entry.id


def _index(record: ReleaseRecord) -> dict[str, ComponentEntry]:
    index: dict[str, ComponentEntry] = {}
    for entry in record.components:
        # a duplicated entry (a page listing mmdet twice) keeps the first
        index.setdefault(entry_key(entry), entry)
    return index


def diff_releases(old: ReleaseRecord, new: ReleaseRecord) -> ReleaseDiff:
    """Compare the component lists of two releases (any families, any order given).

    Returns:
        A :class:`ReleaseDiff`; ``changes`` sorted by component key.
    """
    if not old.components or not new.components:
        return ReleaseDiff(old=old, new=new, comparable=False)
    before, after = _index(old), _index(new)
    acknowledged = {(a.component, a.from_version, a.to_version): a.reason for a in new.acknowledged_downgrades}
    changes: list[ComponentChange] = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        ref = b or a
        assert ref is not None
        arch = key.partition("@")[2] or None
        if a is None:
            kind = ChangeKind.added
        elif b is None:
            kind = ChangeKind.removed
        else:
            order = compare_versions(a.version, b.version)
            if order is None:
                kind = ChangeKind.changed
            elif order < 0:
                kind = ChangeKind.upgraded
            elif order > 0:
                kind = ChangeKind.downgraded
            else:
                kind = ChangeKind.unchanged
        reason = None
        if kind is ChangeKind.downgraded and a and b:
            reason = acknowledged.get((ref.id, a.version, b.version))
        changes.append(
            ComponentChange(
                key=key,
                component=ref.id,
                name=ref.name,
                architecture=arch,
                kind=kind,
                old=a.version if a else None,
                new=b.version if b else None,
                acknowledged=reason,
            )
        )
    return ReleaseDiff(old=old, new=new, comparable=True, changes=changes)
