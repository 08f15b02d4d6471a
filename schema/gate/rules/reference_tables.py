"""``data.reference-tables``: NVIDIA reference tables are present, unique and cite their sources."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.checks.core.versions import CudaVersion, DriverVersion
from lingjun.schema.models import CudaDriverReference, DriverBranchReference, Severity


def _duplicates(doc_path, table: str, keys: list) -> Iterator[Issue]:
    seen: dict = {}
    for index, key in enumerate(keys):
        if key in seen:
            yield Issue(doc_path, (table, index), f"{key} is listed twice (first as {table}.{seen[key]})")
        seen.setdefault(key, index)


@gate_rule("data.reference-tables", Severity.error,
           "cuda-drivers.yaml and driver-branches.yaml exist when NVIDIA releases do; their rows are unique, "
           "cite a listed source, and a toolkit row's cuda is its toolkit's major.minor.", order=230)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Check the two reference documents row by row."""
    yield from _missing(corpus)
    for doc in corpus.of_kind("cuda-drivers"):
        yield from _cuda_drivers(doc)
    for doc in corpus.of_kind("driver-branches"):
        yield from _driver_branches(doc)


def _missing(corpus: Corpus) -> Iterator[Issue]:
    """A warning per reference document that is absent while some release states an NVIDIA driver requirement."""
    if not any(r.driver is not None and r.driver.vendor.value == "nvidia" for _, r in corpus.releases()):
        return
    for kind in ("cuda-drivers", "driver-branches"):
        if not corpus.of_kind(kind):
            some_doc = next(doc for doc, r in corpus.releases() if r.driver is not None)
            yield Issue(some_doc.path, ("driver",),
                        f"releases/reference/{kind}.yaml is missing, so NVIDIA driver requirements cannot be checked",
                        Severity.warning)


def _cuda_drivers(doc) -> Iterator[Issue]:
    """cuda-drivers.yaml: unique rows per table, a toolkit row's cuda is its major.minor, every cited source is
    listed, and a newer toolkit never needs an older driver (a warning: check the row)."""
    ref: CudaDriverReference = doc.model  # type: ignore[assignment]
    source_ids = [s.id for s in ref.sources]
    yield from _duplicates(doc.path, "sources", source_ids)
    yield from _duplicates(doc.path, "toolkit_min_driver", [CudaVersion.parse(r.toolkit) for r in ref.toolkit_min_driver])
    yield from _duplicates(doc.path, "toolkit_branch", [CudaVersion.parse(r.cuda).major_minor for r in ref.toolkit_branch])
    yield from _duplicates(doc.path, "minor_version_compat", [r.cuda_major for r in ref.minor_version_compat])
    yield from _duplicates(doc.path, "forward_compat_images",
                           [CudaVersion.parse(r.image_cuda) for r in ref.forward_compat_images])
    for index, row in enumerate(ref.toolkit_min_driver):
        if CudaVersion.parse(row.toolkit).major_minor != CudaVersion.parse(row.cuda).major_minor:
            yield Issue(doc.path, ("toolkit_min_driver", index, "cuda"),
                        f"cuda {row.cuda} is not the major.minor of toolkit {row.toolkit}")
    yield from _cited(doc.path, ref, source_ids)
    rows = sorted(ref.toolkit_min_driver, key=lambda r: CudaVersion.parse(r.toolkit))
    for older, newer in zip(rows, rows[1:]):
        if DriverVersion.parse(newer.linux_min_driver) < DriverVersion.parse(older.linux_min_driver):
            index = ref.toolkit_min_driver.index(newer)
            yield Issue(doc.path, ("toolkit_min_driver", index, "linux_min_driver"),
                        f"CUDA {newer.toolkit} needs {newer.linux_min_driver}, less than {older.linux_min_driver} "
                        f"for the older {older.toolkit}; check the row", Severity.warning)


def _cited(doc_path, ref: CudaDriverReference, source_ids: list[str]) -> Iterator[Issue]:
    """An error per row citing a source id that ``sources`` does not list."""
    cited = [("toolkit_min_driver", i, "source", r.source) for i, r in enumerate(ref.toolkit_min_driver)]
    cited += [("toolkit_branch", i, "source", r.source) for i, r in enumerate(ref.toolkit_branch)]
    cited += [("forward_compat_images", i, "source", r.source) for i, r in enumerate(ref.forward_compat_images)]
    cited += [("minor_version_compat", i, "sources", j, s)
              for i, r in enumerate(ref.minor_version_compat) for j, s in enumerate(r.sources)]
    for *loc, source in cited:
        if source not in source_ids:
            yield Issue(doc_path, tuple(loc), f"source {source!r} is not listed under sources")


def _driver_branches(doc) -> Iterator[Issue]:
    """driver-branches.yaml: unique sources and branches, every branch citing a listed source."""
    branches: DriverBranchReference = doc.model  # type: ignore[assignment]
    source_ids = [s.id for s in branches.sources]
    yield from _duplicates(doc.path, "sources", source_ids)
    yield from _duplicates(doc.path, "branches", [b.branch for b in branches.branches])
    for index, branch in enumerate(branches.branches):
        if branch.source not in source_ids:
            yield Issue(doc.path, ("branches", index, "source"), f"source {branch.source!r} is not listed under sources")
