"""NCCL's failed connect to a peer states its errno (``nccl.connect_errno``), in each release's form: as a number
(``returned 113(No route to host)``), as strerror's text (``failed : Connection refused``), or as the retries that ran
out (``exceeded timeouts``: 110, ``exceeded retries``: the refused ones, 111).

Lines are quoted from public reports where one prints the form (the source follows each); the forms no report at hand
prints are NCCL's format strings filled in (misc/socket.cc of 2.18 to 2.28, src/os/linux.cc of 2.29 on).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def errno(*lines: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    found = fact_value("nccl.connect_errno", Facts(), evidence)
    return found.value if found.known else None


@pytest.mark.parametrize("line, number", [
    # NVIDIA/nccl#529 (NCCL 2.5.6)
    ("NCCL WARN Connect to fe80::745d:60ff:fef9:e1dd%ip6tnl0<46681> failed : Connection timed out", 110),
    # stas00/ml-engineering, orchestration/slurm/users.md (NCCL 2.7.8)
    ("r11i6n2:486514:486651 [1] include/socket.h:403 NCCL WARN Connect to 10.148.3.247<56821> failed : Connection "
     "refused", 111),
    # NVIDIA/nccl-tests#162 (NCCL 2.18.3)
    ("misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<43615> failed : Software caused connection "
     "abort", 103),
    # NVIDIA/nccl-tests#15 (NCCL 2.2.13)
    ("gpu-bql-144-103:18553:18611 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out", 110),
    # sgl-project/sglang#3820
    ("node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned "
     "113(No route to host) errno 115(Operation now in progress)", 113),
    # NCCL's formats
    ("node1:77:88 [0] misc/socket.cc:450 NCCL WARN Net : Connect to 10.1.2.3<43891> failed : Network is unreachable", 101),
    ("node1:77:88 [0] misc/socket.cc:473 NCCL WARN socketStartConnect: exceeded timeouts (3)", 110),
    ("node1:77:88 [0] misc/socket.cc:515 NCCL WARN socketPollConnect: exceeded retries (20000)", 111),
    ("node1:77:88 [0] misc/socket.cc:547 NCCL WARN socketStartConnect: connect returned Connection refused, exceeded error "
     "retry count (35)", 111),
    ("node1:77:88 [0] os/linux.cc:288 NCCL WARN ncclOsSocketStartConnect: connect to 10.1.2.3<43891> returned Connection "
     "refused, exceeded error retry count after 35 attempts", 111),
    ("node1:77:88 [0] os/linux.cc:302 NCCL WARN ncclOsSocketPollConnect: connect to 10.1.2.3<43891> failed : Cannot assign "
     "requested address", 99),
])
def test_nccls_failed_connect_states_its_errno(line, number):
    assert errno(line) == number


def test_torchs_own_store_connect_is_not_nccls():
    """pytorch/pytorch's socket.cpp (NCCL prints no such line)."""
    assert errno("[W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:255.255.0.0]:29500 "
                 "(errno: 110 - Connection timed out).") is None


def test_a_number_no_cause_names_is_stated_as_printed():
    assert errno("node1:77:88 [0] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned "
                 "115(Operation now in progress) errno 0(Success)") == 115


def test_two_connects_that_failed_differently_state_none():
    assert errno("NCCL WARN Connect to 10.0.0.2<1> failed : Connection refused",
                 "NCCL WARN Connect to 10.0.0.3<2> failed : Connection timed out") is None
