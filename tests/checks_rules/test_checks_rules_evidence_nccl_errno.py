"""evidence.error-lines over NCCL's socket warnings that no error signature holds: the errno a line prints
(``returned 113(No route to host)``, ``failed : Connection refused``) leads the catalog's finding with what it points to
and its remedy; the part's usual causes follow; a line without a known errno keeps the part's remedy.

The connect lines below are nccl-socket-connect-failed's now (whose causes the errno orders too); they are read here
without the signatures, as a line of the socket part the signatures do not name is read."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from checks_rules_kit import assert_bilingual, context, run
from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.knowledge.error_catalogs import embedded
from lingjun.schema.error_catalogs import NcclSubsystem

RULE = "evidence.error-lines"
#: sgl-project/sglang#3820: a firewall between the nodes; turning it off fixed it
NO_ROUTE = ("node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned "
            "113(No route to host) errno 115(Operation now in progress)")


def _finding(tmp_path, line: str):
    log = tmp_path / "job.log"
    log.write_text(line + "\n", encoding="utf-8")
    kd = load_data(None)
    kd.raw["signatures"] = []  # the catalog's own reading of the line
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    (finding,) = run(RULE, ctx)
    assert_bilingual([finding])
    return finding


def test_socket_part_lists_the_errnos_whose_meaning_changes_the_first_step():
    socket = embedded().subsystems["socket"]
    assert [(e.errno, e.name, e.message) for e in socket.errnos] == [
        (113, "EHOSTUNREACH", "No route to host"), (111, "ECONNREFUSED", "Connection refused"),
        (110, "ETIMEDOUT", "Connection timed out"), (104, "ECONNRESET", "Connection reset by peer"),
        (101, "ENETUNREACH", "Network is unreachable"), (99, "EADDRNOTAVAIL", "Cannot assign requested address")]
    assert all(e.source.startswith("https://") for e in socket.errnos)


def test_errno_in_takes_the_earliest_known_message_then_a_number():
    socket = embedded().subsystems["socket"]
    assert socket.errno_in(NO_ROUTE).errno == 113  # 115 (EINPROGRESS) has no entry and comes later
    assert socket.errno_in("Call to recv from 10.0.0.2<3456> failed : connection reset by peer").errno == 104
    assert socket.errno_in("socketPollConnect: Connect to x returned 111() errno 0()").errno == 111
    assert socket.errno_in("Connect to x returned 115(Operation now in progress)") is None


def test_no_route_to_host_leads_with_the_firewall_and_its_test(tmp_path):
    finding = _finding(tmp_path, NO_ROUTE)
    message = finding.message.en
    assert "the line's errno 113 (EHOSTUNREACH, No route to host)" in message
    assert message.index("icmp-host-prohibited") < message.index("Usual causes: NCCL picked the wrong interface")
    assert finding.remedy.en.startswith("From this node, test the address and port the line names: nc -zv")
    assert "firewall-cmd --permanent --zone=trusted --add-source=SUBNET" in finding.remedy.en
    assert "errno 113（EHOSTUNREACH，No route to host）" in finding.message.zh
    assert finding.links[-1] == "https://github.com/torvalds/linux/blob/master/net/ipv4/icmp.c"


def test_connection_refused_points_to_the_peer_not_listening(tmp_path):
    finding = _finding(tmp_path, "node1:77:88 [0] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to "
                                 "172.17.0.1<43321> returned 111(Connection refused) errno 115(Operation now in progress)")
    assert "errno 111 (ECONNREFUSED, Connection refused)" in finding.message.en
    assert finding.remedy.en.startswith("Check that the peer rank is still running")


def test_a_socket_line_without_a_known_errno_keeps_the_parts_remedy(tmp_path):
    finding = _finding(tmp_path, "node1:77:88 [0] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to "
                                 "10.0.0.4<56849> returned 115(Operation now in progress) errno 0(Success)")
    assert "the line's errno" not in finding.message.en
    assert finding.remedy.en.startswith("Set NCCL_SOCKET_IFNAME to the interface all ranks share")


def test_schema_refuses_an_errno_listed_twice():
    entry = {"errno": 113, "name": "EHOSTUNREACH", "message": "No route to host", "source": "https://man7.org/x",
             "points_to": {"en": "a", "zh": "甲"}, "remedy": {"en": "b", "zh": "乙"}}
    base = {"id": "socket", "files": ["misc/socket.cc"], "title": {"en": "t", "zh": "题"},
            "points_to": {"en": "p", "zh": "点"}, "remedy": {"en": "r", "zh": "法"}}
    NcclSubsystem.model_validate({**base, "errnos": [entry]})
    with pytest.raises(ValidationError, match="each errno, and each message, once"):
        NcclSubsystem.model_validate({**base, "errnos": [entry, {**entry, "errno": 114}]})
