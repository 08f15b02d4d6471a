"""The record's Python-package components as the packages rules read them.

Private helper of the rule modules: pairs each record component that has a
pypi probe with its catalog entry and what is installed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.knowledge.catalog_entry import Component
from lingjun.checks.knowledge.installed import Installed, installed_component
from lingjun.checks.knowledge.record_view import record_components

__all__ = ["PackageView", "record_packages", "torch_view", "packages_probed"]


#: local version labels of stock wheels (PyTorch's CUDA/CPU/ROCm builds), not an image's own build
_STOCK_LABEL = re.compile(r"^(cu[0-9]{2,3}|cpu|rocm[0-9][0-9.]*|xpu)$", re.IGNORECASE)


@dataclass
class PackageView:
    """One record component probed through pip metadata."""

    id: str
    published: str
    catalog: Component
    installed: Installed

    @property
    def image_build(self) -> bool:
        """Whether the image ships its own build of this package, which a reinstall from PyPI replaces.

        The catalog says the component *can* be an image-specific build (``vendor_build``: torch,
        DeepSpeed, Transformers in the training images); this release's published version says whether
        it *is* one: a local label other than a stock wheel's (``+ali``, ``+nv25.3``, ``+ppu1.5.1``) marks
        a modified build, while no label or a stock wheel's (``+cu124``, ``+cpu``, ``+rocm6.2``: the
        builds PyTorch publishes) is the upstream package (inference-nv-pytorch 25.04 lists
        ``Torch 2.6.0+cu124`` and ``transformers 4.51.1``).
        """
        if not self.catalog.vendor_build:
            return False
        _, plus, label = self.published.partition("+")
        return bool(plus) and not _STOCK_LABEL.match(label)

    @property
    def names(self) -> list[str]:
        """The PyPI distribution names of the component."""
        return list(self.catalog.pypi) or [self.id]


def packages_probed(ctx: CheckContext) -> bool:
    """Whether installed distributions were probed at all (an empty list with no torch means the probe did not run)."""
    return bool(ctx.facts.distributions) or ctx.facts.torch is not None


def record_packages(ctx: CheckContext) -> Iterator[PackageView]:
    """Record components (for this CPU architecture) whose catalog entry has ``probe.kind: pypi``."""
    for entry in record_components(ctx.record, ctx.facts.host.machine):
        catalog = ctx.data.catalog_entry(entry.id)
        if catalog is None or catalog.probe.kind != "pypi":
            continue
        yield PackageView(entry.id, entry.version, catalog, installed_component(catalog, ctx.facts))


def torch_view(ctx: CheckContext) -> Optional[PackageView]:
    """The record's torch component, or None."""
    return next((p for p in record_packages(ctx) if p.id == "torch"), None)
