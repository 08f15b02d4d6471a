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

A release can publish several images (variants: ``inference-nv-pytorch`` 25.04 has a vLLM and an
SGLang image) and an image several framework runtimes (the PPU training image of 2026-10-20).
:func:`compare_releases` compares like with like: a variant with the same variant of the other
release (by id), the image's shared components with the other image's, and a runtime with the
runtime of the same name.  A variant or runtime one side lacks is listed as only in that release,
never as components added or removed; and an image with runtimes lists in its own list only what
the runtimes share, so against an image without runtimes a component it does not list is not
recorded there (:attr:`NotRecorded.runtimes`), never removed.

A diff compares only what both sides know (see
:class:`lingjun.schema.models.ListState`).  A component missing from one
side is ``added`` or ``removed`` only when that side's component list is
``complete`` and the entry itself comes from a component list (an entry
taken from the features or driver text, like cuDNN named beside a rebase,
is not something the other side's list would carry), and the component is
not one the side's record names in ``presence_unknown`` (the sources leave
open whether that image still ships it).  Otherwise the row is ``not
recorded`` on that side (:attr:`ChangeKind.not_recorded_old` /
:attr:`ChangeKind.not_recorded_new`) with a :class:`NotRecorded` reason, or
``introduced`` when the newer release's own page calls the component new
(``ComponentEntry.introduced``) and the older release is its direct
predecessor in the same family (the page's "new" is said against that
release, not against any other).

Two versions that differ are classified by :func:`version_change` (with
:mod:`packaging`): an upgrade or downgrade only when the version numbers
order them; the same version number with another local build tag
(``2.7.1.8`` -> ``2.7.1.8+nv25.3``, ``2.7.0a0+6c54963f75`` ->
``2.7.0a0+7c8ec84dab``) is :attr:`ChangeKind.build_tag`; one version
written with fewer release digits than the other (``12.8.1`` -> ``12.8``)
is :attr:`ChangeKind.less_precise` / :attr:`ChangeKind.more_precise`, never
a downgrade.  Rows carry the catalog's display name of the component and
are sorted by it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Optional

from lingjun.schema.models import ComponentEntry, ListState, ReleaseRecord, Runtime, StatedIn
from lingjun.schema.release_images import ReleaseImage, release_images

from packaging.version import Version

from lingjun.generator.site._ordering import compare_versions, parse_version

__all__ = ["ArchSplit", "ChangeKind", "ComponentChange", "NotRecorded", "ReleaseDiff", "build_tag_change",
           "DiffSide", "OneSided", "ReleaseComparison", "compare_releases", "image_side", "runtime_side",
           "diff_releases", "diff_sides", "entry_key", "version_change", "version_kind_text", "version_kind_table", "table_kind"]


class ChangeKind(str, Enum):
    """How one component differs between the older and the newer release."""

    upgraded = "upgraded"
    downgraded = "downgraded"
    added = "added"
    removed = "removed"
    changed = "changed"  # differs, but at least one side is not PEP 440
    unchanged = "unchanged"
    #: same version number, only the local build tag differs (``2.7.1.8`` -> ``2.7.1.8+nv25.3``)
    build_tag = "build-tag"
    #: the newer side gives fewer release digits of the older (``12.8.1`` -> ``12.8``): maybe the same version
    less_precise = "less-precise"
    #: the newer side gives more release digits of the older (``12.8`` -> ``12.8.1``): maybe the same version
    more_precise = "more-precise"
    #: not in the older list, which is not complete, and the newer page calls it new
    introduced = "introduced"
    #: in the newer list only; the older release's list is not complete, so nothing is known there
    not_recorded_old = "not-recorded-old"
    #: in the older list only; the newer release's list is not complete
    not_recorded_new = "not-recorded-new"


class NotRecorded(str, Enum):
    """Why a component one side lists is not compared with the other side."""

    #: the other side's component list is not complete (partial or not published)
    list_state = "list-state"
    #: the entry comes from the features or driver text, which no component list would carry
    outside_list = "outside-list"
    #: the other side's record names the component in ``presence_unknown``
    presence_unknown = "presence-unknown"
    #: the other side is an image with framework runtimes: its own list holds only what every runtime
    #: shares, so a component of this side may be in one of its runtimes' environments
    runtimes = "runtimes"


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
    #: for not-recorded rows: why the row is not compared
    not_recorded_reason: Optional[NotRecorded] = None

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


