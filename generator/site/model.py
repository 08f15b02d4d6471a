"""The site model: everything the templates show, computed once from the knowledge base.

:func:`build_site_model` turns a validated :class:`KnowledgeBase` into a
:class:`SiteModel`: the page map (:mod:`.nav`; the fixed pages and the
navigation order come from :mod:`.pages`), one :class:`ReleaseView` per
release (components grouped by layer with upstream links, diff to the
previous release of the family, known issues, driver verdicts per branch),
the support-matrix columns, component timelines and the data for the compare
page.  The model is language-neutral; templates pick the language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core.release_order import release_order_key
from lingjun.checks.knowledge.carried import Carried, carried_known_issues, carried_usage_notes
from lingjun.schema.kb import KnowledgeBase, release_sort_key
from lingjun.schema.models import (
    Accelerator,
    Component,
    ComponentEntry,
    DriverVendor,
    Family,
    FamilyRole,
    KnownIssue,
    Layer,
    ListState,
    ReleaseRecord,
    ReleaseStatus,
    Runtime,
    StatedIn,
    UnrecordedRelease,
    UsageNote,
)
from lingjun.schema.release_images import ReleaseImage, release_images

from lingjun.generator.site.branch_lifecycle import BranchLifecycle, StatedBranch, branch_lifecycle, build_day, stated_branches
from lingjun.generator.site.checker_remedies import CheckerRemedies, RemedyView, checker_remedies
from lingjun.generator.site.diff import (
    ReleaseComparison,
    ReleaseDiff,
    compare_releases,
    entry_key,
    version_kind_table,
)
from lingjun.generator.site.error_catalogs import ErrorCatalogPages, error_catalogs
from lingjun.generator.site.driver_matrix import (
    FamilyDriverTable,
    MatrixCell,
    branch_cells,
    family_driver_table,
    matrix_branches,
)
from lingjun.generator.site.nav import NavSection, PageSpec, Placement, SiteMap
from lingjun.generator.site.pages import navigation, static_pages
from lingjun.generator.site.strings import STRINGS
from lingjun.generator.site.troubleshooting import SignatureView, Troubleshooting, troubleshooting
from lingjun.generator.site.upstream import upstream_link

__all__ = [
    "ComponentRow",
    "RuntimeView",
    "ImageView",
    "FamilyRow",
    "ReleaseView",
    "MatrixColumn",
    "SiteModel",
    "build_site_model",
    "release_page_id",
    "family_page_id",
    "component_page_id",
    "MATRIX_COLUMNS",
]

LAYER_ORDER = (Layer.build, Layer.runtime, Layer.library)


def release_page_id(record: ReleaseRecord) -> str:
    """``release:<family>:<release>`` (``release:training-xpu-pytorch:2026-10-20``)."""
    return f"release:{record.ref}"


def family_page_id(family_id: str) -> str:
    """``family:<id>``."""
    return f"family:{family_id}"


def component_page_id(component_id: str) -> str:
    """``component:<id>``."""
    return f"component:{component_id}"


@dataclass(frozen=True)
class ComponentRow:
    """One component of a release, with its catalog entry (None when not catalogued) and upstream link."""

    entry: ComponentEntry
    component: Optional[Component]
    page_id: Optional[str]
    url: Optional[str]
    url_kind: str


@dataclass(frozen=True)
class RuntimeView:
    """One framework runtime of an image, with its own component rows grouped by layer."""

    runtime: Runtime
    layers: list[tuple[Layer, list[ComponentRow]]]

    @property
    def anchor(self) -> str:
        """Anchor of the runtime's section (``runtime-llama-factory-20261015``)."""
        return "runtime-" + self.runtime.id.replace("/", "-").replace(".", "-")


@dataclass(frozen=True)
class ImageView:
    """One image of a release (a variant, or the release itself) as its page shows it."""

    image: ReleaseImage
    layers: list[tuple[Layer, list[ComponentRow]]]
    runtimes: list[RuntimeView]

    @property
    def anchor(self) -> str:
        """Anchor of the variant's section (``variant-vllm``); ``components`` for a release without variants."""
        return f"variant-{self.image.variant_id}" if self.image.variant_id else "components"


@dataclass(frozen=True)
class FamilyRow:
    """One row of a family's release list: a recorded release or one the pages name without a record.

    Attributes:
        version: the release identifier.
        record: the record, or None for an unrecorded release.
        unrecorded: the family's :class:`UnrecordedRelease` entry, or None for a recorded release.
        order_key: ``(year, month, day)`` or None when the identifier and date place it nowhere.
    """

    version: str
    record: Optional[ReleaseRecord] = None
    unrecorded: Optional[UnrecordedRelease] = None
    order_key: Optional[tuple[int, int, int]] = None

    @property
    def anchor(self) -> str:
        """Anchor of an unrecorded row on the family page (``release-25-06``)."""
        return "release-" + self.version.replace(".", "-")


