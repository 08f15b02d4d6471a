"""The release record as the checker reads it: frozen dataclasses built once from the bundle's JSON.

A bundle release is the ``model_dump(mode="json")`` of :class:`lingjun.schema.models.ReleaseRecord` without
what only the site shows (:mod:`lingjun.checks.knowledge.bundle`).  Rules, identification and the reports read
it through :class:`Release` (``record.driver.minimum``, ``record.components``), not through ``.get`` chains: the
types are checked once, when :func:`release_from_dict` builds it (a ``--data`` file has been held to
:data:`lingjun.checks.knowledge._bundle_shape.BUNDLE_SHAPE` before that, the embedded bundle is trusted).

The classes are frozen (the records are built once per bundle and shared by every rule: none can change one
for the others) and compare by identity (``eq=False``: identification tells records apart with ``is``, and
the generated ``__eq__``/``__hash__`` of 14 classes cost about 8 ms of start-up outside the zipapp).

Only the fields the checker reads are here (those of ``BUNDLE_SHAPE``'s ``releases``, plus ``driver.derived``,
which :func:`lingjun.checks.core.family_driver.driver_view` adds).  A field the JSON leaves out takes the
schema's default (an empty list, None, False); only the keys ``BUNDLE_SHAPE`` requires have none.  Each class names the schema model it mirrors.

:attr:`Release.raw` keeps the dict the record was built from, for the functions of :mod:`lingjun.checks.core`
that the site and ``lingjun-kb which`` share (:func:`lingjun.checks.core.compat.decide`,
:func:`lingjun.checks.core.release_compat.driver_case`, ...): they read bundle dicts.

Standard library only.
"""

# no ``from __future__ import annotations``: the annotations are objects, so the converter reads them without
# evaluating strings (``typing.get_type_hints``: 0.8 ms for these classes instead of 2.9 ms, once per check)
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core._dataclass_json import build

__all__ = [
    "Release",
    "ComponentEntry",
    "ImageTag",
    "Runtime",
    "Variant",
    "DriverRequirement",
    "ForwardCompatBranch",
    "BranchResolution",
    "DerivedBranch",
    "GpuSupport",
    "Feature",
    "UsageNote",
    "QuickStartStep",
    "Source",
    "release_from_dict",
]

#: text in both languages: ``{"en": ..., "zh": ...}`` (:data:`lingjun.schema.models.LocalizedText`)
Text = dict[str, str]


@dataclass(frozen=True, eq=False)
class ComponentEntry:
    """One component of an image (:class:`lingjun.schema.models.ComponentEntry`): ``architectures`` empty when it
    applies on every CPU architecture."""

    id: str
    version: str
    name: Optional[str] = None
    architectures: list[str] = field(default_factory=list)
    introduced: bool = False


@dataclass(frozen=True, eq=False)
class ImageTag:
    """An image tag of a release or variant (:class:`lingjun.schema.models.ImageTag`)."""

    tag: str
    reference: Optional[str] = None
    architectures: list[str] = field(default_factory=list)
    products: list[str] = field(default_factory=list)
    not_for: list[str] = field(default_factory=list)
    digest: Optional[str] = None


@dataclass(frozen=True, eq=False)
class Runtime:
    """A framework runtime of an image, its own Python environment under ``path``
    (:class:`lingjun.schema.models.Runtime`)."""

    id: str
    name: Optional[str] = None
    path: Optional[str] = None
    python: Optional[str] = None
    #: ``complete`` / ``partial`` / ``not-published`` / ``not-captured``; None: not stated
    component_list: Optional[str] = None
    components: list[ComponentEntry] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class Variant:
    """One image of a release that publishes several (:class:`lingjun.schema.models.ImageVariant`); a field it
    leaves out (``python``, ``cuda``, ``ppu_sdk``, ``architectures``) is the release's."""

    id: str
    title: Optional[Text] = None
    image_tags: list[ImageTag] = field(default_factory=list)
    architectures: list[str] = field(default_factory=list)
    cuda: Optional[str] = None
    ppu_sdk: Optional[str] = None
    python: Optional[str] = None
    component_list: Optional[str] = None
    components: list[ComponentEntry] = field(default_factory=list)
    presence_unknown: list[str] = field(default_factory=list)
    runtimes: list[Runtime] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class ForwardCompatBranch:
    """A driver branch the image runs on through forward compatibility, from ``minimum``
    (:class:`lingjun.schema.models.ForwardCompatBranch`)."""

    branch: Optional[int] = None
    minimum: Optional[str] = None