@dataclass(frozen=True)
class DiffSide:
    """What one side of a diff lists: an image of a release (the release itself, or one variant), or one
    framework runtime of such an image.

    Attributes:
        record: the release.
        components: the entries compared.
        component_list: how complete ``components`` is.
        presence_unknown: component ids the sources leave open (never added or removed).
        variant: the variant id, None for a release without variants.
        runtime: the runtime's name (``LlamaFactory``), None for the image's own (shared) list.
    """

    record: ReleaseRecord
    components: tuple[ComponentEntry, ...]
    component_list: ListState
    presence_unknown: tuple[str, ...] = ()
    variant: Optional[str] = None
    runtime: Optional[str] = None
    #: the image's own list is what its framework runtimes share (each runtime lists its own)
    shared_by_runtimes: bool = False


def image_side(image: ReleaseImage) -> DiffSide:
    """The :class:`DiffSide` of one image (its shared components when it has runtimes)."""
    return DiffSide(image.record, tuple(image.components), image.component_list, tuple(image.presence_unknown),
                    image.variant_id, None, bool(image.runtimes))


def runtime_side(image: ReleaseImage, runtime: Runtime) -> DiffSide:
    """The :class:`DiffSide` of one runtime of ``image`` (its own component list)."""
    state = runtime.component_list if runtime.component_list is not None else ListState.not_published
    return DiffSide(image.record, tuple(runtime.components), state, (), image.variant_id, runtime.name)


def _record_side(record: ReleaseRecord) -> DiffSide:
    """A release without variants as one side (a release with variants: its first variant)."""
    return image_side(release_images(record)[0])


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
    #: the two sides compared (set by :func:`diff_sides`; None only for a diff built by hand)
    old_side: Optional[DiffSide] = None
    new_side: Optional[DiffSide] = None

    @property
    def variant(self) -> Optional[str]:
        """The variant compared (the same id on both sides), None for releases without variants."""
        side = self.new_side or self.old_side
        return side.variant if side else None

    @property
    def runtime(self) -> Optional[str]:
        """The runtime compared (the same name on both sides), None for the images' shared lists."""
        side = self.new_side or self.old_side
        return side.runtime if side else None

    @property
    def old_state(self) -> ListState:
        """How complete the older side's list is."""
        return self.old_side.component_list if self.old_side else self.old.component_list

    @property
    def new_state(self) -> ListState:
        """How complete the newer side's list is."""
        return self.new_side.component_list if self.new_side else self.new.component_list

    def of_kind(self, kind: ChangeKind) -> list[ComponentChange]:
        """The changes of one kind, in row order (display name)."""
        return [c for c in self.changes if c.kind is kind]

    @property
    def counts(self) -> dict[str, int]:
        """Number of changes per kind (every kind present, zero included; keys are the kinds' values)."""
        return {k.value: len(self.of_kind(k)) for k in ChangeKind}

    @property
    def not_recorded(self) -> list[ComponentChange]:
        """Rows one side knows and the other does not (either direction), in row order."""
        return [c for c in self.changes if c.kind in (ChangeKind.not_recorded_old, ChangeKind.not_recorded_new)]

    def not_recorded_groups(self) -> list[tuple[ChangeKind, NotRecorded, list[ComponentChange]]]:
        """Not-recorded rows grouped by direction and reason (old side first, reasons in enum order)."""
        groups = []
        for kind in (ChangeKind.not_recorded_old, ChangeKind.not_recorded_new):
            for reason in NotRecorded:
                rows = [c for c in self.changes if c.kind is kind and c.not_recorded_reason is reason]
                if rows:
                    groups.append((kind, reason, rows))
        return groups


def build_tag_change(old: str, new: str) -> Optional[str]:
    """How the local build tag differs between two versions with the same version number.

    Returns ``added`` / ``removed`` (one side has no tag), ``longer`` /
    ``shorter`` (one tag is the other with digits appended, like an
    abbreviated commit hash: ``+5de3e14`` -> ``+5de3e148``), else ``changed``;
    None when the version numbers differ, the tags are equal, or either text
    is not PEP 440.
    """
    a, b = parse_version(old), parse_version(new)
    if a is None or b is None or Version(a.public) != Version(b.public) or a.local == b.local:
        return None
    if a.local is None:
        return "added"
    if b.local is None:
        return "removed"
    if b.local.startswith(a.local):
        return "longer"
    if a.local.startswith(b.local):
        return "shorter"
    return "changed"


