"""The link layer of the ports NCCL's IB transport uses is a fact its ``NET/IB : Using ...`` INFO line states
(``nccl.ib_link_layer``), and whether the log's first error line is the NET/IB completion with status 12
(``nccl.ib_retry_first_error``) a fact the order of the log's error lines shows.

Lines are quoted from public reports: pytorch/pytorch#81628 (RoCE, with an Intel i40iw port), NVIDIA/nccl#1584
(InfiniBand with SHARP, NCCL's IBext plugin), NVIDIA/nccl#426 (the older completion form).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from log_statements_kit import feed

#: pytorch/pytorch#81628
ROCE = ("tf144:143468:143468 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]i40iw0:1/RoCE ; OOB "
        "enp88s0:192.168.17.144<0>")
ROCE_ERROR_12 = ("NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, "
                 "vendor err 129")
#: NVIDIA/nccl#1584
IB_SHARP = ("NCCL INFO NET/IB : Using [0]ibp0:1/IB/SHARP [1]ibp1:1/IB/SHARP [2]ibp2:1/IB/SHARP [3]ibp3:1/IB/SHARP "
            "[4]ibp4:1/IB/SHARP [5]ibp5:1/IB/SHARP [6]ibp6:1/IB/SHARP [7]ibp7:1/IB/SHARP [RO]; OOB eth0:10.7.147.73<0>")
#: NVIDIA/nccl#426
OLD_ERROR_12 = "NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129"
#: NVIDIA/nccl-tests#252
ERROR_4 = ("kolyoz2:25146:25854 [0] ib_plugin.c:1105 NCCL WARN NET/IB : Got completion from peer 10.0.35.1<49189> with "
           "error 4, opcode 5327, len 5327, vendor err 81 (Send)")
#: NVIDIA/nccl-tests#166: a socket failure that came first
EARLIER = ("ubuntu:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : "
           "Software caused connection abort")

IB_SIG = {"id": "nccl-ib-completion-error", "printed_by": "nccl", "patterns": [{"literal": "Got completion"}],
          "causes": [{"id": "x", "title": {"en": "x", "zh": "x"}, "remedies": {"image": {"en": "x", "zh": "x"}}}]}
SOCKET_SIG = {"id": "socket", "printed_by": "nccl", "patterns": [{"literal": "socketStartConnect"}],
              "causes": IB_SIG["causes"]}
#: a line a job prints also when nothing is wrong (NCCL's INFO that it found no IB device): not an error line
NOTICE_SIG = {"id": "notice", "printed_by": "nccl", "severity": "warning", "patterns": [{"literal": "No device found"}],
              "causes": IB_SIG["causes"]}


@pytest.mark.parametrize("line, layer", [
    (ROCE, "roce"),
    (IB_SHARP, "ib"),
    ("NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/IB ; OOB eth0:10.0.0.1<0>", None),  # mixed: no one layer
    ("NCCL INFO NET/IB : Using interface ib0 for sideband communication", None),  # NCCL 2.3: no ports listed
])
def test_the_net_ib_line_states_its_ports_link_layer(line, layer):
    found = fact_value("nccl.ib_link_layer", Facts(), feed(line))
    assert (found.value if found.known else None) == layer


def first(*lines: str):
    signatures = [IB_SIG, SOCKET_SIG, NOTICE_SIG]
    data = SimpleNamespace(signatures=signatures)  # what the reader asks of the bundle
    return fact_value("nccl.ib_retry_first_error", Facts(), feed(*lines, signatures=signatures), data)


def test_status_12_as_the_first_error_line_is_shown():
    found = first(ROCE, ROCE_ERROR_12)
    assert (found.value, found.line) == (True, "job.log:2")
    assert first(OLD_ERROR_12).value is True
    # Oneflow-Inc/oneflow#3586's INFO line, which a warning-level signature reads, is no earlier error
    assert first("worker:101542:101542 [0] NCCL INFO NET/IB : No device found.", ROCE_ERROR_12).value is True


def test_an_earlier_error_or_another_status_says_no():
    assert first(EARLIER, ROCE_ERROR_12).value is False
    assert first(ERROR_4).value is False
    assert first(ROCE_ERROR_12, EARLIER).value is True  # what follows does not matter


def test_without_the_completion_line_nothing_is_known():
    assert not first(ROCE).known
