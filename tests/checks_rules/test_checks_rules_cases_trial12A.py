"""Lines of the twelfth trial's public failure reports (first set) the checker read wrongly or not at all.

Each line is quoted from the report named in its test; lines in the form of an NCCL release with no public report at
hand are its source's format string filled in, and say so.
"""

from __future__ import annotations

import pytest

from signature_cases_kit import (assert_line_is, assert_log_leads, cli_report, evidence_for_log, lead_cause,
                                 signature)

SOCKET_SIG = "nccl-socket-connect-failed"

#: NVIDIA/nccl#529 (NCCL 2.5.6): NCCL's INFO lines list the ip6tnl0 tunnel, with its link-local address, first
NCCL_529_BOOTSTRAP = ("NvYt-dcf441d17e21-1bdf2bc9-79ce82ee-3fe03e8-c2959af0:97:221 [0] NCCL INFO Bootstrap : Using "
                      "[0]ip6tnl0:fe80::e866:19ff:fe1e:a688%ip6tnl0<0> [1]veth0:2a02:6b8:fc1d:3606:0:4457:edef:600a<0>")
NCCL_529_SOCKET = NCCL_529_BOOTSTRAP.replace("Bootstrap", "NET/Socket")
#: the warning the maintainer quoted from that log
NCCL_529_WARN = "NCCL WARN Connect to fe80::745d:60ff:fef9:e1dd%ip6tnl0<46681> failed : Connection timed out"


@pytest.mark.parametrize("line, cause", [
    (NCCL_529_WARN, "firewall-between-nodes"),  # a time-out, without the interfaces: a drop on the way first
    # stas00/ml-engineering, orchestration/slurm/users.md (NCCL 2.7.8): the include/socket.h form of NCCL <= 2.10;
    # refused: a node whose rank is gone or whose network is broken
    ("r11i6n2:486514:486651 [1] include/socket.h:403 NCCL WARN Connect to 10.148.3.247<56821> failed : Connection "
     "refused", "peer-gone"),
    # NVIDIA/nccl-tests#162 (NCCL 2.18.3; a firewall, found with nc)
    ("misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<43615> failed : Software caused connection "
     "abort", "firewall-between-nodes"),
    # NVIDIA/nccl-tests#15 (NCCL 2.2.13)
    ("gpu-bql-144-103:18553:18611 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out",
     "firewall-between-nodes"),
    # sgl-project/sglang#3820 (a firewall between the nodes)
    ("node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned "
     "113(No route to host) errno 115(Operation now in progress)", "firewall-between-nodes"),
    # the forms of NCCL's source with no public report at hand: "Net : Connect to %s failed : %s" (2.11 to 2.17), the
    # retries of 2.18 to 2.26, socketConnectCheck's (misc/socket.cc 2.27, src/os/linux.cc 2.30)
    ("node1:77:88 [0] misc/socket.cc:450 NCCL WARN Net : Connect to 10.1.2.3<43891> failed : Network is unreachable",
     "network-unreachable"),
    ("node1:77:88 [0] misc/socket.cc:473 NCCL WARN socketStartConnect: exceeded timeouts (3)", "firewall-between-nodes"),
    ("node1:77:88 [0] misc/socket.cc:547 NCCL WARN socketStartConnect: connect returned Connection refused, exceeded error "
     "retry count (35)", "peer-gone"),
    ("node1:77:88 [0] misc/socket.cc:591 NCCL WARN socketPollConnect: connect to 10.1.2.3<43891> failed : No route to host",
     "firewall-between-nodes"),
    ("node1:77:88 [0] os/linux.cc:288 NCCL WARN ncclOsSocketStartConnect: connect to 10.1.2.3<43891> returned Connection "
     "refused, exceeded error retry count after 35 attempts", "peer-gone"),
])
def test_every_form_of_nccls_failed_connect_is_one_signature_led_by_its_errno(tmp_path, line, cause):
    """The connect failure of every NCCL release, without interfaces in the log: the errno it prints picks the lead."""
    assert_line_is(tmp_path, line, SOCKET_SIG, cause)


