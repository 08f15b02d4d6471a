"""NCCL's ``NCCL_IB_HCA`` syntax, resolved against the RDMA devices and ports of the container.

Syntax (NCCL environment-variable documentation,
https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-ib-hca, and NCCL's
``src/misc/utils.cc`` ``parseStringList``/``matchIfList``, the same functions that read
``NCCL_SOCKET_IFNAME``, see :mod:`lingjun.checks.core.nccl_ifname`):

* a comma-separated list of device-name **prefixes**: ``mlx5`` matches every port of
  ``mlx5_0`` and ``mlx5_bond_0``;
* an entry may carry ``:port``: ``mlx5_0:1`` is port 1 of ``mlx5_0`` only; an entry without a
  port matches every port;
* a leading ``^`` makes it an **exclude** list; a following ``=`` asks for **exact** names
  (``^=mlx5_1,mlx5_4``: every device except those two).

NCCL then uses only ports whose state is ``ACTIVE``.

Examples:
    >>> ports = [("mlx5_0", 1), ("mlx5_1", 1), ("mlx5_bond_0", 1)]
    >>> resolve(parse("mlx5_bond"), ports)
    [('mlx5_bond_0', 1)]
    >>> resolve(parse("=mlx5_0:1,mlx5_1:2"), ports)
    [('mlx5_0', 1)]
    >>> resolve(parse("^=mlx5_1"), ports)
    [('mlx5_0', 1), ('mlx5_bond_0', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional

from lingjun.checks.core import nccl_ifname
from lingjun.checks.core.small_int import small_int

__all__ = ["HcaEntry", "HcaPattern", "parse", "resolve", "unmatched"]

Port = tuple[str, int]


@dataclass(frozen=True)
class HcaEntry:
    """One list entry: a device name (or prefix) and the port it restricts to (None: every port)."""

    name: str
    port: Optional[int] = None

    def __str__(self) -> str:
        return self.name if self.port is None else f"{self.name}:{self.port}"


@dataclass
class HcaPattern:
    """A parsed ``NCCL_IB_HCA`` value.

    Attributes:
        raw: the value as set.
        exclude: leading ``^``.
        exact: leading ``=`` (after an optional ``^``).
        entries: the listed names with their ports; empty entries dropped.
        notes: oddities (``"doubled-prefix"``, ``"empty-entry"``, ``"bad-port"``), as in
            :class:`lingjun.checks.core.nccl_ifname.IfnamePattern`.
    """

    raw: str
    exclude: bool = False
    exact: bool = False
    entries: list[HcaEntry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse(value: str) -> HcaPattern:
    """Parse a value as NCCL does; never raises.  ``^`` and ``=`` count only as the first characters of the value, and
    white space stays part of a name (``parseStringList`` copies every character but ``,`` and ``:``), so
    ``" mlx5_0"`` is the prefix `` mlx5_0`` and matches nothing (noted ``space``).  A port that is not a number is noted
    (``bad-port``) and the entry matches every port, as NCCL's ``atoi`` gives 0."""
    names = nccl_ifname.parse(value)
    rest = value
    exclude = rest.startswith("^")
    rest = rest[1:] if exclude else rest
    exact = rest.startswith("=")
    rest = rest[1:] if exact else rest
    pattern = HcaPattern(raw=value, exclude=exclude, exact=exact, notes=[n for n in names.notes if n != "empty-entry"])
    for entry in rest.split(","):
        name, _, port_text = entry.partition(":")
        if not name:
            pattern.notes.append("empty-entry")
            continue
        if name != name.strip() and "space" not in pattern.notes:
            pattern.notes.append("space")
        port: Optional[int] = None
        if port_text.strip():
            if small_int(port_text) is not None:
                port = small_int(port_text)
            else:
                pattern.notes.append("bad-port")
        pattern.entries.append(HcaEntry(name, port))
    return pattern


def _entry_matches(entry: HcaEntry, device: str, port: int, exact: bool) -> bool:
    name_ok = device == entry.name if exact else device.startswith(entry.name)
    return name_ok and (entry.port is None or entry.port == port)


def resolve(pattern: HcaPattern, ports: Iterable[Port]) -> list[Port]:
    """The ``(device, port)`` pairs NCCL may use under ``pattern``, in the given order (port states are not looked at)."""
    found = []
    for device, port in ports:
        hit = not pattern.entries or any(_entry_matches(e, device, port, pattern.exact) for e in pattern.entries)
        if hit != pattern.exclude:  # NCCL: matchIfList(...) ^ searchNot; a bare "^" excludes everything
            found.append((device, port))
    return found


def unmatched(pattern: HcaPattern, ports: Iterable[Port]) -> list[HcaEntry]:
    """The entries that name no existing device port (a typo, a device the container does not have)."""
    known = list(ports)
    return [e for e in pattern.entries if not any(_entry_matches(e, d, p, pattern.exact) for d, p in known)]