def _row_sort_key(row: FamilyRow) -> tuple:
    """As :func:`lingjun.schema.kb.release_sort_key` (ascending): dated rows by date, undated after them."""
    return (row.order_key is None, row.order_key or (0, 0, 0), row.version, row.record is not None)


def family_rows(family: Family, records: list[ReleaseRecord]) -> list[FamilyRow]:
    """Recorded and unrecorded releases of a family, newest first, by the date order of the schema.

    An unrecorded release whose identifier is also recorded is left out (the record wins).
    """
    rows = [FamilyRow(r.version, record=r, order_key=r.order_key) for r in records]
    held = {r.version for r in records}
    for u in family.unrecorded_releases:
        if u.version not in held:
            rows.append(FamilyRow(u.version, unrecorded=u, order_key=release_order_key(u.version, u.release_date)))
    rows.sort(key=_row_sort_key, reverse=True)
    return rows


@dataclass
class ReleaseView:
    """Everything the release page shows beyond the record itself.

    ``diff`` is the comparison with the previous release when both are one image without runtimes
    (else None: ``comparison`` holds the pairs, variant with variant and runtime with runtime).
    ``successor`` is the next newer release the pages name (recorded or not), ``newest_named`` the
    newest; ``shown_status`` never says ``current`` when such a newer release exists.
    """

    record: ReleaseRecord
    family: Family
    page_id: str
    previous: Optional[ReleaseRecord]
    newer: Optional[ReleaseRecord]
    newest: ReleaseRecord
    diff: Optional[ReleaseDiff]
    layers: list[tuple[Layer, list[ComponentRow]]]
    known_issues: list[KnownIssue]
    driver_cells: list[tuple[int, MatrixCell]]
    base: Optional[ReleaseRecord]
    images: list[ImageView] = field(default_factory=list)
    comparison: Optional[ReleaseComparison] = None
    successor: Optional[FamilyRow] = None
    newest_named: Optional[FamilyRow] = None
    #: releases the pages name between ``previous`` and this one without a record here (newest first)
    between: list[FamilyRow] = field(default_factory=list)
    #: for the first recorded release: older releases the pages name without a record here (newest first)
    earlier_named: list[FamilyRow] = field(default_factory=list)
    #: error signatures whose components this release lists (:mod:`.troubleshooting`)
    signatures: list[SignatureView] = field(default_factory=list)
    #: the driver and image-build remedies lingjun-check prints for this release (:mod:`.checker_remedies`)
    remedies: list[RemedyView] = field(default_factory=list)
    #: usage notes the family's earlier releases state and this record did not capture, each with its provenance
    #: (:func:`lingjun.checks.knowledge.carried.carried_usage_notes`, the checker's own decision): ``(note, carried)``
    carried_notes: list[tuple[UsageNote, Carried]] = field(default_factory=list)
    #: known issues carried the same way (:func:`lingjun.checks.knowledge.carried.carried_known_issues`)
    carried_issues: list[tuple[KnownIssue, Carried]] = field(default_factory=list)
    #: the branches the page states for forward compatibility, each with NVIDIA's lifecycle on the build day
    #: (:func:`.branch_lifecycle.stated_branches`)
    forward_branches: list[StatedBranch] = field(default_factory=list)
    #: the day ``forward_branches`` were evaluated on
    forward_as_of: Any = None

    @property
    def successor_recorded(self) -> bool:
        """True when the next newer release the pages name is recorded here (its record names this one as previous).

        An unrecorded successor is only the next release the pages name: no page says it directly follows
        this one, so the page words it as "next release the pages name", not "succeeded by".
        """
        return self.successor is not None and self.successor.record is not None

    @property
    def anchor(self) -> str:
        """Anchor of this release on list pages (``training-nv-pytorch-25-07``)."""
        return f"{self.record.family}-{self.record.version.replace('.', '-')}"

    @property
    def shown_status(self) -> ReleaseStatus:
        """The record's status, except that ``current`` reads ``superseded`` once the pages name a newer release."""
        if self.record.status is ReleaseStatus.current and self.successor is not None:
            return ReleaseStatus.superseded
        return self.record.status

    @property
    def has_variants(self) -> bool:
        """True when the release publishes several images (variants)."""
        return bool(self.record.variants)


@dataclass(frozen=True)
class MatrixColumn:
    """A support-matrix column: an id, a title, a record field and published names of catalog components."""

    id: str
    title: str
    record_field: Optional[str]
    names: tuple[str, ...]


