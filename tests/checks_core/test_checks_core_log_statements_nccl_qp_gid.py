"""A failed ``ibv_modify_qp`` shows, from NCCL 2.24 on (misc/ibvwrap.cc), the GID entry its queue pair used: its index
(``nccl.ib_gid_index``) and whether the local GID is an IPv4-mapped address (``nccl.ib_gid_ipv4_mapped``), which
rules out a GID entry without an address.

NVIDIA/nccl#2013 prints the RoCE v2 form (its addresses masked by the reporter); the link-local and InfiniBand forms
are NCCL's format (v2.27.7-1 misc/ibvwrap.cc:276) filled in.
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def stated(line: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    values = [fact_value(name, Facts(), evidence) for name in ("nccl.ib_gid_index", "nccl.ib_gid_ipv4_mapped")]
    return tuple(v.value if v.known else None for v in values)


@pytest.mark.parametrize("line, index, mapped", [
    # NVIDIA/nccl#2013 (NCCL 2.27, RoCE v2 on HGX nodes)
    ("[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with "
     "110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local GID "
     "::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx", 3, True),
    # a link-local entry
    ("node1:77:88 [0] misc/ibvwrap.cc:291 NCCL WARN Call to ibv_modify_qp failed with 101 Network is unreachable, on "
     "dev mlx5_0:1, curr state INIT, next state RTR, local GID index 1, local GID fe80::a288:c2ff:fe3b:1a2e, remote GID "
     "fe80::a288:c2ff:fe3b:1b40", 1, False),
    # InfiniBand: no global route, so no GID
    ("node1:77:88 [0] misc/ibvwrap.cc:291 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev "
     "mlx5_0:1, curr state INIT, next state RTR, local GID index -1, local GID N/A, remote GID N/A", None, None),
])
def test_a_failed_modify_qp_states_its_gid_entry(line, index, mapped):
    assert stated(line) == (index, mapped)


def test_the_older_form_states_no_gid():
    """NVIDIA/nccl-tests#227 (NCCL 2.21)."""
    assert stated("ibvwrap.c:160 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out.") == (None, None)
