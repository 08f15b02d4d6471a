"""The loaded knowledge base: every validated document, indexed for lookups.

Built by :func:`lingjun.schema.loader.load_knowledge_base`; consumed by the
gate's cross-record rules, the site generator and the bundle compiler.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from lingjun.schema.error_catalogs import ContainerCliCatalog, CudaErrorCatalog, NcclWarningCatalog, XidCatalog
from lingjun.schema.models import (
    Component,
    CudaDriverReference,
    DriverBranchReference,
    ErrorSignature,
    TorchWheelReference,
    Family,
    GpuReference,
    KnownIssue,
    ReleaseRecord,
    Source,
)

__all__ = ["KnowledgeBase", "release_sort_key"]


def release_sort_key(record: ReleaseRecord) -> tuple[str, bool, tuple[int, int, int], str]:
    """Sort key: family, then date order (25.10 after 25.09, ``2026-10-20`` after ``25.05``).

    Releases are ordered by :attr:`ReleaseRecord.order_key` (the month of a ``YY.MM`` release, the
    date of a dated one, else the record's ``release_date``).  A release that neither names nor
    states a date sorts after the dated ones, by identifier (the gate rule ``data.release-order``
    reports it when its family has other releases).
    """
    key = record.order_key
    return (record.family, key is None, key or (0, 0, 0), record.version)


@dataclass
class KnowledgeBase:
    """All documents under ``releases/``.

    Attributes:
        families: family id -> :class:`Family`.
        components: component id -> catalog :class:`Component`.
        releases: every release record, sorted by family then date (oldest first; :func:`release_sort_key`).
        known_issues: known-issue id -> :class:`KnownIssue`.
        cuda_drivers: NVIDIA toolkit/driver tables, or None when absent.
        driver_branches: NVIDIA driver branch lifecycle, or None when absent.
        gpus: NVIDIA GPU models (compute capability, data center class), or None when absent.
        torch_wheels: the CUDA variants PyTorch published for each torch release, or None when absent.
        catalog_sources: pages about every family at once (``families.yaml``'s ``sources``: the official
            index of AI container image releases).
        paths: id of each document (release ref, known-issue id, kind for catalogs) -> source file.
    """

    families: dict[str, Family] = field(default_factory=dict)
    components: dict[str, Component] = field(default_factory=dict)
    releases: list[ReleaseRecord] = field(default_factory=list)
    known_issues: dict[str, KnownIssue] = field(default_factory=dict)
    #: error-signature id -> :class:`ErrorSignature` (``releases/troubleshooting/``)
    signatures: dict[str, ErrorSignature] = field(default_factory=dict)
    cuda_drivers: Optional[CudaDriverReference] = None
    driver_branches: Optional[DriverBranchReference] = None
    gpus: Optional[GpuReference] = None
    torch_wheels: Optional[TorchWheelReference] = None
    #: the error catalogs (``releases/errors/``), or None when absent
    xids: Optional[XidCatalog] = None
    cuda_errors: Optional[CudaErrorCatalog] = None
    nccl_warnings: Optional[NcclWarningCatalog] = None
    #: libnvidia-container's error messages (``releases/errors/nvidia-container-cli.yaml``)
    container_cli: Optional[ContainerCliCatalog] = None
    catalog_sources: list[Source] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    #: published name -> component, exact and lower-cased, built on first lookup for the catalog as it was then
    #: (rebuilt when :attr:`components` is replaced or changes size)
    _names: Optional[tuple[int, int, dict[str, Component], dict[str, Component]]] = field(
        default=None, init=False, repr=False, compare=False)

    def sort(self) -> None:
        """Put :attr:`releases` in (family, date) order (:func:`release_sort_key`)."""
        self.releases.sort(key=release_sort_key)

    def release(self, ref: str) -> Optional[ReleaseRecord]:
        """The release ``family:release`` (``training-nv-pytorch:25.07``, ``training-xpu-pytorch:2026-10-20``) or None."""
        family, _, version = ref.partition(":")
        return next((r for r in self.releases if r.family == family and r.version == version), None)

    def releases_of(self, family: str, newest_first: bool = True) -> list[ReleaseRecord]:
        """Releases of one family, newest first by default."""
        found = [r for r in self.releases if r.family == family]
        found.sort(key=release_sort_key, reverse=newest_first)
        return found

    def previous(self, record: ReleaseRecord) -> Optional[ReleaseRecord]:
        """The release of the same family just before ``record``, or None."""
        ordered = self.releases_of(record.family, newest_first=False)
        at = next((i for i, r in enumerate(ordered) if r.version == record.version), None)
        return ordered[at - 1] if at else None

    def component_for_name(self, published_name: str) -> Optional[Component]:
        """The catalog component published under this name (exact, then case-insensitive), or None.

        An exact published name or id wins over a case-insensitive published name; among components that
        share a name, the first in catalog order.  Two dict lookups: a page may list thousands of names.
        """
        key = (id(self.components), len(self.components))
        if self._names is None or self._names[:2] != key:
            exact: dict[str, Component] = {}
            lowered: dict[str, Component] = {}
            for component in self.components.values():
                for name in [*component.published_names, component.id]:
                    exact.setdefault(name, component)
                for name in component.published_names:
                    lowered.setdefault(name.lower(), component)
            self._names = (*key, exact, lowered)
        found = self._names[2].get(published_name)
        return found if found is not None else self._names[3].get(published_name.lower())