#: columns of the support matrix, like NGC's framework support matrix
MATRIX_COLUMNS: tuple[MatrixColumn, ...] = (
    MatrixColumn("cuda", "CUDA", "cuda", ("CUDA", "cuda")),
    MatrixColumn("torch", "PyTorch", None, ("torch", "Torch", "pytorch", "PyTorch")),
    MatrixColumn("python", "Python", "python", ("Python", "python")),
    MatrixColumn("nccl", "NCCL / ACCL-N", None, ("ACCL-N", "accl-n", "NCCL", "nccl")),
    MatrixColumn("te", "Transformer Engine", None, ("transformer_engine", "TransformerEngine", "transformer-engine")),
    MatrixColumn("deepspeed", "DeepSpeed", None, ("deepspeed", "DeepSpeed")),
    MatrixColumn("vllm", "vLLM", None, ("vllm", "vLLM")),
)


@dataclass
class SiteModel:
    """The language-neutral model of the whole site (see module docstring)."""

    kb: KnowledgeBase
    sitemap: SiteMap
    families: list[Family]
    releases_by_family: dict[str, list[ReleaseRecord]]
    views: dict[str, ReleaseView]
    issue_releases: dict[str, list[ReleaseRecord]]
    branches: list[int]
    matrix_components: dict[str, set[str]]
    timelines: dict[str, list[tuple[Family, list[tuple[ReleaseRecord, Optional[list[ComponentEntry]]]]]]]
    compare_data: dict = field(default_factory=dict)
    #: checker rule id -> releases with a usage note enforced by it (family order, newest first)
    usage_by_rule: dict[str, list[ReleaseRecord]] = field(default_factory=dict)
    #: the driver branch lifecycle table (None without ``driver-branches.yaml``)
    lifecycle: Optional[BranchLifecycle] = None
    #: source id -> the driver-branch table edition a lifecycle row cites
    branch_sources: dict[str, Any] = field(default_factory=dict)
    #: family id -> its table on the drivers page (NVIDIA-driver releases only)
    driver_tables: dict[str, FamilyDriverTable] = field(default_factory=dict)
    #: family id -> recorded and unrecorded releases, newest first (:func:`family_rows`)
    family_rows: dict[str, list[FamilyRow]] = field(default_factory=dict)
    #: the Troubleshooting section: error signatures per printer (:mod:`.troubleshooting`)
    troubleshooting: Optional[Troubleshooting] = None
    #: the remedies lingjun-check prints per release, and the day they were computed (:mod:`.checker_remedies`)
    remedies: Optional[CheckerRemedies] = None
    #: the error catalogs' pages (Xid, CUDA and NVML errors, NCCL warnings), those the knowledge base holds
    #: (:mod:`.error_catalogs`)
    error_catalogs: Optional[ErrorCatalogPages] = None

    def rule_remedies(self, rule_id: str) -> list[tuple[ReleaseRecord, RemedyView]]:
        """``[(release, remedy)]``: what rule ``rule_id`` prints as the fix for the newest release of each family."""
        if self.remedies is None:
            return []
        newest = [rows[0] for rows in (self.releases_by_family.get(f.id) for f in self.families) if rows]
        return self.remedies.for_rule(rule_id, newest)

    def view(self, record: ReleaseRecord) -> ReleaseView:
        """The view of one release."""
        return self.views[record.ref]

    def matrix_value(self, record: ReleaseRecord, column: MatrixColumn) -> list[tuple[str, Optional[str]]]:
        """``[(version, architecture or None)]`` for one cell; empty when unknown."""
        if column.record_field:
            value = getattr(record, column.record_field)
            if value:
                return [(value, None)]
        ids = self.matrix_components[column.id]
        values: list[tuple[str, Optional[str]]] = []
        if column.record_field:  # a variant's own value (python, cuda)
            for image in release_images(record):
                value = getattr(image, column.record_field, None)
                if value and (value, None) not in values:
                    values.append((value, None))
            if values:
                return values
        for entry in components_of(record):
            if entry.id in ids:
                arch = "+".join(a.value for a in entry.architectures) or None
                if (entry.version, arch) not in values:
                    values.append((entry.version, arch))
        return values

    def product_tag_families(self) -> tuple[list[Family], list[Family], list[Family]]:
        """``(families whose recorded image tags name products, families publishing one tag per image that names
        no product, the other families with records)``, catalog order.

        The home page's tag-per-product advice applies to the first only.
        """
        with_products, one_tag, others = [], [], []
        for family in self.families:
            records = self.releases_by_family.get(family.id) or []
            if not records:
                continue
            named = any(tag.products or tag.not_for for r in records for image in release_images(r)
                        for tag in image.image_tags)
            single = all(len(image.image_tags) <= 1 for r in records for image in release_images(r))
            (with_products if named else one_tag if single else others).append(family)
        return with_products, one_tag, others

    def matrix_rows(self, record: ReleaseRecord) -> list[dict]:
        """The support matrix's rows of one release: one per image (variant), never a merge of sibling images.

        Each row is ``{"image": ReleaseImage, "title": {"en", "zh"} or None, "cells": [(values, known)]}`` with one
        cell per :data:`MATRIX_COLUMNS` entry: ``values`` as :meth:`matrix_value` gives them, for this image only
        (its own list plus its runtimes' lists); ``known`` is True when an empty cell means the image does not
        list the component: its list and every runtime's list are complete.  Otherwise an empty cell is "not
        recorded" (a partial, not captured or unpublished list, or a runtime whose list was not captured).
        """
        rows = []
        for image in release_images(record):
            complete = image.component_list is ListState.complete and all(
                rt.component_list is ListState.complete for rt in image.runtimes)
            entries = list(image.components) + [e for rt in image.runtimes for e in rt.components]
            cells = []
            for column in MATRIX_COLUMNS:
                values: list[tuple[str, Optional[str]]] = []
                own = getattr(image, column.record_field, None) if column.record_field else None
                if own:
                    values.append((own, None))
                else:
                    for entry in entries:
                        if entry.id in self.matrix_components[column.id]:
                            arch = "+".join(a.value for a in entry.architectures) or None
                            if (entry.version, arch) not in values:
                                values.append((entry.version, arch))
                cells.append((values, complete))
            rows.append({"image": image, "title": image.title, "cells": cells, "complete": complete})
        return rows

    def components_of(self, record: ReleaseRecord) -> list[ComponentEntry]:
        """Every component entry of the release's images (see :func:`components_of`)."""
        return components_of(record)

    def variant_title(self, record: ReleaseRecord, entry: ComponentEntry):
        """The title ``{"en", "zh"}`` of the variant whose list holds ``entry``; None for a release without variants."""
        for variant in record.variants:
            if any(e is entry for e in variant.components):
                return variant.title
        return None

    def list_state(self, record: ReleaseRecord) -> ListState:
        """How complete the release's lists are together (see :func:`list_state`)."""
        return list_state(record)

    def empty_section(self, record: ReleaseRecord, section: str) -> str:
        """The words key for a release section that lists nothing (``highlights``, ``bug_fixes``, ``known_issues``,
        ``usage_notes``): ``release.stated_none`` when the page says there are none (``stated_none``),
        ``release.not_captured`` when our copy of the page lacks that part (``not_captured``), else
        ``release.not_recorded``.  The one place the release page decides which of the three it says."""
        if any(item.value == section for item in record.stated_none):
            return "release.stated_none"
        if any(item.value == section for item in record.not_captured):
            return "release.not_captured"
        return "release.not_recorded"

    def latest(self, family_id: str) -> Optional[ReleaseRecord]:
        """Newest release of a family, or None."""
        found = self.releases_by_family.get(family_id) or []
        return found[0] if found else None


