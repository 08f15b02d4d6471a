"""RDMA facts as a Lingjun node shows them, for the RDMA rule tests: RoCE bonds with their GID table types."""

from __future__ import annotations

from typing import Optional

from lingjun.checks.facts import Facts, RdmaDeviceFacts, RdmaPortFacts

#: sysfs gid_attrs/types of a RoCE port with an IPv4 address: v1 and v2 for the link-local and the IPv4 GID
ROCE_TYPES = ["IB/RoCE v1", "RoCE v2", "IB/RoCE v1", "RoCE v2"]


def device(name: str, uverbs: Optional[str], state: Optional[str] = "ACTIVE", link_layer: str = "Ethernet",
           gid_types: Optional[list] = None, port: int = 1) -> RdmaDeviceFacts:
    """One device with one port."""
    types = list(ROCE_TYPES if gid_types is None else gid_types)
    return RdmaDeviceFacts(name, ports=[RdmaPortFacts(port, state=state, link_layer=link_layer, gid_types=types)], uverbs=uverbs)


def facts(*devices: RdmaDeviceFacts, nodes: Optional[list] = None, accessible: Optional[bool] = True, **env: str) -> Facts:
    """Facts with ``devices``; the verbs nodes are those of the devices unless ``nodes`` is given."""
    f = Facts()
    f.rdma.devices = list(devices)
    f.rdma.uverbs_nodes = nodes if nodes is not None else [f"/dev/infiniband/{d.uverbs}" for d in devices if d.uverbs]
    f.rdma.uverbs_accessible = accessible
    f.env.update(env)
    return f


def bonds(n: int = 2, **env: str) -> Facts:
    """A Lingjun node: ``mlx5_bond_0..n-1``, every port ACTIVE, RoCE v2 at GID index 1 and 3."""
    return facts(*(device(f"mlx5_bond_{i}", f"uverbs{i}") for i in range(n)), **env)
