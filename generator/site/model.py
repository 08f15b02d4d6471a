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
from typing import Optional

from lingjun.schema.kb import KnowledgeBase, release_sort_key
from lingjun.schema.models import (
    Component,
    ComponentEntry,
    DriverVendor,
    Family,
    FamilyRole,
    KnownIssue,
    Layer,
    ReleaseRecord,
    StatedIn,
)

from lingjun.generator.site.branch_lifecycle import BranchLifecycle, branch_lifecycle
from lingjun.generator.site.diff import (
    ReleaseDiff,
    diff_releases,
    entry_key,
    version_kind_table,
)
from lingjun.generator.site.driver_matrix import (
    FamilyDriverTable,
    MatrixCell,
    branch_cells,
    family_driver_table,
    matrix_branches,
)
from lingjun.generator.site.nav import NavSection, PageSpec, Placement, SiteMap
from lingjun.generator.site.pages import navigation, static_pages
from lingjun.generator.site.upstream import upstream_link

__all__ = [
    "ComponentRow",
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
    """``release:<family>:<YY.MM>``."""
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


@dataclass
class ReleaseView:
    """Everything the release page shows beyond the record itself."""

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

    @property
    def anchor(self) -> str:
        """Anchor of this release on list pages (``training-nv-pytorch-25-07``)."""
        return f"{self.record.family}-{self.record.version.replace('.', '-')}"


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
    #: family id -> its table on the drivers page (NVIDIA-driver releases only)
    driver_tables: dict[str, FamilyDriverTable] = field(default_factory=dict)

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
        for entry in record.components:
            if entry.id in ids:
                arch = "+".join(a.value for a in entry.architectures) or None
                if (entry.version, arch) not in values:
                    values.append((entry.version, arch))
        return values

    def latest(self, family_id: str) -> Optional[ReleaseRecord]:
        """Newest release of a family, or None."""
        found = self.releases_by_family.get(family_id) or []
        return found[0] if found else None


def _family_order(kb: KnowledgeBase) -> list[Family]:
    product = [f for f in kb.families.values() if f.role is FamilyRole.product]
    base = [f for f in kb.families.values() if f.role is not FamilyRole.product]
    return product + base


def _layers(kb: KnowledgeBase, record: ReleaseRecord) -> list[tuple[Layer, list[ComponentRow]]]:
    grouped: dict[Layer, list[ComponentRow]] = {layer: [] for layer in LAYER_ORDER}
    for entry in record.components:
        component = kb.components.get(entry.id)
        url, kind = upstream_link(component, entry.version)
        layer = component.layer if component else Layer.library
        grouped[layer].append(
            ComponentRow(entry, component, component_page_id(entry.id) if component else None, url, kind)
        )
    return [(layer, grouped[layer]) for layer in LAYER_ORDER if grouped[layer]]


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
    """
    releases = []
    versions: dict[str, dict[str, str]] = {}
    introduced: dict[str, list[str]] = {}
    outside: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    seen: dict[str, set[str]] = {}
    for family in families:
        for record in by_family.get(family.id, []):
            row: dict[str, str] = {}
            for entry in record.components:
                key = entry_key(entry)
                row.setdefault(key, entry.version)
                if entry.introduced:
                    introduced.setdefault(record.ref, []).append(key)
                if entry.stated_in is not StatedIn.component_list:
                    outside.setdefault(record.ref, []).append(key)
                names.setdefault(key, entry.name if entry.id not in kb.components else kb.components[entry.id].name)
                # version kinds per component id: an all-architecture entry is compared with
                # each architecture's entry when a release splits its list
                seen.setdefault(entry.id, set()).add(entry.version)
            older = by_family.get(family.id, [])
            position = older.index(record)
            releases.append({"ref": record.ref, "family": record.family, "version": record.version,
                             "listed": bool(record.components), "list": record.component_list.value,
                             "previous": older[position + 1].ref if position + 1 < len(older) else None,
                             "unknown": list(record.presence_unknown)})
            versions[record.ref] = row
    kinds = {key: version_kind_table(values) for key, values in sorted(seen.items())}
    return {"releases": releases, "versions": versions, "introduced": introduced, "outside": outside,
            "names": names, "kinds": kinds}


def _release_context(site: SiteModel, page: PageSpec) -> dict:
    view = site.views[page.id.partition(":")[2]]
    return {"view": view, "r": view.record}


def _family_context(site: SiteModel, page: PageSpec) -> dict:
    return {"family": site.kb.families[page.id.partition(":")[2]]}


def _component_context(site: SiteModel, page: PageSpec) -> dict:
    return {"component": site.kb.components[page.id.partition(":")[2]]}


def build_site_model(kb: KnowledgeBase) -> SiteModel:
    """Compute the :class:`SiteModel` of a validated knowledge base.

    Releases whose family is not in the catalog are skipped (the data gate
    reports them as errors before the site is built).
    """
    sitemap = SiteMap()
    for page in static_pages():
        sitemap.add(page)
    families = _family_order(kb)
    by_family = {f.id: kb.releases_of(f.id, newest_first=True) for f in families}

    for family in families:
        sitemap.add(PageSpec(family_page_id(family.id), f"families/{family.id}/index.md",
                             {"en": family.title.en, "zh": family.title.zh}, "family.md.j2", _family_context))
        for record in by_family[family.id]:
            sitemap.add(PageSpec(release_page_id(record), f"releases/{record.family}/{record.version}.md",
                                 {"en": record.version, "zh": record.version}, "release.md.j2", _release_context))
    components = sorted(kb.components.values(), key=lambda c: c.name.lower())
    for component in components:
        sitemap.add(PageSpec(component_page_id(component.id), f"components/{component.id}.md",
                             {"en": component.name, "zh": component.name}, "component.md.j2", _component_context))

    issue_releases: dict[str, list[ReleaseRecord]] = {}
    for issue in sorted(kb.known_issues.values(), key=lambda i: i.id):
        refs = set(issue.affects.releases)
        refs.update(r.ref for r in kb.releases if issue.id in r.known_issues)
        found = [r for r in (kb.release(ref) for ref in sorted(refs)) if r is not None]
        found.sort(key=release_sort_key)
        issue_releases[issue.id] = found

    branches = matrix_branches(kb.releases, kb.driver_branches)
    cell_memo: dict = {}  # releases sharing CUDA and driver requirement share their cells
    names = {c.id: c.name for c in kb.components.values()}
    views: dict[str, ReleaseView] = {}
    for family in families:
        records = by_family[family.id]
        for index, record in enumerate(records):
            previous = records[index + 1] if index + 1 < len(records) else None
            newer = records[index - 1] if index > 0 else None
            base = kb.release(record.base_image.release) if record.base_image else None
            issues = [kb.known_issues[i] for i in sorted(issue_releases) if any(r.ref == record.ref for r in issue_releases[i])]
            cells: list[tuple[int, MatrixCell]] = []
            if record.driver is None or record.driver.vendor is DriverVendor.nvidia:
                cells = branch_cells(record, branches, kb.cuda_drivers, memo=cell_memo)
            views[record.ref] = ReleaseView(
                record=record,
                family=family,
                page_id=release_page_id(record),
                previous=previous,
                newer=newer,
                newest=records[0],
                diff=diff_releases(previous, record, names, direct=True) if previous else None,
                layers=_layers(kb, record),
                known_issues=issues,
                driver_cells=cells,
                base=base,
            )

    matrix_components: dict[str, set[str]] = {}
    for column in MATRIX_COLUMNS:
        ids: set[str] = set()
        for name in column.names:
            found = kb.component_for_name(name)
            if found is not None:
                ids.add(found.id)
        matrix_components[column.id] = ids

    timelines: dict[str, list] = {}
    for component in components:
        per_family = []
        for family in families:
            rows = []
            for record in by_family[family.id]:
                if not record.components:
                    rows.append((record, None))
                    continue
                entries = [e for e in record.components if e.id == component.id]
                rows.append((record, entries))
            if any(entries for _, entries in rows):
                per_family.append((family, rows))
        timelines[component.id] = per_family

    # navigation: the fixed pages and sections of pages.SITE, plus one section per family holding
    # its page only.  Releases stay out of the navigation (it is rendered into every page, so
    # listing them made the build grow with pages squared); the family page lists them, a release
    # page shows its family's section as where the reader is, and its footer goes to the older
    # (previous) and newer (next) release of the family, as the page's own "Previous release".
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
    })

    usage_by_rule: dict[str, list[ReleaseRecord]] = {}
    for family in families:
        for record in by_family[family.id]:
            for note in record.usage_notes:
                if note.rule and record not in usage_by_rule.setdefault(note.rule, []):
                    usage_by_rule[note.rule].append(record)

    return SiteModel(
        kb=kb,
        sitemap=sitemap,
        families=families,
        releases_by_family=by_family,
        views=views,
        issue_releases=issue_releases,
        branches=branches,
        matrix_components=matrix_components,
        timelines=timelines,
        compare_data=_compare_data(kb, families, by_family),
        usage_by_rule=usage_by_rule,
        lifecycle=branch_lifecycle(kb.driver_branches),
        driver_tables={
            f.id: family_driver_table([(r, views[r.ref].driver_cells) for r in by_family[f.id] if views[r.ref].driver_cells])
            for f in families
        },
    )
