"""``data.error-catalog-refs``: what an error catalog names exists, and its format strings are distinct.

A CUDA error entry's ``signature`` is a file under ``releases/troubleshooting/``; no two NCCL messages share a file and
a format string (each is one entry, with one anchor on the site), nor two libnvidia-container messages a file, a
format and what the library appends; a format catalog's message names only versions the catalog read, and a
libnvidia-container subsystem's ``stages`` are prefixes of the CLI's context messages (``mount error``), with one
commit per version read.  Two CUDA codes may share a message (CUDA's own
table does: a deprecated code keeps its successor's text); a line printing only that message names the lower code.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.error_catalogs import CUDA_APIS
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["check"]


@gate_rule("data.error-catalog-refs", Severity.error,
           "Error catalog entries name existing signatures, read versions and CLI stages; format strings are listed once per file.",
           order=254)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report a CUDA entry's unknown ``signature`` and a repeated NCCL message."""
    signatures = {signature.id for _, signature in corpus.signatures()}
    signatures |= {r.path.stem for r in corpus.rejected if r.kind == "error-signature"}
    for doc in corpus.of_kind("cuda-error-catalog"):
        for api in CUDA_APIS:
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
    for doc in [*corpus.of_kind("nccl-warning-catalog"), *corpus.of_kind("container-cli-error-catalog")]:
        read = set(doc.model.versions)
        for index, message in enumerate(doc.model.messages):
            for at, version in enumerate(message.versions):
                if version not in read:
                    yield Issue(doc.path, ("messages", index, "versions", at), f"version {version!r} is not one of "
                                f"the catalog's versions ({', '.join(doc.model.versions)})")
    for doc in corpus.of_kind("container-cli-error-catalog"):
        model = doc.model
        if len(model.commits) != len(model.versions):
            yield Issue(doc.path, ("commits",), f"{len(model.commits)} commits for {len(model.versions)} versions: "
                        "one commit per version read")
        contexts = model.contexts()
        for index, sub in enumerate(model.subsystems):
            for at, stage in enumerate(sub.stages):
                if stage not in contexts:
                    yield Issue(doc.path, ("subsystems", index, "stages", at), f"stage {stage!r} is not the prefix "
                                "of a context message (a CLI format 'STAGE: %s' with context: true)")
        triples: set[tuple[str, str, str]] = set()
        for index, message in enumerate(model.messages):
            key3 = (message.file, message.format, message.appends or "")
            if key3 in triples:
                yield Issue(doc.path, ("messages", index), f"{message.file}: format {message.format!r} is listed twice")
            triples.add(key3)
