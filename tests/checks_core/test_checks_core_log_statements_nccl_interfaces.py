"""The interfaces NCCL's sockets use are facts the log states: NCCL's ``NET/Socket : Using [0]name:addr<0> ...`` and
``Bootstrap : Using ...`` INFO lines, read item by item, also when a log wrapped the list over several lines.

Lines are quoted from public reports: Oneflow-Inc/oneflow#3586 (``eno1`` and a ``veth`` with a link-local address),
NVIDIA/nccl#529 (the ``ip6tnl0`` tunnel first),
kserve/kserve#3791 and InternLM/lmdeploy#3286 (``eth0`` only, as ``tests/fixtures/logs/kubectl-nccl-shm.log`` holds it).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.log_statements import virtual_interface
from log_statements_kit import feed

#: Oneflow-Inc/oneflow#3586
ONEFLOW_SOCKET = ("worker:101542:101542 [0] NCCL INFO NET/Socket : Using [0]eno1:172.18.40.41<0> "
                  "[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>")
ONEFLOW_BOOTSTRAP = ("worker:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> "
                     "[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>")
#: kserve/kserve#3791 with InternLM/lmdeploy#3286's start-up lines (tests/fixtures/logs/kubectl-nccl-shm.log)
ETH0_SOCKET = "predictor-0:1:112 [1] NCCL INFO NET/Socket : Using [0]eth0:10.244.0.233<0>"
ETH0_BOOTSTRAP = "predictor-0:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.244.0.233<0>"


def virtual(evidence: Evidence):
    return fact_value("nccl.socket_interfaces_virtual", Facts(), evidence)


def test_the_socket_list_names_its_interfaces_and_a_veth_with_a_link_local_address():
    evidence = feed(ONEFLOW_SOCKET)
    assert evidence.stated["nccl.socket_interfaces"].value == ["eno1", "veth25f2e72"]
    found = virtual(evidence)
    assert (found.value, found.line, found.source.en) == (True, "job.log:1", "shown by the log")


def test_a_whole_list_of_real_interfaces_rules_the_virtual_one_out():
    evidence = feed(ETH0_BOOTSTRAP, ETH0_SOCKET)
    assert evidence.stated["nccl.socket_interfaces"].value == ["eth0"]
    found = virtual(evidence)
    assert (found.value, found.line) == (False, "job.log:2")
    # the address NCCL printed is masked in what the report quotes
    assert "10.244.0.233" not in evidence.stated["nccl.socket_interfaces_all_real"].line.text


def test_older_nccls_bootstrap_list_states_the_veth_too():
    assert virtual(feed(ONEFLOW_BOOTSTRAP)).value is True


@pytest.mark.parametrize("bootstrap, expected", [
    ("NCCL INFO Bootstrap : Using br-1a2b3c4d5e6f:172.18.0.2<0>", True),   # a user-defined Docker network's bridge
    ("NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>", True),
    (ETH0_BOOTSTRAP, None),  # a real interface: says nothing about the socket list
])
def test_the_single_bootstrap_interface_states_only_a_virtual_one(bootstrap, expected):
    found = virtual(feed(bootstrap))
    assert (found.value if found.known else None) is expected


@pytest.mark.parametrize("cut_before, first_line_states", [
    ("::380d", True),   # inside the veth's item: the first line names the veth already
    ("[1]veth", False),  # between items: the first line looks whole, the veth is on the second
])
def test_a_list_a_log_wrapped_over_two_lines_is_read_on_both(cut_before, first_line_states):
    at = ONEFLOW_SOCKET.index(cut_before)
    head, tail = ONEFLOW_SOCKET[:at].rstrip(), ONEFLOW_SOCKET[at:]
    evidence = feed(head, tail, "worker:101542:101542 [0] NCCL INFO Using network Socket")
    found = virtual(evidence)
    assert found.value is True
    assert found.line == ("job.log:1" if first_line_states else "job.log:2")
    # the first line's list, as far as it goes
    assert evidence.stated["nccl.socket_interfaces"].value == (["eno1", "veth25f2e72"] if first_line_states else ["eno1"])


def test_a_continuation_without_a_virtual_interface_leaves_the_list_undecided():
    at = ONEFLOW_SOCKET.index("[1]")
    wrapped = feed(ONEFLOW_SOCKET[:at] + "[1]eno2:172.18.41", "7<0> [2]eno3:172.18.40.42<0>")
    assert not virtual(wrapped).known  # the first line ends inside an item: no claim about the rest


def test_two_pods_one_on_a_veth_make_the_virtual_interface_shown():
    assert virtual(feed("[pod/a/c] " + ETH0_SOCKET, "[pod/b/c] " + ONEFLOW_SOCKET)).value is True


@pytest.mark.parametrize("name, address, expected", [
    ("eth0", "10.244.0.233", False), ("bond0", "192.168.3.12", False), ("eno1", "172.18.40.41", False),
    ("veth25f2e72", "", True), ("br-1a2b3c4d5e6f", "172.18.0.2", True), ("docker0", "172.17.0.1", True),
    ("virbr0", "192.168.122.1", True), ("cni0", "10.244.0.1", True), ("flannel.1", "10.244.0.0", True),
    ("eth1", "fe80::1%eth1", True), ("eth1", "169.254.3.4", True),
    # the kernel's tunnel devices (NVIDIA/nccl#529's ip6tnl0), whatever address they carry
    ("ip6tnl0", "fe80::e866:19ff:fe1e:a688%ip6tnl0", True), ("ip6tnl0", "2a02:6b8::1", True), ("sit0", "10.1.2.3", True),
    ("gre0", "10.1.2.3", True), ("ip6gre0", "2001:db8::1", True), ("ipip0", "10.1.2.3", True), ("tun0", "10.8.0.2", True),
    ("ip_vti0", "10.1.2.3", True),
])
def test_which_interfaces_are_virtual(name, address, expected):
    assert virtual_interface(name, address) is expected


#: NVIDIA/nccl#529 (NCCL 2.5.6 in a container): the ip6tnl0 tunnel with its link-local address is listed first
IP6TNL_BOOTSTRAP = ("NvYt-dcf441d17e21-1bdf2bc9-79ce82ee-3fe03e8-c2959af0:97:221 [0] NCCL INFO Bootstrap : Using "
                    "[0]ip6tnl0:fe80::e866:19ff:fe1e:a688%ip6tnl0<0> [1]veth0:2a02:6b8:fc1d:3606:0:4457:edef:600a<0>")


def test_a_tunnel_first_in_the_list_is_virtual_and_named_for_the_remedy():
    evidence = feed(IP6TNL_BOOTSTRAP, IP6TNL_BOOTSTRAP.replace("Bootstrap", "NET/Socket"))
    assert virtual(evidence).value is True
    assert evidence.value("nccl.socket_virtual_name").value == "ip6tnl0"
    assert evidence.value("nccl.socket_real_name") is None  # veth0 is a veth by name: no interface to name


def test_the_lists_name_the_first_real_and_the_first_virtual_interface():
    evidence = feed(ONEFLOW_BOOTSTRAP, ONEFLOW_SOCKET)
    assert (evidence.value("nccl.socket_real_name").value, evidence.value("nccl.socket_virtual_name").value) == \
        ("eno1", "veth25f2e72")
    single = feed("NCCL INFO Bootstrap : Using docker0:172.17.0.1<0>")
    assert single.value("nccl.socket_virtual_name").value == "docker0"
    assert feed(ETH0_SOCKET).value("nccl.socket_real_name").value == "eth0"


def test_two_pods_that_list_different_interfaces_name_none():
    evidence = feed("[pod/a/c] " + ETH0_SOCKET, "[pod/b/c] " + ONEFLOW_SOCKET)
    assert evidence.value("nccl.socket_real_name") is None  # eth0 and eno1: a conflict, the remedy says its fallback


def test_without_nccls_lines_nothing_is_known():
    assert not virtual(feed("epoch 1 loss 2.31")).known