def _precision(a: Version, b: Version) -> Optional[ChangeKind]:
    """less/more precise when one release tuple is a strict prefix of the other and nothing else differs."""
    if a.release == b.release or (a.epoch, a.pre, a.post, a.dev, a.local) != (b.epoch, b.pre, b.post, b.dev, b.local):
        return None
    if len(b.release) < len(a.release) and a.release[:len(b.release)] == b.release:
        return ChangeKind.less_precise
    if len(a.release) < len(b.release) and b.release[:len(a.release)] == a.release:
        return ChangeKind.more_precise
    return None


def version_change(old: str, new: str) -> ChangeKind:
    """How the published version ``old`` relates to ``new`` (both strings as published).

    ``unchanged`` for the same text; ``changed`` when either is not PEP 440;
    ``less_precise`` / ``more_precise`` when one gives fewer release digits
    of the other and nothing else differs (``12.8.1`` -> ``12.8``,
    ``12.8.0.38`` -> ``12.8.0``); ``build_tag`` for the same version number
    with another local tag; ``unchanged`` for two spellings PEP 440 reads as
    one version (``1.0a1`` vs ``1.0.0-a1`` differ in length, so they are a
    precision row; ``1.0a1`` vs ``1.0-a1`` are unchanged); otherwise
    ``upgraded`` / ``downgraded`` by PEP 440 order.
    """
    if old == new:
        return ChangeKind.unchanged
    a, b = parse_version(old), parse_version(new)
    if a is None or b is None:
        return ChangeKind.changed
    precision = _precision(a, b)
    if precision is not None:
        return precision
    if build_tag_change(old, new) is not None:
        return ChangeKind.build_tag
    order = compare_versions(old, new)
    if order is None:
        return ChangeKind.changed
    if order < 0:
        return ChangeKind.upgraded
    if order > 0:
        return ChangeKind.downgraded
    return ChangeKind.unchanged


def version_kind_text(old: str, new: str) -> str:
    """:func:`version_change` as the compare page names it: the kind's value, ``build-tag-<how>`` for build tags."""
    kind = version_change(old, new)
    if kind is ChangeKind.build_tag:
        return kind.value + "-" + (build_tag_change(old, new) or "changed")
    return kind.value


def version_kind_table(versions) -> dict:
    """The kinds of every pair of ``versions`` (strings) in size linear in their number.

    Returns ``{"order": {version: rank}, "special": {old: {new: kind}}}``:
    ``order`` ranks the PEP 440 versions (equal ranks for texts PEP 440
    reads as one version; other texts are absent); ``special`` holds only the
    pairs whose :func:`version_kind_text` is not what the ranks say
    (precision and build-tag rows: versions sharing a public version, or
    whose release numbers are one a prefix of the other).  :func:`table_kind`
    reads a pair back; ``compare.js`` applies the same rule.  (A table of every
    pair grew with the square of the versions: 1,000 releases made tens of
    megabytes.)
    """
    texts = sorted({v for v in versions if isinstance(v, str)})
    parsed = {t: parse_version(t) for t in texts}
    pep = sorted((t for t in texts if parsed[t] is not None), key=lambda t: (parsed[t], t))
    order: dict[str, int] = {}
    rank, last = -1, None
    for text in pep:
        if last is None or parsed[text] != last:
            rank, last = rank + 1, parsed[text]
        order[text] = rank
    by_public: dict[Version, list[str]] = {}
    by_release: dict[tuple, list[str]] = {}
    for text in pep:
        v = parsed[text]
        by_public.setdefault(Version(v.public), []).append(text)
        by_release.setdefault((v.epoch, v.release), []).append(text)
    candidates: set[tuple[str, str]] = set()
    for group in by_public.values():
        candidates.update((a, b) for a in group for b in group if a != b)
    for text in pep:
        v = parsed[text]
        for n in range(1, len(v.release)):
            for shorter in by_release.get((v.epoch, v.release[:n]), ()):
                candidates.update(((text, shorter), (shorter, text)))
    special: dict[str, dict[str, str]] = {}
    for old, new in sorted(candidates):
        kind = version_kind_text(old, new)
        if kind != _ranked_kind(order, old, new):
            special.setdefault(old, {})[new] = kind
    return {"order": order, "special": special}