def components_of(record: ReleaseRecord) -> list[ComponentEntry]:
    """The entries of every image of ``record`` (variants in order; the release's own without variants).

    Runtime lists are not included: they are each runtime's own environment.
    """
    found: list[ComponentEntry] = []
    for image in release_images(record):
        found.extend(image.components)
    return found


def list_state(record: ReleaseRecord) -> ListState:
    """How complete the release's lists are together: one image's own state; for several, ``complete`` when
    every image's list is, else ``partial`` when some image lists a component; when none does,
    ``not-captured`` if every image's list is (published but not seen), else ``not-published``."""
    states = [image.component_list for image in release_images(record)]
    if len(set(states)) == 1:
        return states[0]
    if all(s is ListState.complete for s in states):
        return ListState.complete
    if components_of(record):
        return ListState.partial
    return ListState.not_published


def _printer_titles(printer: str) -> dict[str, str]:
    """Navigation titles of a printer's page: the ``printer.<value>`` interface string."""
    return dict(STRINGS[f"printer.{printer}"])


def _family_order(kb: KnowledgeBase) -> list[Family]:
    product = [f for f in kb.families.values() if f.role is FamilyRole.product]
    base = [f for f in kb.families.values() if f.role is not FamilyRole.product]
    return product + base


def _layers(kb: KnowledgeBase, entries: list[ComponentEntry]) -> list[tuple[Layer, list[ComponentRow]]]:
    grouped: dict[Layer, list[ComponentRow]] = {layer: [] for layer in LAYER_ORDER}
    for entry in entries:
        component = kb.components.get(entry.id)
        url, kind = upstream_link(component, entry.version)
        layer = component.layer if component else Layer.library
        grouped[layer].append(
            ComponentRow(entry, component, component_page_id(entry.id) if component else None, url, kind)
        )
    return [(layer, grouped[layer]) for layer in LAYER_ORDER if grouped[layer]]


