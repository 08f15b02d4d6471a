"""``data.runtimes``: the framework runtimes of one image have distinct ids and distinct paths.

An image (the PPU training image of 2026-10-20) may carry several runtimes, each a separate Python
environment under its own path (:class:`~lingjun.schema.models.Runtime`).  Two runtimes of one image
with the same id, or installed at the same path, cannot both be what the page describes.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.runtimes", Severity.error,
           "The runtimes of one image (a release or a variant) have distinct ids and distinct paths.", order=72)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a runtime whose id or path an earlier runtime of the same image already has."""
    for located in corpus.images():
        ids: dict[str, int] = {}
        paths: dict[str, int] = {}
        for index, runtime in enumerate(located.image.runtimes):
            loc = (*located.loc, "runtimes", index)
            first = ".".join(str(p) for p in (*located.loc, "runtimes"))
            if runtime.id in ids:
                yield Issue(located.doc.path, (*loc, "id"),
                            f"runtime {runtime.id!r} is already listed as {first}.{ids[runtime.id]} of "
                            f"{located.label}; keep one entry")
            ids.setdefault(runtime.id, index)
            if runtime.path is not None:
                if runtime.path.rstrip("/") in paths:
                    yield Issue(located.doc.path, (*loc, "path"),
                                f"path {runtime.path!r} is already the path of {first}.{paths[runtime.path.rstrip('/')]} "
                                f"of {located.label}; two runtimes cannot live in one folder")
                paths.setdefault(runtime.path.rstrip("/"), index)