def _ranked_kind(order: Mapping[str, int], old: str, new: str) -> str:
    if old == new:
        return ChangeKind.unchanged.value
    if old not in order or new not in order:
        return ChangeKind.changed.value
    if order[old] == order[new]:
        return ChangeKind.unchanged.value
    return (ChangeKind.upgraded if order[old] < order[new] else ChangeKind.downgraded).value


def table_kind(table: Mapping, old: str, new: str) -> str:
    """The kind of ``old`` -> ``new`` read from a :func:`version_kind_table` (``upgraded``, ``build-tag-longer``, ...).

    A special pair first, else by rank: ``upgraded`` / ``downgraded`` /
    ``unchanged``, and ``changed`` when either version is not ranked.
    """
    found = table.get("special", {}).get(old, {}).get(new)
    return found if found is not None else _ranked_kind(table.get("order", {}), old, new)


def entry_key(entry: ComponentEntry) -> str:
    """``id`` or ``id@arch1+arch2`` for architecture-restricted entries."""
    if entry.architectures:
        return entry.id + "@" + "+".join(sorted(a.value for a in entry.architectures))
    return entry.id


def _by_component(side: DiffSide) -> dict[str, dict[str, ComponentEntry]]:
    """``{component id: {architecture key ('' for all): entry}}``; a duplicated entry keeps the first."""
    index: dict[str, dict[str, ComponentEntry]] = {}
    for entry in side.components:
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


def _missing_reason(present: ComponentEntry, other: DiffSide, has: Optional[DiffSide] = None) -> Optional[NotRecorded]:
    """Why ``other`` (which does not list ``present``'s component, listed by ``has``) says nothing of it;
    None: it is absent."""
    # a complete component list proves absence only of what component lists carry: an entry
    # taken from the features or driver text (cuDNN named beside the rebase) says nothing there
    if present.id in other.presence_unknown:
        return NotRecorded.presence_unknown
    if present.stated_in is not StatedIn.component_list:
        return NotRecorded.outside_list
    if other.shared_by_runtimes and not (has is not None and has.shared_by_runtimes):
        return NotRecorded.runtimes
    if other.component_list is not ListState.complete:
        return NotRecorded.list_state
    return None


def _kind(a: Optional[ComponentEntry], b: Optional[ComponentEntry], old: DiffSide, new: DiffSide,
          direct: bool) -> tuple[ChangeKind, Optional[NotRecorded]]:
    if a is None:
        assert b is not None
        reason = _missing_reason(b, old, new)
        if reason is None:
            return ChangeKind.added, None
        if direct and b.introduced and reason is NotRecorded.list_state:
            return ChangeKind.introduced, None
        return ChangeKind.not_recorded_old, reason
    if b is None:
        reason = _missing_reason(a, new, old)
        return (ChangeKind.removed, None) if reason is None else (ChangeKind.not_recorded_new, reason)
    return version_change(a.version, b.version), None


def diff_releases(old: ReleaseRecord, new: ReleaseRecord, names: Optional[Mapping[str, str]] = None,
                  direct: bool = False) -> ReleaseDiff:
    """Compare the component lists of two releases without variants (see :func:`diff_sides`).

    A release with variants is compared by :func:`compare_releases`, variant with variant; given
    here, its first variant stands for it.
    """
    return diff_sides(_record_side(old), _record_side(new), names, direct)


def diff_sides(old_side: DiffSide, new_side: DiffSide, names: Optional[Mapping[str, str]] = None,
               direct: bool = False) -> ReleaseDiff:
    """Compare the component lists of two sides (images or runtimes; any families, any order given).

    Entries are matched per component id and architecture; an
    all-architecture entry facing per-architecture entries is compared with
    each of them (see :class:`ArchSplit`).  A one-sided entry is added or
    removed only against a ``complete`` list (module docstring).

    Args:
        names: component id -> display name (the catalog's ``name``); a
            component not in it keeps the name the newer side published.
        direct: True when ``old`` is ``new``'s direct predecessor in the
            same family; only then is a page's "new" mark (``introduced``)
            shown, since the page says it against that release.

    Returns:
        A :class:`ReleaseDiff`; ``changes`` sorted by the catalog's display
        name (case-insensitive; the component id where ``names`` has none),
        then architecture.
    """
    old, new = old_side.record, new_side.record
    if not old_side.components or not new_side.components:
        return ReleaseDiff(old=old, new=new, comparable=False, old_side=old_side, new_side=new_side)
    direct = direct and old.family == new.family
    names = names or {}
    before, after = _by_component(old_side), _by_component(new_side)
    acknowledged = {(a.component, a.from_version, a.to_version): a.reason for a in new.acknowledged_downgrades}
    changes: list[ComponentChange] = []
    for component in set(before) | set(after):
        for arch, a, b, split in _pairs(before.get(component, {}), after.get(component, {})):
            ref = b or a
            assert ref is not None
            kind, why = _kind(a, b, old_side, new_side, direct)
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
                    not_recorded_reason=why,
                )
            )
    # by the catalog's display name (the component id when the catalog does not name it), so the rows
    # of one component stay together whatever names its architectures were published under
    changes.sort(key=lambda c: (names.get(c.component, c.component).casefold(), c.component, c.architecture or ""))
    return ReleaseDiff(old=old, new=new, comparable=True, changes=changes, old_side=old_side, new_side=new_side)