def _images(kb: KnowledgeBase, record: ReleaseRecord) -> list[ImageView]:
    return [ImageView(image, _layers(kb, image.components),
                      [RuntimeView(runtime, _layers(kb, runtime.components)) for runtime in image.runtimes])
            for image in release_images(record)]


def _compare_data(kb: KnowledgeBase, families: list[Family], by_family: dict[str, list[ReleaseRecord]]) -> dict:
    """Data the compare page embeds: versions per release, list states and the kind of every version pair.

    ``releases`` lists each release with ``listed`` (it records any
    component) and ``list`` (its :class:`~lingjun.schema.models.ListState`
    value: a one-sided component is added/removed only against a
    ``complete`` list).  ``versions`` maps a release ref to ``{entry key:
    version}`` (entry key ``id`` or ``id@arch``); ``introduced`` maps a
    release ref to the entry keys its page calls new; ``outside`` to the
    entry keys taken from the features or driver text.  ``names`` are the
    catalog's display names.

    ``kinds`` maps a component id to its
    :func:`~lingjun.generator.site.diff.version_kind_table` (``order``: PEP 440
    rank of each version; ``special``: the precision and build-tag pairs),
    from which every ordered pair of its versions reads as
    :func:`~lingjun.generator.site.diff.version_change` computes it
    (``build-tag-<how>`` for build-tag rows), so the page and the per-release
    diff never disagree; the table grows linearly with the versions.
    Each release also carries ``previous`` (its direct predecessor in its
    family, or null: a page's "new" mark is shown only against it) and
    ``unknown`` (its ``presence_unknown`` ids: never added or removed).

    An entry is one image (``ref`` ``family:release`` or ``family:release#variant``) or one framework
    runtime of an image (``<image ref>~<runtime id>``), with ``release`` (the release's ref),
    ``variant``, ``runtime`` (the runtime's name), ``label`` (what the page's lists show) and
    ``shared`` (true for an image with runtimes: its list holds only what they share, so against an
    image without runtimes a component it does not list is not recorded, never removed).  A runtime's list is its
    effective one: its own entries over the image's shared ones, ``complete`` only when both lists are, else
    ``partial``.
    """
    releases = []
    versions: dict[str, dict[str, str]] = {}
    introduced: dict[str, list[str]] = {}
    outside: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    seen: dict[str, set[str]] = {}

    def add(ref: str, record: ReleaseRecord, label: str, entries: list[ComponentEntry], state: ListState,
            unknown: list[str], previous: Optional[str], variant: Optional[str], runtime: Optional[str],
            shared: bool = False) -> None:
        row: dict[str, str] = {}
        for entry in entries:
            key = entry_key(entry)
            row.setdefault(key, entry.version)
            if entry.introduced:
                introduced.setdefault(ref, []).append(key)
            if entry.stated_in is not StatedIn.component_list:
                outside.setdefault(ref, []).append(key)
            names.setdefault(key, entry.name if entry.id not in kb.components else kb.components[entry.id].name)
            # version kinds per component id: an all-architecture entry is compared with
            # each architecture's entry when a release splits its list
            seen.setdefault(entry.id, set()).add(entry.version)
        releases.append({"ref": ref, "release": record.ref, "family": record.family, "version": record.version,
                         "variant": variant, "runtime": runtime, "label": label,
                         "listed": bool(entries), "list": state.value, "previous": previous, "unknown": unknown,
                         "shared": shared})
        versions[ref] = row

    for family in families:
        older = by_family.get(family.id, [])
        for position, record in enumerate(older):
            before = older[position + 1] if position + 1 < len(older) else None
            before_images = {i.variant_id: i for i in release_images(before)} if before else {}
            for image in release_images(record):
                match = before_images.get(image.variant_id)
                label = f"{record.family} {record.version}" + (f" · {image.variant_id}" if image.variant_id else "")
                add(image.ref, record, label, image.components, image.component_list, list(image.presence_unknown),
                    match.ref if match else None, image.variant_id, None, bool(image.runtimes))
                match_runtimes = {r.name: r for r in match.runtimes} if match else {}
                for runtime in image.runtimes:
                    # what a job in the runtime sees: its own list over the image's shared one; complete only when both are
                    own = runtime.component_list or ListState.not_published
                    entries = list(runtime.components) + list(image.components)
                    state = (ListState.complete if own is ListState.complete and image.component_list is ListState.complete
                             else ListState.partial if entries else own)
                    other = match_runtimes.get(runtime.name)
                    add(runtime_ref(image, runtime), record, f"{label} · {runtime.name}", entries, state, [],
                        runtime_ref(match, other) if match and other else None, image.variant_id, runtime.name)
    kinds = {key: version_kind_table(values) for key, values in sorted(seen.items())}
    return {"releases": releases, "versions": versions, "introduced": introduced, "outside": outside,
            "names": names, "kinds": kinds}


