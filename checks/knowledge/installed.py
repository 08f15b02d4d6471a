"""The installed version of a catalog component, read from the probed facts.

A catalog component (:class:`lingjun.checks.knowledge.catalog_entry.Component`, the typed view of
:class:`lingjun.schema.models.Component`) says how it is probed (``probe.kind``); this module maps each kind to the
facts the probes collected.  Nothing is imported or executed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from lingjun.checks.coverage import OBSERVED, state
from lingjun.checks.facts import DistributionFacts, Facts

if TYPE_CHECKING:
    from lingjun.checks.knowledge.catalog_entry import Component

__all__ = ["Installed", "installed_component", "installed_pypi"]


@dataclass
class Installed:
    """What was found.

    Attributes:
        version: the installed version string, None when not found or unknown.
        source: where it was read: ``pypi:<dist>``, ``python``, ``os-release``,
            ``cuda-toolkit``, ``cudnn``, ``nccl``, or ``""`` when not probed.
        dist: the distribution for pypi components.
        probed: False when the component's probe kind gives no version here (``executable``, ``none``), or when
            the input does not show it: a package that a partial list (a collect_env paste) does not name is not
            known to be missing (see :mod:`lingjun.checks.coverage`).
    """

    version: Optional[str]
    source: str = ""
    dist: Optional[DistributionFacts] = None
    probed: bool = True


def installed_pypi(facts: Facts, names: list) -> Optional[DistributionFacts]:
    """The first installed distribution among ``names`` (PEP 503 normalised)."""
    for name in names or []:
        if isinstance(name, str):
            dist = facts.distribution(name)
            if dist is not None:
                return dist
    return None


def installed_component(component: "Component", facts: Facts) -> Installed:
    """Installed version of ``component`` (a typed catalog entry) according to ``facts``."""
    kind = component.probe.kind
    if kind == "pypi":
        dist = installed_pypi(facts, component.pypi or [component.id])
        if dist is not None:
            return Installed(dist.version, f"pypi:{dist.name}", dist)
        if component.id == "torch" and facts.torch is not None and facts.torch.version:
            return Installed(facts.torch.version, "torch/version.py")

        return Installed(None, "pypi", probed=state(facts, "distributions") == OBSERVED)
    if kind == "python":
        return Installed(facts.python.version, "python")
    if kind == "os-release":
        return Installed(facts.host.os_version_id, "os-release")
    if kind == "cuda-toolkit":
        return Installed(facts.cuda.toolkit_version or facts.cuda.env_cuda_version, "cuda-toolkit")
    if kind in ("cudnn", "nccl"):
        lib = facts.cudnn if kind == "cudnn" else facts.nccl
        version = (lib.resolved.version if lib.resolved else None) or lib.header_version or lib.env_version
        return Installed(version, kind)
    return Installed(None, "", probed=False)
