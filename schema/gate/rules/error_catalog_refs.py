"""``data.error-catalog-refs``: what an error catalog names exists, and its NCCL entries are distinct.

A CUDA error entry's ``signature`` is a file under ``releases/troubleshooting/``; no two NCCL messages share a file and
a format string (each is one entry, with one anchor on the site).  Two CUDA codes may share a message (CUDA's own
table does: a deprecated code keeps its successor's text); a line printing only that message names the lower code.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["check"]


@gate_rule("data.error-catalog-refs", Severity.error,
           "Error catalog entries name existing signatures; NCCL format strings are listed once per file.",
           order=254)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a CUDA entry's unknown ``signature`` and a repeated NCCL message."""
    signatures = {signature.id for _, signature in corpus.signatures()}
    signatures |= {r.path.stem for r in corpus.rejected if r.kind == "error-signature"}
    for doc in corpus.of_kind("cuda-error-catalog"):
        for api in ("runtime", "driver", "nvml"):
            for index, entry in enumerate(getattr(doc.model, api)):
                if entry.signature is not None and entry.signature not in signatures:
                    yield Issue(doc.path, (api, index, "signature"), f"error signature {entry.signature!r} does not "
                                f"exist; add releases/troubleshooting/{entry.signature}.yaml or remove the reference")
    for doc in corpus.of_kind("nccl-warning-catalog"):
        pairs: set[tuple[str, str]] = set()
        for index, message in enumerate(doc.model.messages):
            key = (message.file, message.format)
            if key in pairs:
                yield Issue(doc.path, ("messages", index), f"{message.file}: format {message.format!r} is listed twice")
            pairs.add(key)