def test_a_tunnel_in_nccls_interface_list_leads_with_the_interface_to_use(tmp_path):
    """Trial 12 case02, NVIDIA/nccl#529: NCCL chose ip6tnl0 (link-local, a tunnel); the remedy excludes it by name."""
    lines = [NCCL_529_BOOTSTRAP, NCCL_529_SOCKET, "NCCL version 2.5.6+cuda10.0", NCCL_529_WARN]
    findings = assert_log_leads(tmp_path, lines, SOCKET_SIG, "virtual-interface")
    remedy = findings[0].remedy.en
    assert "NCCL_SOCKET_IFNAME=^ip6tnl0" in remedy and "NCCL_SOCKET_IFNAME=eth0" in remedy
    assert "Rerun with NCCL_DEBUG=INFO" not in remedy


def test_the_fallback_for_an_unknown_nccls_warning_points_at_the_info_lines_the_log_holds(tmp_path):
    """A warning neither a signature nor the catalog holds: with NCCL's INFO lines in the log, the remedy reads them
    instead of asking to rerun with NCCL_DEBUG=INFO (kserve/kserve#3791's Bootstrap line)."""
    warn = "NCCL WARN An entirely new warning no NCCL release printed"
    shown = cli_report(tmp_path, ["predictor-0:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.244.0.233<0>", warn])
    remedy = next(f for f in shown["findings"] if f["rule"] == "evidence.error-lines")["remedy"]
    assert remedy.startswith("Read the NCCL INFO lines this log already holds") and "job.log:1" in remedy
    alone = cli_report(tmp_path, [warn])
    assert next(f for f in alone["findings"] if f["rule"] == "evidence.error-lines")["remedy"].startswith(
        "Rerun with NCCL_DEBUG=INFO")


IB_SIG = "nccl-ib-completion-error"
#: pytorch/pytorch#81628: NCCL's IB transport on RoCE ports, and the completion error right after the channels were set up
ROCE_LIST = ("tf144:143468:143468 [1] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]i40iw0:1/RoCE ; OOB "
             "enp88s0:192.168.17.144<0>")
ROCE_CHANNEL = "tf144:143468:143535 [1] NCCL INFO Channel 00 : 0[2f000] -> 1[86000] [receive] via NET/IB/1"
ERROR_12 = "NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129"
#: NVIDIA/nccl#1584: InfiniBand ports
IB_LIST = ("NCCL INFO NET/IB : Using [0]ibp0:1/IB/SHARP [1]ibp1:1/IB/SHARP [2]ibp2:1/IB/SHARP [3]ibp3:1/IB/SHARP [RO]; "
           "OOB eth0:10.7.147.73<0>")


def test_status_12_first_on_roce_leads_with_the_gid_index(tmp_path):
    """Trial 12 case03, pytorch/pytorch#81628: fixed with NCCL_IB_GID_INDEX=3 (the nodes sit under different switches)."""
    findings = assert_log_leads(tmp_path, [ROCE_LIST, "tf144:143468:143468 [1] NCCL INFO Using network IB", ROCE_CHANNEL,
                                           ERROR_12], IB_SIG, "gid")
    remedy = findings[0].remedy.en
    assert "NCCL_IB_GID_INDEX" in remedy and "show_gids" in remedy and "NCCL_IB_HCA=mlx5" in remedy


def test_status_12_on_infiniband_keeps_the_lost_peer_first(tmp_path):
    report = cli_report(tmp_path, [IB_LIST, ERROR_12])
    assert lead_cause(report, IB_SIG) == "peer-or-path-lost"
    assert "gid" in next(m for m in report["evidence"]["matches"] if m["signature"] == IB_SIG)["ruled_out"]


