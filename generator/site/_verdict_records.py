"""Every release as the driver verdicts read it: the bundle's dict of the record, with its family's evidence.

The finder, ``lingjun-kb which``, the drivers page and the release pages pass these dicts to
:func:`lingjun.checks.core.release_compat.release_verdict`, as the checker passes its release match
(:func:`lingjun.checks.core.family_driver.driver_view` over the bundle's releases of the family), so a release whose
driver text is cut off gets one verdict everywhere.
"""

from __future__ import annotations

from typing import Any

from lingjun.checks.core.family_driver import driver_view
from lingjun.schema.kb import KnowledgeBase

__all__ = ["verdict_records"]

_CACHE: dict[int, tuple[Any, dict[str, dict[str, Any]]]] = {}


def verdict_records(kb: KnowledgeBase) -> dict[str, dict[str, Any]]:
    """``{"family:version": record dict}``: ``model_dump(mode="json")`` with ``order_key`` (as the bundle carries it),
    read through :func:`driver_view` with the family's records; computed once per knowledge base."""
    cached = _CACHE.get(id(kb))
    if cached is not None and cached[0] is kb:
        return cached[1]
    plain: dict[str, dict[str, Any]] = {}
    for record in kb.releases:
        dumped = record.model_dump(mode="json")
        key = record.order_key
        dumped["order_key"] = list(key) if key is not None else None
        plain[record.ref] = dumped
    by_family: dict[str, list[dict[str, Any]]] = {}
    for dumped in plain.values():
        by_family.setdefault(dumped["family"], []).append(dumped)
    views = {ref: driver_view(dumped, by_family[dumped["family"]]) for ref, dumped in plain.items()}
    _CACHE.clear()
    _CACHE[id(kb)] = (kb, views)
    return views
