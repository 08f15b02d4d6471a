"""A component catalog entry as the checker reads it: a frozen dataclass built once from the bundle's JSON.

The bundle's ``components`` are the ``model_dump(mode="json")`` of :class:`lingjun.schema.models.Component`
(``releases/components.yaml``).  Rules and the condition evaluator read an entry through :class:`Component`
(``component.probe.kind``, ``component.pypi``); only the fields of ``BUNDLE_SHAPE``'s ``components`` are here
(:data:`lingjun.checks.knowledge._bundle_shape.BUNDLE_SHAPE`), a field left out takes the schema's default.

Standard library only.
"""

# no ``from __future__ import annotations``: the annotations are objects, so the converter reads them without
# evaluating strings (``typing.get_type_hints``: 0.8 ms for these classes instead of 2.9 ms, once per check)
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core._dataclass_json import build

__all__ = ["Component", "ComponentProbe", "component_from_dict"]


@dataclass(frozen=True, eq=False)
class ComponentProbe:
    """How the checker reads a component's installed version (:class:`lingjun.schema.models.ComponentProbe`):
    ``kind`` ``pypi``, ``python``, ``os-release``, ``cuda-toolkit``, ``cudnn``, ``nccl``, ... or None."""

    kind: Optional[str] = None
    executable: Optional[str] = None
    version_regex: Optional[str] = None


@dataclass(frozen=True, eq=False)
class Component:
    """One catalog component (:class:`lingjun.schema.models.Component`): ``pypi`` its distribution names,
    ``torch_extension`` built against torch's C++ ABI, ``vendor_build`` an image may ship its own build of it."""

    id: str
    name: Optional[str] = None
    homepage: Optional[str] = None
    release_notes_url: Optional[str] = None
    pypi: list[str] = field(default_factory=list)
    published_names: list[str] = field(default_factory=list)
    torch_extension: bool = False
    vendor_build: bool = False
    probe: ComponentProbe = field(default_factory=ComponentProbe)

    @property
    def label(self) -> str:
        """The name a report shows: ``name``, else the id."""
        return self.name if self.name is not None else self.id


def component_from_dict(data: Any, where: str = "component") -> Component:
    """The :class:`Component` of a bundle catalog dict.

    Raises:
        ValueError: ``data`` is not an object, lacks ``id``, or a field has another type (the message names its path).
    """
    return build(Component, data, where)
