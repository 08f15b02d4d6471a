"""Probe: NVIDIA device nodes (``/dev/nvidia*``) and whether they can be opened.

The container runtime injects ``/dev/nvidiactl``, ``/dev/nvidia<N>``,
``/dev/nvidia-uvm`` ...; a device cgroup that lost them (the
``systemctl daemon-reload`` problem, nvidia-docker#1730) leaves the nodes in
place but opening them fails with ``EPERM``.  Fills ``driver.device_nodes``
(sorted container paths, GPU nodes in numeric order) and
``driver.device_nodes_accessible`` (None when there are no nodes).
Opening is read-only and the descriptor is closed at once.
"""

from __future__ import annotations

import os
import re
from typing import Any

from lingjun.checks.facts import ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "device-nodes"

_NUM_RE = re.compile(r"(\d+)$")


def _order(path: str) -> tuple[str, int]:
    match = _NUM_RE.search(path)
    return (_NUM_RE.sub("", path), int(match.group(1)) if match else -1)


@register_probe(NAME, order=70)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """List ``/dev/nvidia*`` and try to open the control node (or the first node) read-only."""
    nodes = sorted(env.glob("/dev", lambda n: n.startswith("nvidia")), key=_order)
    if not nodes:
        return {"driver.device_nodes": []}
    target = "/dev/nvidiactl" if "/dev/nvidiactl" in nodes else nodes[0]
    accessible = True
    try:
        fd = os.open(env.host_path(target), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        os.close(fd)
    except IsADirectoryError:
        accessible = True  # /dev/nvidia-caps is a directory
    except OSError:
        accessible = False
    return {"driver.device_nodes": nodes, "driver.device_nodes_accessible": accessible}