@dataclass(frozen=True)
class OneSided:
    """A variant or a runtime only one of two compared releases has (nothing is compared for it).

    Attributes:
        record: the release that has it.
        variant: its variant id (None: the release's only image).
        runtime: the runtime's name, or None when the whole image is one-sided.
        title: the variant's title ``{"en", "zh"}`` where it has one.
    """

    record: ReleaseRecord
    variant: Optional[str]
    runtime: Optional[str] = None
    title: Optional[object] = None


@dataclass
class ReleaseComparison:
    """Two releases compared like with like (:func:`compare_releases`).

    ``pairs`` holds one :class:`ReleaseDiff` per image both releases have (same variant id, or both
    without variants), each followed by one per runtime name both images have.  ``only_old`` /
    ``only_new`` list the variants and runtimes one release alone has.
    """

    old: ReleaseRecord
    new: ReleaseRecord
    pairs: list[ReleaseDiff] = field(default_factory=list)
    only_old: list[OneSided] = field(default_factory=list)
    only_new: list[OneSided] = field(default_factory=list)

    @property
    def comparable(self) -> bool:
        """True when at least one pair lists components on both sides."""
        return any(d.comparable for d in self.pairs)

    @property
    def single(self) -> Optional[ReleaseDiff]:
        """The one pair when both releases are one image without runtimes (the common case), else None."""
        if len(self.pairs) == 1 and not self.only_old and not self.only_new and self.pairs[0].variant is None \
                and self.pairs[0].runtime is None:
            return self.pairs[0]
        return None

    @property
    def counts(self) -> dict[str, int]:
        """Changes per kind over every pair (keys as :attr:`ReleaseDiff.counts`)."""
        total = {k.value: 0 for k in ChangeKind}
        for d in self.pairs:
            for key, value in d.counts.items():
                total[key] += value
        return total


def compare_releases(old: ReleaseRecord, new: ReleaseRecord, names: Optional[Mapping[str, str]] = None,
                     direct: bool = False) -> ReleaseComparison:
    """Compare two releases like with like: variant with the same variant, runtime with the same runtime.

    Images pair by variant id (a release without variants has one image, id None, which pairs only
    with another such image); within a pair the images' own (shared) lists are compared, then each
    runtime with the other image's runtime of the same name.  What one side alone has is listed in
    ``only_old`` / ``only_new``, never turned into added or removed components.  See
    :func:`diff_sides` for one pair (``names``, ``direct``).
    """
    result = ReleaseComparison(old=old, new=new)
    before = {i.variant_id: i for i in release_images(old)}
    after = {i.variant_id: i for i in release_images(new)}
    for image in release_images(old):
        if image.variant_id not in after:
            result.only_old.append(OneSided(old, image.variant_id, None, image.title))
    for image in release_images(new):
        match = before.get(image.variant_id)
        if match is None:
            result.only_new.append(OneSided(new, image.variant_id, None, image.title))
            continue
        result.pairs.append(diff_sides(image_side(match), image_side(image), names, direct))
        old_runtimes = {r.name: r for r in match.runtimes}
        new_runtimes = {r.name: r for r in image.runtimes}
        for runtime in match.runtimes:
            if runtime.name not in new_runtimes:
                result.only_old.append(OneSided(old, match.variant_id, runtime.name, match.title))
        for runtime in image.runtimes:
            other = old_runtimes.get(runtime.name)
            if other is None:
                result.only_new.append(OneSided(new, image.variant_id, runtime.name, image.title))
            else:
                result.pairs.append(diff_sides(runtime_side(match, other), runtime_side(image, runtime), names, direct))
    return result