@dataclass(frozen=True, eq=False)
class BranchResolution:
    """How a branch the page names both ways is read (:class:`lingjun.schema.models.BranchResolution`):
    ``decision`` ``allowed`` or ``must-upgrade``."""

    branch: Optional[int] = None
    decision: Optional[str] = None
    reason: Optional[Text] = None


@dataclass(frozen=True, eq=False)
class DerivedBranch:
    """What the family's neighbouring releases state alike of a branch a cut-off driver text does not name
    (``driver.derived``, written by :func:`lingjun.checks.core.family_driver.driver_view`; no schema model):
    ``decision`` ``forward`` (from ``minimum``) or ``must-upgrade``, ``from_`` the versions stating it."""

    branch: int
    decision: str
    minimum: Optional[str] = None
    from_: list[str] = field(default_factory=list, metadata={"json": "from"})


@dataclass(frozen=True, eq=False)
class DriverRequirement:
    """The release's driver requirement (:class:`lingjun.schema.models.DriverRequirement`): ``vendor``
    ``nvidia`` or ``ppu``; ``text_truncated``: our copy of the page's driver section is cut off."""

    vendor: Optional[str] = None
    minimum: Optional[str] = None
    recommended: Optional[str] = None
    stated_as: Optional[str] = None
    text_truncated: bool = False
    must_upgrade_branches: list[int] = field(default_factory=list)
    forward_compatibility: list[ForwardCompatBranch] = field(default_factory=list)
    branch_resolutions: list[BranchResolution] = field(default_factory=list)
    derived: list[DerivedBranch] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class GpuSupport:
    """The GPUs the release states it supports (:class:`lingjun.schema.models.GpuSupport`); ``list_state``
    ``complete`` or ``partial``."""

    models: list[str] = field(default_factory=list)
    architectures: list[str] = field(default_factory=list)
    compute_capabilities: list[str] = field(default_factory=list)
    list_state: str = "partial"


@dataclass(frozen=True, eq=False)
class Feature:
    """A main feature of the release (:class:`lingjun.schema.models.Feature`)."""

    id: Optional[str] = None
    body: Text = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class UsageNote:
    """A usage note (:class:`lingjun.schema.models.UsageNote`); ``rule``: the checker rule that enforces it."""

    id: Optional[str] = None
    rule: Optional[str] = None
    text: Text = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class QuickStartStep:
    """A quick-start step (:class:`lingjun.schema.models.QuickStartStep`)."""

    commands: list[str] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class Source:
    """An official page the record was read from (:class:`lingjun.schema.models.Source`)."""

    url: Optional[str] = None
    title: Optional[str] = None
    language: Optional[str] = None


@dataclass(frozen=True, eq=False)
class Release:
    """A release record, or the checker's view of one image of it (:class:`lingjun.schema.models.ReleaseRecord`).

    ``component_list``: ``complete`` / ``partial`` / ``not-published`` / ``not-captured`` (the bundle states it;
    ``not-published`` when missing); ``order_key``: ``[year, month, day]`` (day 0 for a ``YY.MM`` month) or None;
    ``driver``: None when the record states no driver requirement.  :attr:`raw` is the dict it was built from
    (not compared, not shown).
    """

    family: str
    version: str
    kind: Optional[str] = None
    status: Optional[str] = None
    python: Optional[str] = None
    cuda: Optional[str] = None
    ppu_sdk: Optional[str] = None
    architectures: list[str] = field(default_factory=list)
    release_date: Optional[str] = None
    component_list: str = "not-published"
    components: list[ComponentEntry] = field(default_factory=list)
    presence_unknown: list[str] = field(default_factory=list)
    order_key: Optional[list[int]] = None
    variants: list[Variant] = field(default_factory=list)
    runtimes: list[Runtime] = field(default_factory=list)
    driver: Optional[DriverRequirement] = None
    gpu_support: Optional[GpuSupport] = None
    image_tags: list[ImageTag] = field(default_factory=list)
    features: list[Feature] = field(default_factory=list)
    known_issues: list[str] = field(default_factory=list)
    usage_notes: list[UsageNote] = field(default_factory=list)
    quick_start: list[QuickStartStep] = field(default_factory=list)
    not_captured: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, metadata={"json": None})

    @property
    def ref(self) -> str:
        """``family:version`` (``training-nv-pytorch:25.07``)."""
        return f"{self.family}:{self.version}"


def release_from_dict(data: Any, where: str = "release") -> Release:
    """The :class:`Release` of a bundle release dict (or a rule's view of one), keeping ``data`` as :attr:`Release.raw`.

    Raises:
        ValueError: ``data`` is not an object, lacks ``family``/``version``, or a field the checker reads has
            another type; the message names its path (``release.components[0].version: expected a string, got 3``).
    """
    return build(Release, data, where, raw=data)
