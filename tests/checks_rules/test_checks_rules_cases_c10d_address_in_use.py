"""evidence.error-lines on the store's bind failure (pytorch-c10d-store-address-in-use): the c10d lines of public
reports (bytedance/GR-MG#11, xdit-project/mochi-xdit#22, meta-pytorch/torchtune#392) name the port held by another
process first, with a command that finds the holder and the torchrun option that picks another port."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

GR_MG = ["[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:50002 (errno: 98 - Address already in use).",
         "[W socket.cpp:436] [c10d] The server socket has failed to bind to 0.0.0.0:50002 (errno: 98 - Address already in use).",
         "[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address."]
MOCHI = ["RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, "
         "code: -98, name: EADDRINUSE, message: address already in use"]
TORCHTUNE = ["torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
             "The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server socket "
             "has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use)."]


@pytest.mark.parametrize("lines", [GR_MG, MOCHI, TORCHTUNE], ids=["gr-mg-11", "mochi-xdit-22", "torchtune-392"])
def test_the_bind_failure_names_the_held_port_with_commands_to_free_it(tmp_path, lines):
    errors = [f for f in findings_for_log(tmp_path, lines) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "EADDRINUSE" in finding.message.en and "another process holds the store's port" in finding.message.en.lower()
    assert "ss -ltnp" in finding.remedy.en and "--master-port 29501" in finding.remedy.en
    matches = evidence_for_log(tmp_path, lines).hits
    assert [(h.signature, h.first.number) for h in matches] == [("pytorch-c10d-store-address-in-use", 1)]


def test_a_bind_failure_of_another_errno_is_not_read_as_address_in_use(tmp_path):
    line = "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:50002 (errno: 97 - Address family not supported by protocol)."
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == []
