"""nccl-unhandled-system-error ranked by the whole log: when NCCL's INFO lines show its sockets on a veth, a bridge, a
tunnel or a link-local address, that cause leads, and /dev/shm, which the log shows nothing about, does not; the remedy
names the interfaces the INFO lines list (the real one to use, the virtual one to exclude).

The NCCL lines are quoted from Oneflow-Inc/oneflow#3586 (``eno1`` and a ``veth`` with a link-local address); the
summary line from NVIDIA/nccl#286; ``tests/fixtures/logs/kubectl-nccl-shm.log`` (kserve/kserve#3791,
InternLM/lmdeploy#3286) lists ``eth0`` only.
"""

from __future__ import annotations

from pathlib import Path

from signature_cases_kit import cli_report, findings_for_log, lead_cause
from lingjun.checks.facts import Facts

SIG = "nccl-unhandled-system-error"
LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"

BOOTSTRAP = ("worker:101542:101542 [0] NCCL INFO Bootstrap : Using [0]eno1:172.18.40.41<0> "
             "[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>")
SOCKET = ("worker:101542:101542 [0] NCCL INFO NET/Socket : Using [0]eno1:172.18.40.41<0> "
          "[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>")
NETWORK = "worker:101542:101542 [0] NCCL INFO Using network Socket"
SUMMARY = ("RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410, unhandled system error, "
           "NCCL version 2.4.8")
SUMMARY_LINE = "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:410"


def summary_finding(findings):
    return next(f for f in findings if SUMMARY_LINE in f.message.en)


def lead_of(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


def test_a_veth_in_nccls_socket_list_leads_and_shm_does_not(tmp_path):
    finding = summary_finding(findings_for_log(tmp_path, [SOCKET, NETWORK, SUMMARY]))
    lead = lead_of(finding)
    assert lead.startswith("NCCL's sockets use a container bridge, a veth, a tunnel or a link-local address")
    assert "an interface NCCL's sockets use is a container bridge, a veth, a tunnel or link-local, shown by the log" in lead
    assert not lead.startswith("/dev/shm")
    assert "Other possible causes: /dev/shm is too small for NCCL's segments" in finding.message.en
    remedy = finding.remedy.en
    # the log's own interfaces: eno1 reaches the other node, veth25f2e72 (link-local) does not
    assert "NCCL_SOCKET_IFNAME=eno1" in remedy and "NCCL_SOCKET_IFNAME=^veth25f2e72" in remedy


def test_a_socket_list_wrapped_over_two_lines_still_leads_with_the_veth(tmp_path):
    at = SOCKET.index("[1]veth")
    finding = summary_finding(findings_for_log(tmp_path, [SOCKET[:at].rstrip(), SOCKET[at:], NETWORK, SUMMARY]))
    assert lead_of(finding).startswith("NCCL's sockets use a container bridge, a veth, a tunnel or a link-local address")
    assert "shown by the log (" in lead_of(finding) and "job.log:2)" in lead_of(finding)


def test_the_bootstrap_list_alone_is_enough(tmp_path):
    finding = summary_finding(findings_for_log(tmp_path, [BOOTSTRAP, SUMMARY]))
    assert lead_of(finding).startswith("NCCL's sockets use a container bridge")


def test_a_log_that_shows_no_interfaces_keeps_the_records_order(tmp_path):
    finding = summary_finding(findings_for_log(tmp_path, [SUMMARY]))
    # the size of /dev/shm and the errno of the shared-memory call the WARN line before it would print (ENOSPC)
    assert lead_of(finding).startswith("/dev/shm is too small for NCCL's segments; the input does not show the size of "
                                       "/dev/shm, the errno of NCCL's failed shared-memory call, so this is not confirmed")


def test_a_snapshots_small_shm_with_real_interfaces_leads_with_shm(tmp_path):
    facts = Facts(origin="snapshot")
    facts.shm.present = True
    facts.shm.size_bytes = 64 << 20
    eth0 = "predictor-0:1:112 [1] NCCL INFO NET/Socket : Using [0]eth0:10.244.0.233<0>"
    finding = summary_finding(findings_for_log(tmp_path, [eth0, SUMMARY], facts=facts))
    assert lead_of(finding).startswith("/dev/shm is too small for NCCL's segments (the size of /dev/shm is 64 MiB)")
    assert ("NCCL's sockets use a container bridge, a veth, a tunnel or a link-local address (NET/Socket lists br-*, "
            "docker*, veth*, ip6tnl*, tun*, fe80::), which does not reach the other nodes (the interfaces NCCL's sockets "
            "use are neither bridges, veths, tunnels nor link-local, shown by the log") in finding.message.en


def test_the_command_line_ranks_the_kubectl_log_without_the_virtual_cause(tmp_path):
    log = (LOGS / "kubectl-nccl-shm.log").read_text(encoding="utf-8").splitlines()
    report = cli_report(tmp_path, log)
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == SIG)
    assert "socket-virtual-interface" in match["ruled_out"]
    assert report["evidence"]["stated"]["nccl.socket_interfaces"]["value"] == ["eth0"]


def test_the_command_line_names_the_interface_cause_and_the_pod_remedy(tmp_path):
    lines = ["[pod/train-0/pytorch] " + line for line in (SOCKET, NETWORK, SUMMARY)]
    report = cli_report(tmp_path, lines)
    assert lead_cause(report, SIG) == "socket-virtual-interface"
    finding = next(f for f in report["findings"] if f["rule"] == "evidence.error-lines" and SUMMARY_LINE in f["message"])
    assert finding["severity"] == "error"
    assert finding["remedy"].startswith("Kubernetes: Add env NCCL_SOCKET_IFNAME=eno1 to the container")
