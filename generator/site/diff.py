"""What changed between two releases: component by component.

Versions are compared with :mod:`packaging` through
:mod:`lingjun.generator.site._ordering`; a pair that is not PEP 440 on both
sides and differs is reported as ``changed`` (direction unknown).  A release
can publish architecture-specific lists (25.10: amd64 and aarch64); such an
entry is keyed ``<component id>@<arch>`` so each architecture is compared
with the same architecture.

When one side lists a component once for every architecture and the other
lists it per architecture (25.09 ``triton`` -> 25.10 ``triton`` for amd64 and
``pytorch-triton`` for aarch64), the single entry is compared with each
architecture's entry and the rows are marked as an architecture split (or
merge), never reported as one removal plus additions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Optional

from lingjun.schema.models import ComponentEntry, ReleaseRecord

from lingjun.generator.site._ordering import compare_versions

__all__ = ["ArchSplit", "ChangeKind", "ComponentChange", "ReleaseDiff", "diff_releases", "entry_key"]


class ChangeKind(str, Enum):
    """How one component differs between the older and the newer release."""

    upgraded = "upgraded"
    downgraded = "downgraded"
    added = "added"
    removed = "removed"
    changed = "changed"  # differs, but at least one side is not PEP 440
    unchanged = "unchanged"


class ArchSplit(str, Enum):
    """How the listing of one component changed between all-architecture and per-architecture."""

    split = "split"  # one entry for all architectures -> one entry per architecture
    merged = "merged"  # one entry per architecture -> one entry for all architectures


@dataclass(frozen=True)
class ComponentChange:
    """One row of a diff.  ``old``/``new`` are versions as published, None when absent.

    ``architecture`` is the architecture key of a per-architecture row
    (``amd64``, ``aarch64``, ``aarch64+amd64``), None for an all-architecture
    row.  ``arch_split`` is set when the row compares an all-architecture entry
    with one architecture's entry; ``old_name`` is the name the older release
    published (it can differ: ``triton`` -> ``pytorch-triton``).
    """

    key: str
    component: str
    name: str
    architecture: Optional[str]
    kind: ChangeKind
    old: Optional[str]
    new: Optional[str]
    #: reason from the newer record's ``acknowledged_downgrades``, for downgrades it explains
    acknowledged: Optional[object] = None
    arch_split: Optional[ArchSplit] = None
    old_name: Optional[str] = None

    @property
    def notable(self) -> bool:
        """Worth a row in "what changed": the version moved, or the listing was split or merged."""
        return self.kind is not ChangeKind.unchanged or self.arch_split is not None


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


def _by_component(record: ReleaseRecord) -> dict[str, dict[str, ComponentEntry]]:
    """``{component id: {architecture key ('' for all): entry}}``; a duplicated entry keeps the first."""
    index: dict[str, dict[str, ComponentEntry]] = {}
    for entry in record.components:
        arch = entry_key(entry).partition("@")[2]
        index.setdefault(entry.id, {}).setdefault(arch, entry)
    return index


def _pairs(
    before: dict[str, ComponentEntry], after: dict[str, ComponentEntry]
) -> list[tuple[str, Optional[ComponentEntry], Optional[ComponentEntry], Optional[ArchSplit]]]:
    """``(architecture key, old entry, new entry, split)`` rows of one component."""
    if set(before) == {""} and after and "" not in after:
        return [(arch, before[""], after[arch], ArchSplit.split) for arch in sorted(after)]
    if set(after) == {""} and before and "" not in before:
        return [(arch, before[arch], after[""], ArchSplit.merged) for arch in sorted(before)]
    return [(arch, before.get(arch), after.get(arch), None) for arch in sorted(set(before) | set(after))]


def _kind(a: Optional[ComponentEntry], b: Optional[ComponentEntry]) -> ChangeKind:
    if a is None:
        return ChangeKind.added
    if b is None:
        return ChangeKind.removed
    order = compare_versions(a.version, b.version)
    if order is None:
        return ChangeKind.changed
    if order < 0:
        return ChangeKind.upgraded
    if order > 0:
        return ChangeKind.downgraded
    return ChangeKind.unchanged


def diff_releases(old: ReleaseRecord, new: ReleaseRecord) -> ReleaseDiff:
    """Compare the component lists of two releases (any families, any order given).

    Entries are matched per component id and architecture; an
    all-architecture entry facing per-architecture entries is compared with
    each of them (see :class:`ArchSplit`).

    Returns:
        A :class:`ReleaseDiff`; ``changes`` sorted by key (``id`` or ``id@arch``).
    """
    if not old.components or not new.components:
        return ReleaseDiff(old=old, new=new, comparable=False)
    before, after = _by_component(old), _by_component(new)
    acknowledged = {(a.component, a.from_version, a.to_version): a.reason for a in new.acknowledged_downgrades}
    changes: list[ComponentChange] = []
    for component in set(before) | set(after):
        for arch, a, b, split in _pairs(before.get(component, {}), after.get(component, {})):
            ref = b or a
            assert ref is not None
            kind = _kind(a, b)
            reason = None
            if kind is ChangeKind.downgraded and a and b:
                reason = acknowledged.get((component, a.version, b.version))
            changes.append(
                ComponentChange(
                    key=component + "@" + arch if arch else component,
                    component=component,
                    name=ref.name,
                    architecture=arch or None,
                    kind=kind,
                    old=a.version if a else None,
                    new=b.version if b else None,
                    acknowledged=reason,
                    arch_split=split,
                    old_name=a.name if a else None,
                )
            )
    changes.sort(key=lambda c: c.key)
    return ReleaseDiff(old=old, new=new, comparable=True, changes=changes)
