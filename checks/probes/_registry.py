"""Registry of probes: :class:`ProbeSpec`, the :func:`register_probe` decorator and :data:`PROBES`.

Each probe is the function ``probe(env, record) -> dict`` of its own module
under :mod:`lingjun.checks.probes`, registered with :func:`register_probe`
under the module's short name (``driver_proc``).  Results are applied to the
facts in ascending ``order``, so a later probe may read what an earlier one set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from lingjun.checks.core.registry import Registry

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.checks.facts import ProbeRecord
    from lingjun.checks.probes._base import ProbeEnv

__all__ = ["ProbeSpec", "register_probe", "PROBES"]

ProbeFunc = Callable[["ProbeEnv", "ProbeRecord"], "dict[str, Any]"]


@dataclass(frozen=True)
class ProbeSpec:
    """A registered probe: id (module short name), record name (``NAME``), function, position."""

    id: str
    name: str
    func: ProbeFunc
    #: position in which results are applied (ascending)
    order: int


#: module short name -> probe, in ``order``
PROBES: Registry[ProbeSpec] = Registry("probe", "@register_probe(NAME, order=N)")


def register_probe(name: str, order: int) -> Callable[[ProbeFunc], ProbeFunc]:
    """Decorator registering a module's ``probe`` function in :data:`PROBES`.

    Args:
        name: the name its :class:`~lingjun.checks.facts.ProbeRecord` carries (``driver-proc``).
        order: position in which its results are applied (ascending).
    Raises:
        ValueError: when the module already registered a probe, or another probe has this ``name``.
    """

    def decorate(func: ProbeFunc) -> ProbeFunc:
        module = func.__module__
        short = module.rsplit(".", 1)[-1]
        taken = [spec.id for spec in PROBES.values() if spec.name == name and spec.id != short]
        if taken:
            raise ValueError(f"probe name {name!r} is already the NAME of probe module {taken[0]}")
        PROBES.add(short, ProbeSpec(id=short, name=name, func=func, order=order), module)
        return func

    return decorate