def runtime_ref(image: ReleaseImage, runtime: Runtime) -> str:
    """The compare page's address of one runtime: ``<image ref>~<runtime id>``
    (``training-xpu-pytorch:2026-10-20~llama-factory/20261015``)."""
    return f"{image.ref}~{runtime.id}"


def _dumped(record: ReleaseRecord) -> dict:
    """A record as the bundle holds it for the carry decision: its JSON dump with ``order_key``."""
    out = record.model_dump(mode="json")
    key = record.order_key
    out["order_key"] = list(key) if key is not None else None
    return out


def _release_context(site: SiteModel, page: PageSpec) -> dict:
    view = site.views[page.id.partition(":")[2]]
    return {"view": view, "r": view.record}


def _family_context(site: SiteModel, page: PageSpec) -> dict:
    return {"family": site.kb.families[page.id.partition(":")[2]]}


def _component_context(site: SiteModel, page: PageSpec) -> dict:
    return {"component": site.kb.components[page.id.partition(":")[2]]}


def _printer_context(site: SiteModel, page: PageSpec) -> dict:
    assert site.troubleshooting is not None
    return {"group": next(g for g in site.troubleshooting.groups if g.page_id == page.id)}


def _catalog_context(site: SiteModel, page: PageSpec) -> dict:
    assert site.error_catalogs is not None
    return {"catalog": site.error_catalogs.by_page_id[page.id]}


def build_site_model(kb: KnowledgeBase) -> SiteModel:
    """Compute the :class:`SiteModel` of a validated knowledge base.

    Releases whose family is not in the catalog are skipped (the data gate
    reports them as errors before the site is built).
    """
    families = _family_order(kb)
    by_family = {f.id: kb.releases_of(f.id, newest_first=True) for f in families}
    components = sorted(kb.components.values(), key=lambda c: c.name.lower())
    shooting = troubleshooting(kb, families, by_family)
    remedies = checker_remedies(kb)
    catalogs = error_catalogs(kb)
    sitemap = _sitemap(families, by_family, components, shooting, catalogs)
    issue_releases = _issue_releases(kb)
    branches = matrix_branches(kb.releases, kb.driver_branches)
    rows_by_family = {family.id: family_rows(family, by_family[family.id]) for family in families}
    views = _release_views(kb, families, by_family, rows_by_family, branches, issue_releases, shooting, remedies)
    return SiteModel(
        kb=kb,
        sitemap=sitemap,
        families=families,
        releases_by_family=by_family,
        views=views,
        issue_releases=issue_releases,
        branches=branches,
        matrix_components=_matrix_components(kb),
        timelines=_timelines(components, families, by_family),
        compare_data=_compare_data(kb, families, by_family),
        usage_by_rule=_usage_by_rule(families, by_family),
        lifecycle=branch_lifecycle(kb.driver_branches),
        branch_sources={src.id: src for src in kb.driver_branches.sources} if kb.driver_branches else {},
        driver_tables={
            f.id: family_driver_table([(r, views[r.ref].driver_cells) for r in by_family[f.id] if views[r.ref].driver_cells])
            for f in families
        },
        family_rows=rows_by_family,
        troubleshooting=shooting,
        remedies=remedies,
        error_catalogs=catalogs,
    )


