"""``data.gpu-table``: the GPU reference table names each model once and cites a listed source."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import GpuReference, Severity


def _key(name: str) -> str:
    """A model name compared without case or repeated blanks (``GeForce  RTX 4090`` == ``geforce rtx 4090``)."""
    return " ".join(name.lower().split())


@gate_rule("data.gpu-table", Severity.error,
           "gpus.yaml names each GPU model once (case and blanks ignored) and every row cites a listed source; "
           "the compute capability format (major.minor) is checked by the schema.", order=231)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a model listed twice, a repeated source id and a row citing an unlisted source."""
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
            key = _key(gpu.name)
            if key in seen:
                yield Issue(doc.path, ("gpus", index, "name"), f"GPU {gpu.name!r} is listed twice (first as gpus.{seen[key]})")
            seen.setdefault(key, index)
            if gpu.source not in source_ids:
                yield Issue(doc.path, ("gpus", index, "source"), f"source {gpu.source!r} is not listed under sources")
