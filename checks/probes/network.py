"""Probe: network interfaces (``/sys/class/net``) with their state, MTU and addresses.

Per interface: ``operstate`` and ``mtu`` from ``/sys/class/net/<name>/``.
Addresses come from procfs, which works the same under a fake root:

* IPv6: ``/proc/net/if_inet6`` (address, prefix length and interface per line);
* IPv4: the ``LOCAL`` host entries of ``/proc/net/fib_trie`` give the
  addresses; each is attached to the interface whose route in
  ``/proc/net/route`` contains it with the longest mask (that mask is the
  prefix length).  Loopback addresses go to ``lo`` with ``/8``.

Live, an interface still without IPv4 is asked once with the
``SIOCGIFADDR``/``SIOCGIFNETMASK`` ioctls.  Fills ``network`` (sorted by name),
with ``has_ipv4``/``has_ipv6`` set from the addresses found (a snapshot keeps
those booleans and drops the addresses unless ``--include-ids``).
"""

from __future__ import annotations

import fcntl
import ipaddress
import struct
from typing import Any, Optional

from lingjun.checks.facts import InterfaceFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "network"

_SIOCGIFADDR = 0x8915
_SIOCGIFNETMASK = 0x891B


def _read(env: ProbeEnv, path: str) -> Optional[str]:
    try:
        return env.open_bytes(path, 4 * 1024 * 1024).decode("utf-8", "replace")
    except OSError:
        return None


def parse_if_inet6(text: str) -> dict[str, list[str]]:
    """interface -> ["addr/prefix", ...] from ``/proc/net/if_inet6``."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        cols = line.split()
        if len(cols) < 6 or len(cols[0]) != 32:
            continue
        try:
            addr = ipaddress.IPv6Address(int(cols[0], 16))
            prefix = int(cols[2], 16)
        except ValueError:
            continue
        out.setdefault(cols[5], []).append(f"{addr}/{prefix}")
    return out


def parse_route(text: str) -> list[tuple[str, int, int]]:
    """``[(iface, network, mask)]`` (host-order integers) from ``/proc/net/route``."""
    routes: list[tuple[str, int, int]] = []
    for line in text.splitlines()[1:]:
        cols = line.split()
        if len(cols) < 8:
            continue
        try:
            dest = struct.unpack("<I", struct.pack(">I", int(cols[1], 16)))[0]
            mask = struct.unpack("<I", struct.pack(">I", int(cols[7], 16)))[0]
        except (ValueError, struct.error):
            continue
        routes.append((cols[0], dest, mask))
    return routes


def parse_fib_trie_locals(text: str) -> list[str]:
    """IPv4 addresses marked ``/32 host LOCAL`` in ``/proc/net/fib_trie`` (order kept, no duplicates)."""
    found: list[str] = []
    last: Optional[str] = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("|--") or stripped.startswith("+--"):
            token = stripped[3:].split()[0] if stripped[3:].split() else ""
            last = token if "/" not in token else None
        elif "/32 host LOCAL" in stripped and last and last not in found:
            found.append(last)
    return found


def assign_ipv4(addresses: list[str], routes: list[tuple[str, int, int]]) -> dict[str, list[str]]:
    """interface -> ["a.b.c.d/prefix"] by the longest matching route (loopback to ``lo``)."""
    out: dict[str, list[str]] = {}
    for text in addresses:
        try:
            value = int(ipaddress.IPv4Address(text))
        except ValueError:
            continue
        if text.startswith("127."):
            out.setdefault("lo", []).append(f"{text}/8")
            continue
        best: Optional[tuple[str, int]] = None
        for iface, dest, mask in routes:
            if mask and (value & mask) == dest and (best is None or mask > best[1]):
                best = (iface, mask)
        if best:
            out.setdefault(best[0], []).append(f"{text}/{bin(best[1]).count('1')}")
    return out


def _ioctl_ipv4(name: str) -> Optional[str]:
    try:  # only live, for an interface procfs showed no IPv4 address for
        import _socket as socket  # the C module behind socket: the same calls without building socket's enums
    except ImportError:  # pragma: no cover - CPython always has it
        import socket  # type: ignore[no-redef]

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        packed = struct.pack("256s", name.encode()[:15])
        addr = socket.inet_ntoa(fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, packed)[20:24])
        mask = socket.inet_ntoa(fcntl.ioctl(sock.fileno(), _SIOCGIFNETMASK, packed)[20:24])
        return f"{addr}/{bin(int(ipaddress.IPv4Address(mask))).count('1')}"
    except OSError:
        return None
    finally:
        sock.close()


@register_probe(NAME, order=150)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """List interfaces with state, MTU and addresses (see the module docstring)."""
    ipv6 = parse_if_inet6(_read(env, "/proc/net/if_inet6") or "")
    ipv4 = assign_ipv4(parse_fib_trie_locals(_read(env, "/proc/net/fib_trie") or ""), parse_route(_read(env, "/proc/net/route") or ""))
    interfaces: list[InterfaceFacts] = []
    for name in env.listdir("/sys/class/net"):
        base = f"/sys/class/net/{name}"
        if not env.isdir(base):
            continue
        iface = InterfaceFacts(name=name)
        state = _read(env, base + "/operstate")
        iface.operstate = state.strip() or None if state is not None else None
        mtu = _read(env, base + "/mtu")
        try:
            iface.mtu = int(mtu.strip()) if mtu else None
        except ValueError:
            iface.mtu = None
        iface.ipv4 = ipv4.get(name, [])
        iface.ipv6 = ipv6.get(name, [])
        if env.live and not iface.ipv4:
            found = _ioctl_ipv4(name)
            if found:
                iface.ipv4 = [found]
        iface.has_ipv4 = bool(iface.ipv4)
        iface.has_ipv6 = bool(iface.ipv6)
        interfaces.append(iface)
    return {"network": interfaces}