def _sitemap(families: list[Family], by_family: dict[str, list[ReleaseRecord]], components: list,
             shooting: Any, catalogs: Optional[ErrorCatalogPages] = None) -> SiteMap:
    """Every page (fixed pages, family, release, component and troubleshooting pages: the error catalogs' pages the
    knowledge base has a catalog for, then one per printer), each release placed beside its family page, and the
    navigation.

    Releases stay out of the navigation (it is rendered into every page, so listing them made the build grow with
    pages squared); the family page lists them, a release page shows its family's section as where the reader is,
    and its footer goes to the older (previous) and newer (next) release of the family, as the page's own
    "Previous release".
    """
    sitemap = SiteMap()
    for page in static_pages():
        sitemap.add(page)
    for family in families:
        sitemap.add(PageSpec(family_page_id(family.id), f"families/{family.id}/index.md",
                             {"en": family.title.en, "zh": family.title.zh}, "family.md.j2", _family_context))
        for record in by_family[family.id]:
            sitemap.add(PageSpec(release_page_id(record), f"releases/{record.family}/{record.version}.md",
                                 {"en": record.version, "zh": record.version}, "release.md.j2", _release_context))
    for component in components:
        sitemap.add(PageSpec(component_page_id(component.id), f"components/{component.id}.md",
                             {"en": component.name, "zh": component.name}, "component.md.j2", _component_context))
    catalog_pages = catalogs.page_specs(_catalog_context) if catalogs is not None else []
    for spec in catalog_pages:
        sitemap.add(spec)
    for group in shooting.groups:
        sitemap.add(PageSpec(group.page_id, group.path, _printer_titles(group.printer.value),
                             "troubleshooting_printer.md.j2", _printer_context))
    family_sections: list = []
    for family in families:
        family_sections.append(NavSection(f"nav:family:{family.id}", {"en": family.title.en, "zh": family.title.zh},
                                          [family_page_id(family.id)]))
        records = by_family[family.id]  # newest first
        for index, record in enumerate(records):
            older = records[index + 1] if index + 1 < len(records) else None
            newer = records[index - 1] if index > 0 else None
            sitemap.placements[release_page_id(record)] = Placement(
                beside=family_page_id(family.id),
                previous=release_page_id(older) if older else None,
                next=release_page_id(newer) if newer else None,
            )
    sitemap.nav = navigation({
        "releases": family_sections,
        "components": [component_page_id(c.id) for c in components],
        "troubleshooting": [spec.id for spec in catalog_pages] + [group.page_id for group in shooting.groups],
    })
    return sitemap


def _issue_releases(kb: KnowledgeBase) -> dict[str, list[ReleaseRecord]]:
    """Known issue id -> the releases it affects (its ``affects`` and the records naming it), in release order."""
    issue_releases: dict[str, list[ReleaseRecord]] = {}
    for issue in sorted(kb.known_issues.values(), key=lambda i: i.id):
        refs = set(issue.affects.releases)
        refs.update(r.ref for r in kb.releases if issue.id in r.known_issues)
        found = [r for r in (kb.release(ref) for ref in sorted(refs)) if r is not None]
        found.sort(key=release_sort_key)
        issue_releases[issue.id] = found
    return issue_releases


@dataclass
class _ViewInputs:
    """What every release view of one site build reads: the knowledge base, the matrix branches, the issues by
    release, the troubleshooting and remedies sections, and the records as the bundle holds them."""

    kb: KnowledgeBase
    branches: list
    issue_releases: dict[str, list[ReleaseRecord]]
    shooting: Any
    remedies: Any
    names: dict[str, str]
    dumped: list[dict]
    dumped_by_ref: dict[str, dict]
    dumped_issues: list[dict]
    cell_memo: dict = field(default_factory=dict)  # releases sharing CUDA and driver requirement share their cells
    #: the day lifecycles are evaluated on (the build day, as the drivers page uses)
    day: Any = field(default_factory=build_day)


def _release_views(kb: KnowledgeBase, families: list[Family], by_family: dict[str, list[ReleaseRecord]],
                   rows_by_family: dict[str, list], branches: list, issue_releases: dict[str, list[ReleaseRecord]],
                   shooting: Any, remedies: Any) -> dict[str, "ReleaseView"]:
    """Release ref -> its :class:`ReleaseView` (:func:`_release_view`), family by family, newest first."""
    # the checker's decision on carried notes and issues reads records as the bundle holds them
    dumped = [_dumped(r) for r in kb.releases]
    inputs = _ViewInputs(kb=kb, branches=branches, issue_releases=issue_releases, shooting=shooting, remedies=remedies,
                         names={c.id: c.name for c in kb.components.values()}, dumped=dumped,
                         dumped_by_ref={f"{d['family']}:{d['version']}": d for d in dumped},
                         dumped_issues=[i.model_dump(mode="json")
                                        for i in sorted(kb.known_issues.values(), key=lambda i: i.id)])
    views: dict[str, ReleaseView] = {}
    for family in families:
        records = by_family[family.id]
        for index, record in enumerate(records):
            views[record.ref] = _release_view(inputs, family, records, rows_by_family[family.id], index)
    return views


