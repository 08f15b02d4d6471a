"""``data.gpu-table``: the GPU reference table names each model once (as the GPU lookup reads names), with a compute
capability that agrees with its architecture, and cites a listed source."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.gpu_arch import architecture, parse_cc
from lingjun.checks.core.gpu_models import lookup_key
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import GpuReference, Severity


@gate_rule("data.gpu-table", Severity.error,
           "gpus.yaml names each GPU model once as the GPU lookup reads names (NFKC, case, blanks, -/_ and a leading "
           "NVIDIA ignored, and blanks removed), no name is blank, every compute capability agrees with the architecture a row states and every row "
           "cites a listed source; the compute capability format (major.minor) and a strict boolean data_center are "
           "checked by the schema.", order=231)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a blank name, a model listed twice, a compute capability another architecture has, a repeated source id
    and a row citing an unlisted source."""
    for doc in corpus.of_kind("gpus"):
        table: GpuReference = doc.model  # type: ignore[assignment]
        source_ids = [s.id for s in table.sources]
        seen_sources: dict[str, int] = {}
        for index, source in enumerate(source_ids):
            if source in seen_sources:
                yield Issue(doc.path, ("sources", index, "id"), f"source {source!r} is listed twice (first as sources.{seen_sources[source]})")
            seen_sources.setdefault(source, index)
        seen: dict[str, int] = {}
        for index, gpu in enumerate(table.gpus):
            # the lookup also compares names with the blanks removed (RTX4090): so does the gate
            key = lookup_key(gpu.name).replace(" ", "")
            if not key:
                yield Issue(doc.path, ("gpus", index, "name"), f"GPU name {gpu.name!r} is blank once the lookup reads it")
            elif key in seen:
                yield Issue(doc.path, ("gpus", index, "name"), f"GPU {gpu.name!r} is listed twice (first as gpus.{seen[key]})")
            if key:
                seen.setdefault(key, index)
            cc = parse_cc(gpu.compute_capability)
            implied = architecture(cc) if cc else None
            stated = gpu.architecture.value if gpu.architecture is not None else None
            if stated is not None and implied != stated:
                yield Issue(doc.path, ("gpus", index, "architecture"),
                            f"compute capability {gpu.compute_capability} is {implied or 'not a known architecture'}, "
                            f"the row says {stated or 'none'}")
            if gpu.source not in source_ids:
                yield Issue(doc.path, ("gpus", index, "source"), f"source {gpu.source!r} is not listed under sources")
