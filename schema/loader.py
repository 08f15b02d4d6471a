"""Loading YAML documents into the knowledge base.

PROVISIONAL: a plain loader so other parts can be built; it is being
replaced by the strict line-tracking loader (duplicate keys, unsafe tags,
alias bombs, size limits, unquoted versions) with the same signature.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import DOCUMENT_MODELS

__all__ = ["load_knowledge_base"]


def load_knowledge_base(root: Path) -> tuple[KnowledgeBase, list]:
    """Load every ``*.yaml`` under ``root``; returns ``(kb, problems)``."""
    kb = KnowledgeBase()
    problems: list = []
    for path in sorted(Path(root).rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        model = DOCUMENT_MODELS[data["kind"]]
        doc = model.model_validate(data)
        kind = data["kind"]
        if kind == "release":
            kb.releases.append(doc)
            kb.paths[doc.ref] = path
        elif kind == "families":
            kb.families.update({f.id: f for f in doc.families})
        elif kind == "components":
            kb.components.update({c.id: c for c in doc.components})
        elif kind == "known-issue":
            kb.known_issues[doc.id] = doc
            kb.paths[doc.id] = path
        elif kind == "cuda-drivers":
            kb.cuda_drivers = doc
        elif kind == "driver-branches":
            kb.driver_branches = doc
    kb.sort()
    return kb, problems