def _release_view(inputs: _ViewInputs, family: Family, records: list[ReleaseRecord], rows: list,
                  index: int) -> "ReleaseView":
    """The view of ``records[index]`` (``records`` and ``rows``: its family's releases and table rows, newest
    first): neighbours, comparison with the previous release, driver cells, known issues, signatures, remedies and
    the notes and issues carried from the family's other releases."""
    kb = inputs.kb
    record = records[index]
    previous = records[index + 1] if index + 1 < len(records) else None
    at, between = _table_position(rows, record, previous)
    # a page's "new" mark is said against its direct predecessor: not when an unrecorded release lies between
    comparison = compare_releases(previous, record, inputs.names, direct=not between) if previous else None
    issues = [kb.known_issues[i] for i in sorted(inputs.issue_releases)
              if any(r.ref == record.ref for r in inputs.issue_releases[i])]
    own = inputs.dumped_by_ref[record.ref]
    return ReleaseView(
        record=record,
        family=family,
        page_id=release_page_id(record),
        previous=previous,
        newer=records[index - 1] if index > 0 else None,
        newest=records[0],
        diff=comparison.single if comparison else None,
        layers=_layers(kb, record.components),
        known_issues=issues,
        driver_cells=_driver_cells(inputs, family, records, record),
        base=kb.release(record.base_image.release) if record.base_image else None,
        images=_images(kb, record),
        comparison=comparison,
        successor=rows[at - 1] if at > 0 else None,
        newest_named=rows[0] if at > 0 else None,
        between=between,
        earlier_named=[row for row in rows[at + 1:] if row.record is None] if previous is None else [],
        signatures=inputs.shooting.for_release(record),
        remedies=inputs.remedies.for_release(record),
        carried_notes=[(UsageNote.model_validate(c.item), c) for c in carried_usage_notes(inputs.dumped, own)],
        carried_issues=[(kb.known_issues[c.key()], c)
                        for c in carried_known_issues(inputs.dumped, inputs.dumped_issues, own)],
        forward_branches=stated_branches([(f.branch, f.minimum) for f in record.driver.forward_compatibility]
                                         if record.driver is not None else [], kb.driver_branches, inputs.day),
        forward_as_of=inputs.day,
    )


def _table_position(rows: list, record: ReleaseRecord, previous: Optional[ReleaseRecord]) -> tuple[int, list]:
    """``(index of record's row, the rows between it and its previous release's row)`` in the family table
    (newest first; rows of releases the pages name without a record lie between)."""
    at = next(i for i, row in enumerate(rows) if row.record is record)
    below = next((i for i, row in enumerate(rows) if row.record is previous), len(rows)) if previous else at + 1
    return at, rows[at + 1:below]


def _driver_cells(inputs: _ViewInputs, family: Family, records: list[ReleaseRecord],
                  record: ReleaseRecord) -> list[tuple[int, MatrixCell]]:
    """The release's NVIDIA branch verdicts for an NVIDIA image; a release without a driver section gets them only
    in an NVIDIA-GPU family (a PPU image that states only its PPU SDK, 2026-10-20, has no NVIDIA branch cells)."""
    nvidia = (record.driver.vendor is DriverVendor.nvidia if record.driver is not None
              else family.accelerator is Accelerator.nvidia_gpu)
    if not nvidia:
        return []
    return branch_cells(record, inputs.branches, inputs.kb.cuda_drivers, memo=inputs.cell_memo, family=records)


def _matrix_components(kb: KnowledgeBase) -> dict[str, set[str]]:
    """Matrix column id -> the component ids its names resolve to."""
    matrix_components: dict[str, set[str]] = {}
    for column in MATRIX_COLUMNS:
        ids: set[str] = set()
        for name in column.names:
            found = kb.component_for_name(name)
            if found is not None:
                ids.add(found.id)
        matrix_components[column.id] = ids
    return matrix_components


def _timelines(components: list, families: list[Family], by_family: dict[str, list[ReleaseRecord]]) -> dict[str, list]:
    """Component id -> ``[(family, [(record, entries or None when the record lists no components)])]`` for the
    families where some release lists the component."""
    timelines: dict[str, list] = {}
    for component in components:
        per_family = []
        for family in families:
            rows = []
            for record in by_family[family.id]:
                listed = components_of(record)
                if not listed:
                    rows.append((record, None))
                    continue
                entries = [e for e in listed if e.id == component.id]
                rows.append((record, entries))
            if any(entries for _, entries in rows):
                per_family.append((family, rows))
        timelines[component.id] = per_family
    return timelines


def _usage_by_rule(families: list[Family], by_family: dict[str, list[ReleaseRecord]]) -> dict[str, list[ReleaseRecord]]:
    """Checker rule id -> the releases with a usage note naming it, in family then release order."""
    usage_by_rule: dict[str, list[ReleaseRecord]] = {}
    for family in families:
        for record in by_family[family.id]:
            for note in record.usage_notes:
                if note.rule and record not in usage_by_rule.setdefault(note.rule, []):
                    usage_by_rule[note.rule].append(record)
    return usage_by_rule
