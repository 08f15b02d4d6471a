"""Probe: RDMA devices in sysfs and the ``/dev/infiniband/uverbs*`` nodes the container can use.

NCCL's IB/RoCE transport needs both halves: a device in
``/sys/class/infiniband`` with an ``ACTIVE`` port, and its user-space verbs
node ``/dev/infiniband/uverbsN`` inside the container.  A device plugin that
exposes only the first half leaves NCCL falling back to TCP sockets.  Lingjun
nodes bond their RoCE ports (``mlx5_bond_0`` ...); Alibaba Cloud elastic RDMA
shows up as ``erdma_0``.  Fills :class:`~lingjun.checks.facts.RdmaFacts`:

* per device (sorted by name): ``ports`` from ``<dev>/ports/<n>/`` (``state``
  and ``phys_state`` as the word after ``"4: "``/``"5: "``, ``link_layer``,
  ``rate``, and the GID table's entry types from ``gid_attrs/types/<i>`` by
  index: ``"RoCE v2"``, ``"IB/RoCE v1"``, ``""`` for an empty entry, which the
  kernel answers with an error on read); ``uverbs``: the verbs device listed in
  ``<dev>/device/infiniband_verbs/`` (``"uverbs0"``), None when there is none;
* ``uverbs_nodes``: ``/dev/infiniband/uverbs*`` as container paths;
* ``uverbs_accessible``: live only, each node is opened read-write (as
  ``ibv_open_device`` does) and closed at once: False when one refuses
  (``EACCES``/``EPERM``, or ``ENXIO``/``ENODEV`` for a node without its device),
  True when all open, None when there are no nodes, under ``--root`` (this
  host's device permissions are not the inspected container's) or when the
  error says nothing about access.

Identifiers (``node_guid`` and the GID values in ``gids``) are read only with
``--include-ids``.  The sysfs layout is the kernel's ABI:
https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband

Bounds: at most :data:`MAX_DEVICES` devices, :data:`MAX_PORTS` ports per
device and :data:`MAX_GID_ENTRIES` GID table entries per port are read (a
RoCE GID table has 255 or more entries, of which the first few are in use);
``gid_types`` therefore holds ``min(table size, MAX_GID_ENTRIES)`` entries and
an index past its end is not known when the list is that long.  What was
left unread is named in the probe's record.  Every read is a small sysfs file;
the collector's deadline bounds the whole probe.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord, RdmaDeviceFacts, RdmaFacts, RdmaPortFacts
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "rdma"
SYSFS = "/sys/class/infiniband"
DEV_DIR = "/dev/infiniband"
#: the most devices read from /sys/class/infiniband (and uverbs nodes opened)
MAX_DEVICES = 32
#: the most ports read per device
MAX_PORTS = 4
#: the most GID table entries (types, and values with --include-ids) read per port
MAX_GID_ENTRIES = 32

_STATE_RE = re.compile(r"^\d+:\s*(.+)$")
_NUM_RE = re.compile(r"(\d+)$")
#: errors of open() that mean the node is there but this container may not use it
_REFUSED = (errno.EACCES, errno.EPERM, errno.ENXIO, errno.ENODEV)


def _text(env: ProbeEnv, path: str) -> Optional[str]:
    try:
        return env.open_bytes(path, 4096).decode("utf-8", "replace").strip()
    except OSError:
        return None


def state_word(text: Optional[str]) -> Optional[str]:
    """``"ACTIVE"`` from sysfs ``"4: ACTIVE"`` (the text itself when it has no number); None for None or empty."""
    if not text:
        return None
    match = _STATE_RE.match(text.strip())
    return match.group(1).strip() if match else text.strip()


def _numbered(name: str) -> tuple[str, int]:
    match = _NUM_RE.search(name)
    return (_NUM_RE.sub("", name), int(match.group(1)) if match else -1)


def _gid_table(env: ProbeEnv, base: str, kind: str) -> list[str]:
    """Entries ``0..`` of ``<port>/gid_attrs/types`` (kind "types") or ``<port>/gids``; "" for an entry that reads
    with an error (empty), stopping at the end of the table or at :data:`MAX_GID_ENTRIES`."""
    directory = f"{base}/gid_attrs/types" if kind == "types" else f"{base}/gids"
    entries: list[str] = []
    for index in range(MAX_GID_ENTRIES):
        try:
            entries.append(env.open_bytes(f"{directory}/{index}", 256).decode("utf-8", "replace").strip())
        except FileNotFoundError:
            break  # past the end of the table (or no table at all)
        except OSError:
            entries.append("")  # the kernel answers EINVAL/ENODATA for an empty entry
    return entries


def _port(env: ProbeEnv, device: str, name: str) -> RdmaPortFacts:
    base = f"{SYSFS}/{device}/ports/{name}"
    port = RdmaPortFacts(port=int(name))
    port.state = state_word(_text(env, base + "/state"))
    port.phys_state = state_word(_text(env, base + "/phys_state"))
    port.link_layer = _text(env, base + "/link_layer") or None
    port.rate = _text(env, base + "/rate") or None
    port.gid_types = _gid_table(env, base, "types")
    if env.include_ids:
        port.gids = _gid_table(env, base, "gids")
    return port


def _device(env: ProbeEnv, name: str, notes: list[str]) -> RdmaDeviceFacts:
    device = RdmaDeviceFacts(name=name)
    ports = sorted((p for p in env.listdir(f"{SYSFS}/{name}/ports") if p.isdigit()), key=int)
    if len(ports) > MAX_PORTS:
        notes.append(f"{name}: read {MAX_PORTS} of {len(ports)} ports")
    device.ports = [_port(env, name, p) for p in ports[:MAX_PORTS]]
    verbs = sorted((v for v in env.listdir(f"{SYSFS}/{name}/device/infiniband_verbs") if v.startswith("uverbs")), key=_numbered)
    device.uverbs = verbs[0] if verbs else None
    if env.include_ids:
        device.node_guid = _text(env, f"{SYSFS}/{name}/node_guid") or None
    return device


def open_state(paths: list[str]) -> Optional[bool]:
    """Whether every host path in ``paths`` (character devices) opens read-write; each is closed at once.

    False when one refuses (see :data:`_REFUSED`) or is not a character device, True when all open,
    None when ``paths`` is empty or the errors say nothing about access.
    """
    result: Optional[bool] = None
    flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    for path in paths:
        try:
            if not stat.S_ISCHR(os.stat(path).st_mode):
                return False
            fd = os.open(path, flags)
        except OSError as exc:
            if exc.errno in _REFUSED:
                return False
            continue
        os.close(fd)
        if result is None:
            result = True
    return result


@register_probe(NAME, order=190)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """List RDMA devices, their ports and verbs nodes (see the module docstring)."""
    facts = RdmaFacts()
    notes: list[str] = []
    names = [n for n in env.listdir(SYSFS) if env.isdir(f"{SYSFS}/{n}")]
    if len(names) > MAX_DEVICES:
        notes.append(f"read {MAX_DEVICES} of {len(names)} devices")
    facts.devices = [_device(env, name, notes) for name in names[:MAX_DEVICES]]
    nodes = sorted(env.glob(DEV_DIR, lambda n: n.startswith("uverbs")), key=_numbered)
    facts.uverbs_nodes = nodes
    if nodes and env.live:
        facts.uverbs_accessible = open_state([env.host_path(n) for n in nodes[:MAX_DEVICES]])
    if notes:
        record.error = "; ".join(notes)
    return {"rdma": facts}