def test_status_12_on_roce_after_an_earlier_error_keeps_the_lost_peer_first(tmp_path):
    """An error line before the completion (here a peer's out of memory) means the peer went away first."""
    oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.14 GiB"
    assert lead_cause(cli_report(tmp_path, [ROCE_LIST, oom, ERROR_12]), IB_SIG) == "peer-or-path-lost"
    # without the link layer the record's order stands
    assert lead_cause(cli_report(tmp_path, [ERROR_12]), IB_SIG) == "peer-or-path-lost"


NVLS_SIG = "nccl-nvls-setup-failed"


@pytest.mark.parametrize("line", [
    # trial 12 case04, NVIDIA/nccl#1488 (H100; the Fabric Manager stopped and started again)
    "node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'",
    # NVIDIA/nccl#976 (NCCL 2.18, the runtime API's form without the number)
    "transport/nvls.cc:165 NCCL WARN Cuda failure 'invalid argument'",
    # NVIDIA/nccl-tests#276 (the quote cut by the log)
    "gpu47:4962:5097 [1] transport/nvls.cc:223 NCCL WARN Cuda failure 999 'unknown error",
    # NVIDIA/nccl#1788 (cuMulticastAddDevice)
    "[2025-07-21 19:05:29] node004:27907:27907 [1] transport/nvls.cc:254 NCCL WARN Cuda failure 401 'the operation cannot "
    "be performed in the present state'",
    # NVIDIA/DCGM#304 (NCCL 2.27 on: the bind step's own message, the function after the line)
    "[2026-06-23 15:45:07] gpu-stress-dgc86-xfpt6:420:437 [5] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN Failed to "
    "bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 'the operation cannot be performed in the "
    "present state'.",
])
def test_a_cuda_failure_of_nvls_setup_leads_with_the_restarted_fabric_manager(tmp_path, line):
    assert_line_is(tmp_path, line, NVLS_SIG, "fabric-manager-restarted")


def test_the_nvls_remedy_resets_the_gpus_first_and_turns_nvls_off_last(tmp_path):
    """Trial 12 case04: the GPUs must be reset with the Fabric Manager stopped (or the node rebooted)."""
    lines = ["node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'",
             "node23:12098:12141 [2] NCCL INFO transport/nvls.cc:394 -> 1"]
    findings = assert_log_leads(tmp_path, lines, NVLS_SIG, "fabric-manager-restarted")
    remedy = findings[0].remedy.en
    assert "systemctl stop nvidia-fabricmanager" in remedy and "nvidia-smi -r" in remedy and "reboot" in remedy
    causes = signature(NVLS_SIG)["causes"]
    assert [c["id"] for c in causes] == ["fabric-manager-restarted", "fabric-manager-not-running",
                                         "fabric-manager-version-differs", "nvls-unusable"]
    assert "NCCL_NVLS_ENABLE=0" in causes[-1]["remedies"]["image"]["en"]  # the workaround comes last


@pytest.mark.parametrize("line, sig", [
    # out of memory at the same places stays with the out-of-memory entries (NVIDIA/nccl#2077 for the bind step)
    ("Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 2 'out of memory'.",
     "nccl-nvls-multicast-bind-failed"),
    ("node1:1:2 [0] transport/nvls.cc:236 NCCL WARN Cuda failure 2 'out of memory'", "nccl-cuda-failure-out-of-memory"),
])
def test_out_of_memory_in_nvls_is_not_the_fabric_managers(tmp_path, line, sig):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [sig]


CLI_MISMATCH_SIG = "nvidia-container-nvml-driver-library-mismatch"


@pytest.mark.parametrize("line", [
    # trial 12 case09, apache/mxnet#21114 (a CI node whose driver packages auto-updated at launch)
    "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.",
    # NVIDIA/nvidia-docker#1451: Docker's nested form of the hook's error
    'docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process '
    'caused "process_linux.go:449: container init caused \\"process_linux.go:432: running prestart hook 1 caused \\\\\\"'
    'error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: '
    'driver/library version mismatch\\\\\\\\n\\\\\\"\\"": unknown.',
])
def test_the_hooks_nvml_mismatch_leads_with_the_host_upgraded_without_a_reboot(tmp_path, line):
    assert_line_is(tmp_path, line, CLI_MISMATCH_SIG, "host-upgraded")


