"""NCCL's ``NCCL_SOCKET_IFNAME`` syntax, resolved against the container's interfaces.

Syntax (NCCL environment-variable documentation and ``src/misc/utils.cc``
``parseStringList``/``matchIfList``):

* a comma-separated list of interface-name **prefixes**: ``eth`` matches
  ``eth0`` and ``eth1``;
* a leading ``^`` turns the list into an **exclude** list: ``^docker,lo``;
* a leading ``=`` asks for **exact** names: ``=eth0`` matches only ``eth0``;
  it was added by NVIDIA/nccl pull request #236 (2019), older builds treat
  the ``=`` as part of the name;
* ``^=`` combines both: exclude these exact names;
* an entry may carry ``:port`` (``eth0:1``), which does not restrict the name.

When the variable is unset NCCL tries interfaces starting with ``ib`` first,
then any interface except ``docker*`` and ``lo``, then ``docker*``, then ``lo``
(the documented default being ``^docker,lo``).

``GLOO_SOCKET_IFNAME`` (PyTorch's Gloo backend) is different: a
comma-separated list of exact interface names, no prefixes.

Examples:
    >>> resolve(parse("eth"), ["eth0", "eth1", "lo"])
    ['eth0', 'eth1']
    >>> resolve(parse("^docker,lo"), ["docker0", "eth0", "lo"])
    ['eth0']
    >>> resolve(parse("=eth1"), ["eth1", "eth10"])
    ['eth1']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

__all__ = ["IfnamePattern", "parse", "resolve", "resolve_gloo", "default_candidates", "EXACT_MATCH_PR"]

#: the pull request that added ``=`` exact matching to NCCL
EXACT_MATCH_PR = "https://github.com/NVIDIA/nccl/pull/236"


@dataclass
class IfnamePattern:
    """A parsed ``NCCL_SOCKET_IFNAME`` value.

    Attributes:
        raw: the value as set.
        exclude: leading ``^``.
        exact: leading ``=`` (after an optional ``^``).
        names: the listed names or prefixes, ``:port`` suffixes removed, empty entries dropped.
        notes: oddities worth telling the user (``"doubled '='"``, ``"empty entry"``).
    """

    raw: str
    exclude: bool = False
    exact: bool = False
    names: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse(value: str) -> IfnamePattern:
    """Parse a value; never raises (an empty list resolves to nothing)."""
    pattern = IfnamePattern(raw=value)
    rest = value.strip()
    if rest.startswith("^"):
        pattern.exclude = True
        rest = rest[1:]
    if rest.startswith("="):
        pattern.exact = True
        rest = rest[1:]
    if rest.startswith("=") or rest.startswith("^"):
        pattern.notes.append("doubled-prefix")
    for entry in rest.split(","):
        name = entry.split(":", 1)[0].strip()
        if name:
            pattern.names.append(name)
        else:
            pattern.notes.append("empty-entry")
    return pattern


def _matches(name: str, pattern: IfnamePattern) -> bool:
    if pattern.exact:
        return name in pattern.names
    return any(name.startswith(prefix) for prefix in pattern.names)


def resolve(pattern: IfnamePattern, interfaces: Iterable[str]) -> list[str]:
    """The interfaces NCCL may use under ``pattern``, in the given order."""
    names = list(interfaces)
    if not pattern.names:
        return [] if not pattern.exclude else names
    if pattern.exclude:
        return [n for n in names if not _matches(n, pattern)]
    return [n for n in names if _matches(n, pattern)]


def resolve_gloo(value: str, interfaces: Iterable[str]) -> tuple[list[str], list[str]]:
    """``GLOO_SOCKET_IFNAME``: ``(found, missing)`` exact names."""
    available = set(interfaces)
    wanted = [n.strip() for n in value.split(",") if n.strip()]
    return [n for n in wanted if n in available], [n for n in wanted if n not in available]


def default_candidates(interfaces: Iterable[str]) -> list[str]:
    """What NCCL picks from when the variable is unset: ``ib*`` first, else anything but ``docker*``/``lo``."""
    names = list(interfaces)
    ib = [n for n in names if n.startswith("ib")]
    if ib:
        return ib
    return [n for n in names if not n.startswith("docker") and not n.startswith("lo")]
