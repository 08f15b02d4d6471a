"""The record's Python-package components as the packages rules read them.

Private helper of the rule modules: pairs each record component that has a
pypi probe with its catalog entry and what is installed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.knowledge.installed import Installed, installed_component
from lingjun.checks.knowledge.record_view import record_components

__all__ = ["PackageView", "record_packages", "torch_view", "packages_probed"]


@dataclass
class PackageView:
    """One record component probed through pip metadata."""

    id: str
    published: str
    catalog: dict
    installed: Installed

    @property
    def names(self) -> list[str]:
        """The PyPI distribution names of the component."""
        return [n for n in self.catalog.get("pypi") or [] if isinstance(n, str)] or [self.id]


def packages_probed(ctx: CheckContext) -> bool:
    """Whether installed distributions were probed at all (an empty list with no torch means the probe did not run)."""
    return bool(ctx.facts.distributions) or ctx.facts.torch is not None


def record_packages(ctx: CheckContext) -> Iterator[PackageView]:
    """Record components (for this CPU architecture) whose catalog entry has ``probe.kind: pypi``."""
    for entry in record_components(ctx.record, ctx.facts.host.machine):
        catalog = ctx.data.component(entry["id"])
        if not catalog or (catalog.get("probe") or {}).get("kind") != "pypi" or not isinstance(entry.get("version"), str):
            continue
        yield PackageView(entry["id"], entry["version"], catalog, installed_component(catalog, ctx.facts))


def torch_view(ctx: CheckContext) -> Optional[PackageView]:
    """The record's torch component, or None."""
    return next((p for p in record_packages(ctx) if p.id == "torch"), None)