def test_the_hooks_nvml_mismatch_remedy_reboots_and_holds_the_packages(tmp_path):
    findings = assert_log_leads(tmp_path, ["nvidia-container-cli: initialization error: nvml error: driver/library version "
                                           "mismatch: unknown."], CLI_MISMATCH_SIG, "host-upgraded")
    remedy = findings[0].remedy.en
    # a reboot first, not the catalog's "load the module / install the driver"
    assert remedy.startswith("Docker: Reboot the host") and "apt-mark hold" in remedy
    # the hook reads the host's libraries: a library in the image is not among its causes
    assert "nvml-in-image" not in [c["id"] for c in signature(CLI_MISMATCH_SIG)["causes"]]


K8S_SIG = "kubernetes-insufficient-nvidia-gpu"


@pytest.mark.parametrize("line", [
    # trial 12 case08, NVIDIA/k8s-device-plugin#165: the scheduler's reason as the reporter typed it
    "## It always output 0/3 nodes are available: 3 insufficient nvidia.com/gpu!",
    # NVIDIA/k8s-device-plugin#430: as the scheduler prints it
    "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption "
    "victims found for incoming pod..",
    "0/2 nodes are available: 2 Insufficient nvidia.com/GPU.",  # the resource retyped in capitals
])
def test_insufficient_nvidia_gpu_is_read_whatever_its_case(tmp_path, line):
    assert_line_is(tmp_path, line, K8S_SIG, "gpus-not-advertised")


def test_a_request_larger_than_any_node_is_a_cause_of_its_own(tmp_path):
    """NVIDIA/k8s-device-plugin#165: two containers asking for 2 GPUs each, nodes with 1; one GPU per pod schedules. The
    log cannot show it line by line (nvidia.com/gpu: N is a pod's limit, a node's capacity or a node list's), so the
    cause follows the plugin's and names the commands that compare the two."""
    causes = signature(K8S_SIG)["causes"]
    assert [c["id"] for c in causes] == ["gpus-not-advertised", "request-exceeds-node", "gpus-all-allocated"]
    remedy = causes[1]["remedies"]["kubernetes"]["en"]
    assert "kubectl describe node | grep -A8 Allocatable" in remedy and "resources.limits nvidia.com/gpu" in remedy
    assert "several pods" in remedy


def test_another_vendors_resource_is_not_nvidias(tmp_path):
    assert not evidence_for_log(tmp_path, ["0/4 nodes are available: 4 Insufficient aliyun.com/gpu-mem."]).hits


NVML_SIG = "nvml-driver-library-mismatch"
#: E4S-Project/e4s#172: nvidia-smi inside a container whose image had installed CUDA drivers of its own
E4S = ["root@5561000296a4:~/testsuite/validation_tests/chai-cuda# nvidia-smi",
       "Failed to initialize NVML: Driver/library version mismatch", "NVML library version: 610.43"]


def test_nvmls_mismatch_in_a_docker_containers_shell_leads_with_the_images_library(tmp_path):
    """Trial 12 case05: a container the NVIDIA runtime started passed the hook's NVML check on the host, so the
    mismatch inside comes from the image's own driver libraries."""
    findings = assert_log_leads(tmp_path, E4S, NVML_SIG, "nvml-in-image")
    assert "ldconfig -p | grep nvidia-ml" in findings[0].remedy.en and "cuda-drivers" in findings[0].remedy.en


def test_nvmls_mismatch_without_a_containers_prompt_keeps_the_host_upgrade_first(tmp_path):
    assert lead_cause(cli_report(tmp_path, E4S[1:]), NVML_SIG) == "host-upgraded"
    # a host's own prompt says nothing of a container
    assert lead_cause(cli_report(tmp_path, ["root@gpu-worker-3:~# nvidia-smi", E4S[1]]), NVML_SIG) == "host-upgraded"
