"""What the RDMA facts mean for NCCL: which device ports it can use, and whether the input shows RDMA in use.

Private helper of the RDMA rules (one concern: reading :class:`~lingjun.checks.facts.RdmaFacts` the way NCCL's
IB transport does).  NCCL opens a device through its verbs node (``/dev/infiniband/uverbsN``) and uses only
ports whose state is ``ACTIVE`` (``src/transport/net_ib``); a device it cannot open or a port that is down
is skipped without an error, and with no port left NCCL falls back to TCP sockets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from lingjun.checks.core import nccl_ib_hca
from lingjun.checks.facts import Facts, RdmaDeviceFacts, RdmaPortFacts
from lingjun.checks.report.findings import Text

__all__ = ["DevicePort", "ports", "blocked", "usable", "hca_filtered", "symptom", "NCCL_ENV_DOC", "NCCL_NET_DOC"]

NCCL_ENV_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html"
NCCL_NET_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/networking_troubleshooting.html"

#: error lines that show RDMA verbs in use (an ``ibv_*`` call, NCCL's IB transport)
_VERBS = re.compile(r"\bibv_\w+|NET/IB\b", re.I)


@dataclass(frozen=True)
class DevicePort:
    """One port of one device, with the device it belongs to."""

    device: RdmaDeviceFacts
    port: RdmaPortFacts

    @property
    def key(self) -> tuple[str, int]:
        """``(device name, port number)``, as :mod:`lingjun.checks.core.nccl_ib_hca` matches them."""
        return (self.device.name, self.port.port)

    def __str__(self) -> str:
        return f"{self.device.name}:{self.port.port}"


def ports(facts: Facts) -> list[DevicePort]:
    """Every port of every RDMA device, in the facts' order."""
    return [DevicePort(d, p) for d in facts.rdma.devices for p in d.ports]


def blocked(facts: Facts, device: RdmaDeviceFacts) -> Optional[Text]:
    """Why NCCL cannot open ``device`` in this container, or None when it can (or when the facts cannot tell)."""
    rdma = facts.rdma
    if device.uverbs is None:
        return Text("no verbs device (no uverbs entry in sysfs)", "没有 verbs 设备（sysfs 中没有 uverbs 项）")
    node = f"/dev/infiniband/{device.uverbs}"
    if node not in rdma.uverbs_nodes:
        return Text(f"no {node} in the container", f"容器中没有 {node}")
    if rdma.uverbs_accessible is False:
        return Text(f"{node} cannot be opened", f"无法打开 {node}")
    return None


def usable(facts: Facts) -> list[DevicePort]:
    """The ports NCCL's IB transport can use: the device can be opened and the port is ``ACTIVE``."""
    return [dp for dp in ports(facts) if blocked(facts, dp.device) is None and (dp.port.state or "").upper() == "ACTIVE"]


def hca_filtered(facts: Facts, candidates: list[DevicePort]) -> list[DevicePort]:
    """``candidates`` narrowed by ``NCCL_IB_HCA`` when it is set."""
    value = facts.env.get("NCCL_IB_HCA")
    if not value:
        return candidates
    keep = set(nccl_ib_hca.resolve(nccl_ib_hca.parse(value), [dp.key for dp in candidates]))
    return [dp for dp in candidates if dp.key in keep]


def symptom(facts: Facts) -> Optional[str]:
    """The first error line the input quotes that shows RDMA verbs in use (``ibv_reg_mr … failed``), or None."""
    for line in facts.symptoms.errors:
        if _VERBS.search(line):
            return line
    return None
