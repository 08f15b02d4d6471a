"""Masking keeps the IPv4 addresses every machine has (they name none, and show which interface a program chose)
and masks every other address, in free text and after a port or prefix."""

from __future__ import annotations

import pytest

from lingjun.checks.core.redaction import mask_identifiers, mask_text


@pytest.mark.parametrize("line", [
    "node1:77:88 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>",
    "NET/Socket : Using [0]eth0:169.254.3.1<0>",
    "Connect to 127.0.0.1<5000> failed",
    "The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, addr 0.0.0.0",
])
def test_addresses_every_machine_has_are_kept(line):
    assert mask_text(line) == line


@pytest.mark.parametrize("line, masked", [
    ("Connect to 10.0.0.4<56849> returned 113(No route to host)", "Connect to ***<56849> returned 113(No route to host)"),
    ("peer 172.17.0.12:80 and 172.18.0.1:80", "peer ***:80 and ***:80"),
    ("MASTER_ADDR 192.168.1.20", "MASTER_ADDR ***"),
    ("routed via 169.255.1.1 and 128.0.0.1", "routed via *** and ***"),
])
def test_other_addresses_are_masked(line, masked):
    assert mask_text(line) == masked


def test_a_version_field_keeps_its_dotted_number_and_a_shared_address_alike():
    assert mask_identifiers("127.0.0.1", keep_versions=True) == "127.0.0.1"
    assert mask_identifiers("9.1.0.70", keep_versions=True) == "9.1.0.70"
    assert mask_identifiers("10.1.2.3:80", keep_versions=True) == "***:80"
