"""Compile the validated knowledge base into the JSON bundle the checker embeds.

See :mod:`lingjun.checks.knowledge.bundle` for the layout.  The output is
deterministic: same input, byte-identical JSON.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from lingjun.checks.knowledge.bundle import BUNDLE_FORMAT
from lingjun.schema.kb import KnowledgeBase

__all__ = ["compile_bundle", "bundle_json"]


#: release fields the checker never reads and the bundle leaves out: the editorial account of where the
#: official pages contradict each other (prose in two languages, shown on the site), kept out so the
#: single-file checker stays under its size budget
_SITE_ONLY_RELEASE_FIELDS = {"source_conflicts"}


def compile_bundle(kb: KnowledgeBase, site_url: Optional[str] = None) -> dict[str, Any]:
    """The bundle dict for ``kb`` (every model dumped with ``mode="json"``; release records without
    ``source_conflicts``, which only the site shows).

    ``site_url``: the published site's root (ending in ``/``) the checker's report links point into;
    None (stored as null): the reports link to each record's official release page and to upstream
    documents instead."""
    return {
        "format": BUNDLE_FORMAT,
        "site_url": site_url,
        "families": [f.model_dump(mode="json") for f in kb.families.values()],
        "components": [c.model_dump(mode="json") for c in kb.components.values()],
        "releases": [r.model_dump(mode="json", exclude=_SITE_ONLY_RELEASE_FIELDS) for r in kb.releases],
        "known_issues": [k.model_dump(mode="json") for k in sorted(kb.known_issues.values(), key=lambda k: k.id)],
        "cuda_drivers": kb.cuda_drivers.model_dump(mode="json") if kb.cuda_drivers else None,
        "driver_branches": kb.driver_branches.model_dump(mode="json") if kb.driver_branches else None,
        "gpus": kb.gpus.model_dump(mode="json") if kb.gpus else None,
    }


def bundle_json(bundle: dict[str, Any]) -> str:
    """Serialise a bundle compactly and deterministically."""
    return json.dumps(bundle, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
