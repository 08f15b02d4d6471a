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

A diff compares only what both sides know (see
:class:`lingjun.schema.models.ListState`).  A component missing from one
side is ``added`` or ``removed`` only when that side's component list is
``complete`` and the entry itself comes from a component list (an entry
taken from the features or driver text, like cuDNN named beside a rebase,
is not something the other side's list would carry); otherwise the row is ``not recorded`` on that side
(:attr:`ChangeKind.not_recorded_old` / :attr:`ChangeKind.not_recorded_new`),
or ``introduced`` when the newer release's own page calls the component
new (``ComponentEntry.introduced``).  Two versions with the same public
version that differ only in the local build tag (``2.7.1.8`` ->
``2.7.1.8+nv25.3``) are :attr:`ChangeKind.build_tag`: the same release, not
an upgrade.  Rows carry the catalog's display name of the component.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Optional

from lingjun.schema.models import ComponentEntry, ListState, ReleaseRecord, StatedIn

from lingjun.generator.site._ordering import compare_versions, parse_version

__all__ = ["ArchSplit", "ChangeKind", "ComponentChange", "ReleaseDiff", "build_tag_change",
           "diff_releases", "entry_key"]


class ChangeKind(str, Enum):
    """How one component differs between the older and the newer release."""

    upgraded = "upgraded"
    downgraded = "downgraded"
    added = "added"
    removed = "removed"
    changed = "changed"  # differs, but at least one side is not PEP 440
    unchanged = "unchanged"
    #: same public version, only the local build tag differs (``2.7.1.8`` -> ``2.7.1.8+nv25.3``)
    build_tag = "build-tag"
    #: not in the older list, which is not complete, and the newer page calls it new
    introduced = "introduced"
    #: in the newer list only; the older release's list is not complete, so nothing is known there
    not_recorded_old = "not-recorded-old"
    #: in the older list only; the newer release's list is not complete
    not_recorded_new = "not-recorded-new"


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
    with one architecture's entry.  ``name`` is the display name (the
    catalog's, the same on every page); ``old_name`` is the name the older
    release published (it can differ: ``triton`` -> ``pytorch-triton``).
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
        """Worth a row in "what changed": the version moved, the build tag changed, the page calls the
        component new, or the listing was split or merged (never a row that only one side knows)."""
        if self.kind in (ChangeKind.not_recorded_old, ChangeKind.not_recorded_new):
            return False
        return self.kind is not ChangeKind.unchanged or self.arch_split is not None

    @property
    def build_tag_change(self) -> Optional[str]:
        """For :attr:`ChangeKind.build_tag` rows: ``added``, ``removed`` or ``changed``; else None."""
        if self.kind is not ChangeKind.build_tag or self.old is None or self.new is None:
            return None
        return build_tag_change(self.old, self.new)


@dataclass
class ReleaseDiff:
    """Diff of ``old`` -> ``new``.

    ``comparable`` is False when either release records no component at all
    (``changes`` is then empty and the page says so instead of reporting
    everything as added or removed).  Otherwise each side's list state
    decides whether a one-sided component is added/removed or not recorded.
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
        """Number of changes per kind (every kind present, zero included; keys are the kinds' values)."""
        return {k.value: len(self.of_kind(k)) for k in ChangeKind}

    @property
    def not_recorded(self) -> list[ComponentChange]:
        """Rows one side knows and the other does not (either direction), in key order."""
        return [c for c in self.changes if c.kind in (ChangeKind.not_recorded_old, ChangeKind.not_recorded_new)]


def build_tag_change(old: str, new: str) -> Optional[str]:
    """``added``/``removed``/``changed`` when ``old`` and ``new`` are the same public PEP 440 version
    whose local build tag (``+nv25.3``) differs; None otherwise (also for text that is not PEP 440)."""
    a, b = parse_version(old), parse_version(new)
    if a is None or b is None or a.public != b.public or a.local == b.local:
        return None
    if a.local is None:
        return "added"
    if b.local is None:
        return "removed"
    return "changed"


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


def _kind(a: Optional[ComponentEntry], b: Optional[ComponentEntry], old_complete: bool, new_complete: bool) -> ChangeKind:
    # a complete component list proves absence only of what component lists carry: an entry
    # taken from the features or driver text (cuDNN named beside the rebase) says nothing there
    if a is None:
        assert b is not None
        if old_complete and b.stated_in is StatedIn.component_list:
            return ChangeKind.added
        return ChangeKind.introduced if b.introduced else ChangeKind.not_recorded_old
    if b is None:
        if new_complete and a.stated_in is StatedIn.component_list:
            return ChangeKind.removed
        return ChangeKind.not_recorded_new
    if build_tag_change(a.version, b.version) is not None:
        return ChangeKind.build_tag
    order = compare_versions(a.version, b.version)
    if order is None:
        return ChangeKind.changed
    if order < 0:
        return ChangeKind.upgraded
    if order > 0:
        return ChangeKind.downgraded
    return ChangeKind.unchanged


def diff_releases(old: ReleaseRecord, new: ReleaseRecord, names: Optional[Mapping[str, str]] = None) -> ReleaseDiff:
    """Compare the component lists of two releases (any families, any order given).

    Entries are matched per component id and architecture; an
    all-architecture entry facing per-architecture entries is compared with
    each of them (see :class:`ArchSplit`).  A one-sided entry is added or
    removed only against a ``complete`` list (module docstring).

    Args:
        names: component id -> display name (the catalog's ``name``); a
            component not in it keeps the name the newer side published.

    Returns:
        A :class:`ReleaseDiff`; ``changes`` sorted by key (``id`` or ``id@arch``).
    """
    if not old.components or not new.components:
        return ReleaseDiff(old=old, new=new, comparable=False)
    old_complete = old.component_list is ListState.complete
    new_complete = new.component_list is ListState.complete
    names = names or {}
    before, after = _by_component(old), _by_component(new)
    acknowledged = {(a.component, a.from_version, a.to_version): a.reason for a in new.acknowledged_downgrades}
    changes: list[ComponentChange] = []
    for component in set(before) | set(after):
        for arch, a, b, split in _pairs(before.get(component, {}), after.get(component, {})):
            ref = b or a
            assert ref is not None
            kind = _kind(a, b, old_complete, new_complete)
            reason = None
            if kind is ChangeKind.downgraded and a and b:
                reason = acknowledged.get((component, a.version, b.version))
            changes.append(
                ComponentChange(
                    key=component + "@" + arch if arch else component,
                    component=component,
                    name=names.get(component, ref.name),
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
