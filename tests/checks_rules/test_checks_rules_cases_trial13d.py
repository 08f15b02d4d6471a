"""Lines of the thirteenth trial's public failure reports (trial13a) that were read wrong or not at all, and the other
forms public reports and NCCL's sources print of the same lines:

* NCCL's shared-memory calls failing with Permission denied (NVIDIA/nccl#328: ``include/shm.h:27 NCCL WARN Call to
  shm_open failed : Permission denied``, fixed by the mode of /dev/shm): the errno the line prints decides, so a
  permission error leads with the directory or segment this user may not write and rules out a small or full
  /dev/shm, and No space left on device (pytorch/ci-infra#490) still leads with the size; the catalog files the
  SYSCHECK line under the shared-memory part, by the file it names, not under include/checks.h's CUDA calls;
* a RoCE ``ibv_modify_qp failed with 110 Connection timed out`` that itself shows ``local GID index 3, local GID
  ::ffff:...`` (NVIDIA/nccl#2013): the line rules out a GID entry without an address, and the rail-optimised fabric
  (``NCCL_CROSS_NIC=0``, the thread's fix) leads; a link-local GID still leads with the GID index;
* ``exec: "nvidia-container-cli": executable file not found in $PATH`` (containerd/nerdctl#2716, on a GPU Operator
  node) and the Docker hook's ``couldn't find binary nvidia-container-cli`` (NVIDIA/nvidia-docker#1364), which read as
  OK: the toolkit's CLI is not on the PATH of the runtime that runs the GPU hook; with the operator in the log, its
  /usr/local/nvidia/toolkit and /run/nvidia/driver lead;
* the GPU Operator's driver container unable to install the node kernel's headers (NVIDIA/gpu-operator#234: ``Error:
  Unable to find a match: kernel-headers-4.18.0-...``), which read as OK: on OpenShift the entitlement and the Driver
  Toolkit lead, elsewhere the kernel missing from the repositories, and repositories that cannot be reached where the
  log shows it (#616);
* c10d's store unable to listen on 29500 (pytorch/pytorch#116974, a shared Slurm node): every remedy names ss -ltnp
  with the line's port and --rdzv-endpoint HOST:FREE_PORT (which --master-port does not set) and no pkill by name;
  where the log shows Slurm, the Slurm cause leads with no Kubernetes text before it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.catalog_lines import recognise
from lingjun.checks.knowledge.error_catalogs import embedded
from lingjun.checks.report.findings import Severity
from signature_cases_kit import (assert_line_is, assert_log_leads, assert_matches_none, cli_report, findings_for_log,
                                 lead_cause, line_finding, not_ok_findings)

SHM_CREATE = "nccl-shm-create-failed"
SYSTEM_ERROR = "nccl-unhandled-system-error"

# --- case 02: NCCL's shared memory and the errno it printed ---------------------------------------------------------

#: NVIDIA/nccl#328 (PyTorch 1.2, NCCL 2.4 on a bare node), the trial's case 02
NCCL_328 = [
    "node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied",
    "node08:27106:27302 [0] NCCL INFO include/shm.h:41 -> 2",
    "node08:27106:27302 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
    "nccl-shm-recv-b7948f403864987a-0-3-0 (size 4460544)",
    "RuntimeError: NCCL error in ProcessGroupNCCL.cpp:290, unhandled system error",
]
#: pytorch/ci-infra#490 (NCCL 2.26, a CI pod's 64 MiB /dev/shm): the errno on the create line itself
CI_INFRA_490 = [
    "[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] "
    "misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-WU88OE (size 9637888), "
    "error: No space left on device (28)",
]
#: NCCL's own forms of a permission error in later releases (v2.24.3-1 misc/shmutils.cc:73 and :128; v2.21.5-1's
#: SYSCHECKGOTO INFO line at misc/shmutils.cc:68 before its create line at :113)
LATER_PERMISSION = [
    ["node1:77:88 [0] misc/shmutils.cc:73 NCCL WARN Error: failed to create shared memory file /dev/shm/nccl-XXXXXX, "
     "error Permission denied (13)",
     "node1:77:88 [0] misc/shmutils.cc:128 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-XXXXXX "
     "(size 9637888), error: Permission denied (13)"],
    ["node1:77:88 [0] NCCL INFO misc/shmutils.cc:68 -> 2 (Permission denied)",
     "node1:77:88 [0] misc/shmutils.cc:113 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-a1B2c3 "
     "(size 9637888)"],
]
#: NVIDIA/nccl-tests#166 (NCCL 2.18): no errno anywhere, so the size still leads
NCCL_TESTS_166 = ["ubuntu:9621:9688 [3] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment "
                  "/dev/shm/nccl-KWfVyt (size 5967872)"]


def test_case02_permission_denied_leads_with_the_mode_not_the_size(tmp_path: Path):
    findings = assert_log_leads(tmp_path, NCCL_328, SHM_CREATE, "shm-not-writable")
    lead = findings[0]
    assert "ls -ld /dev/shm" in lead.remedy.en and "chmod 1777 /dev/shm" in lead.remedy.en
    assert "/dev/shm/nccl-*" in lead.remedy.en and "one user" in lead.remedy.en
    assert "--ipc=host" in lead.remedy.en and "--user" in lead.remedy.en
    assert "--shm-size=16g, or with --ipc=host" not in lead.remedy.en  # the size remedy is not the lead's
    report = cli_report(tmp_path, NCCL_328)
    assert "fresh emptyDir with medium: Memory" in line_finding(report, SHM_CREATE)["remedy"]
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == SHM_CREATE)
    assert set(match["ruled_out"]) == {"shm-too-small", "shm-filled"}
    # the summary line leads with the same cause, below the lines it sums up
    assert lead_cause(report, SYSTEM_ERROR) == "shm-not-writable"


@pytest.mark.parametrize("lines", LATER_PERMISSION)
def test_later_releases_permission_forms_lead_the_same_way(tmp_path: Path, lines):
    assert lead_cause(cli_report(tmp_path, lines), SHM_CREATE) == "shm-not-writable"


def test_no_space_left_still_leads_with_the_size(tmp_path: Path):
    report = cli_report(tmp_path, CI_INFRA_490)
    assert lead_cause(report, SHM_CREATE) == "shm-too-small"
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == SHM_CREATE)
    assert "shm-not-writable" in match["ruled_out"]


def test_a_line_without_an_errno_keeps_the_size_first(tmp_path: Path):
    assert lead_cause(cli_report(tmp_path, NCCL_TESTS_166), SHM_CREATE) == "shm-too-small"


def test_attaching_to_another_users_segment_leads_with_the_user_not_the_namespace(tmp_path: Path):
    """NCCL creates a segment with mode 0600 (open(..., S_IRUSR | S_IWUSR) of misc/shmutils.cc; mkstemp from 2.22): a
    rank of another user is refused. The line is NCCL's v2.24.3-1 format filled in; NVIDIA/nccl#1589's ENOENT form keeps
    its own causes."""
    line = ("node1:77:88 [0] misc/shmutils.cc:129 NCCL WARN Error while attaching to shared memory segment "
            "/dev/shm/nccl-glnlGK (size 14156128), error: Permission denied (13)")
    report = cli_report(tmp_path, [line])
    assert lead_cause(report, "nccl-shm-attach-failed") == "segment-of-another-user"
    assert "runAsUser" in line_finding(report, "nccl-shm-attach-failed")["remedy"]
    enoent = ("g148:14937:69361 [0] misc/shmutils.cc:129 NCCL WARN Error while attaching to shared memory segment "
              "/dev/shm/nccl-glnlGK (size 14156128), error: No such file or directory (2)")
    assert lead_cause(cli_report(tmp_path, [enoent]), "nccl-shm-attach-failed") == "nccl-after-2-21"


def test_the_catalog_files_a_syscheck_line_by_the_file_it_names():
    """include/checks.h's SYSCHECKVAL prints where it is used: include/shm.h, a header of the shared-memory code up to
    2.11 that no format of the catalog (2.21 on) names, belongs to the shared-memory part, not to the CUDA calls."""
    catalogs = embedded()
    match = next(m for m in recognise(NCCL_328[0], catalogs) if m.catalog == "nccl")
    assert match.info.file == "include/checks.h" and match.subsystem == "shm"
    assert catalogs.subsystems["shm"].errno_in(NCCL_328[0]).name == "EACCES"
    # a CUDA check in a file of no part of its own keeps the CUDA part; a known file decides as before
    cuda = next(m for m in recognise("node1:77:88 [0] include/foo.h:12 NCCL WARN Cuda failure 'out of memory'", catalogs)
                if m.catalog == "nccl")
    assert cuda.subsystem == "cuda"
    newer = next(m for m in recognise("g148:14937:69361 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed: No such "
                                      "file or directory", catalogs) if m.catalog == "nccl")
    assert newer.subsystem == "shm"


def test_case02_catalog_finding_names_the_errno_not_cuda(tmp_path: Path):
    findings = not_ok_findings(tmp_path, NCCL_328)
    shm_open = next(f for f in findings if f.observed.endswith(":1"))
    assert "Shared memory (/dev/shm) transport (include/shm.h, by a macro of include/checks.h" in shm_open.message.en
    assert "errno 13 (EACCES, Permission denied)" in shm_open.message.en
    assert "CUDA" not in shm_open.message.en.split("In general")[0]
    assert "chmod 1777 /dev/shm" in shm_open.remedy.en and "CUDA_LAUNCH_BLOCKING" not in shm_open.remedy.en


# --- case 05: a failed ibv_modify_qp that shows its GID entry -------------------------------------------------------

QP = "nccl-ibv-modify-qp-failed"
#: NVIDIA/nccl#2013 (NCCL 2.27 on 7 or more HGX nodes, RoCE v2), the trial's case 05
NCCL_2013 = ("[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed "
             "with 110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local "
             "GID ::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx")
#: NCCL's format (v2.27.7-1 misc/ibvwrap.cc) with a link-local entry, after the NET/IB line of a RoCE port
LINK_LOCAL = ["node1:77:88 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB eth0:10.0.0.1<0>",
              "node1:77:88 [0] misc/ibvwrap.cc:291 NCCL WARN Call to ibv_modify_qp failed with 101 Network is "
              "unreachable, on dev mlx5_0:1, curr state INIT, next state RTR, local GID index 1, local GID "
              "fe80::a288:c2ff:fe3b:1a2e, remote GID fe80::a288:c2ff:fe3b:1b40"]
#: NVIDIA/nccl-tests#227 (NCCL 2.21): no GID on the line
OLDER = "ibvwrap.c:160 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out."


def test_case05_an_ipv4_gid_rules_out_the_gid_index_and_cross_rail_leads(tmp_path: Path):
    findings = assert_log_leads(tmp_path, [NCCL_2013], QP, "cross-rail")
    lead = findings[0]
    assert "NCCL_CROSS_NIC=0" in lead.remedy.en and "ib_write_bw" in lead.remedy.en
    assert "NCCL_IB_GID_INDEX to the RoCE v2 entry" not in lead.remedy.en
    assert "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-cross-nic" in lead.links
    report = cli_report(tmp_path, [NCCL_2013])
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == QP)
    assert match["ruled_out"] == ["gid-index"]


def test_cross_rail_is_ruled_out_where_nccl_cross_nic_is_already_0(tmp_path: Path):
    """In the container, where the environment shows NCCL_CROSS_NIC=0: the next standing cause leads."""
    facts = Facts()
    facts.env = {"NCCL_CROSS_NIC": "0"}
    lead = [f for f in findings_for_log(tmp_path, [NCCL_2013], facts) if f.severity is not Severity.ok][0]
    assert "Ruled out by what the input shows" in lead.message.en and "NCCL_CROSS_NIC!=0" in lead.message.en
    assert "NCCL_IB_HCA=^mlx5_3" in lead.remedy.en


def test_a_link_local_gid_still_leads_with_the_gid_index(tmp_path: Path):
    assert lead_cause(cli_report(tmp_path, LINK_LOCAL), QP) == "gid-index"


def test_a_line_without_its_gid_keeps_the_gid_index_first(tmp_path: Path):
    assert lead_cause(cli_report(tmp_path, [OLDER]), QP) == "gid-index"


# --- case 03: nvidia-container-cli not on the runtime's PATH --------------------------------------------------------

CLI = "nvidia-container-cli-not-found"
#: containerd/nerdctl#2716 (nerdctl on a node the GPU Operator manages), the trial's case 03
NERDCTL_2716 = [
    "1. Using the  [gpu-operator](https://github.com/NVIDIA/gpu-operator)  to install GPU drivers. "
    "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html",
    "2. nerdctl run --gpus=1 nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda11.7.1-ubuntu20.04",
    "FATA[0000] exec: \"nvidia-container-cli\": executable file not found in $PATH",
]
#: NVIDIA/nvidia-docker#1364 (toolkit 1.2.1 without libnvidia-container-tools): Docker's form, quotes escaped thrice
DOCKER_1364 = r"""docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container process caused "process_linux.go:449: container init caused \"process_linux.go:432: running prestart hook 0 caused \\\"error running hook: exit status 1, stdout: , stderr: couldn't find binary nvidia-container-cli in /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin : exec: \\\\\\\"nvidia-container-cli\\\\\\\": executable file not found in $PATH\\\\n\\\"\"": unknown."""
#: NVIDIA/nvidia-docker#875 (nvidia-docker2 installed with --nodeps): the toolkit's own hook missing
HOOK_875 = "exec: \"nvidia-container-runtime-hook\": executable file not found in $PATH"
#: NVIDIA/nvidia-docker#1668: a program missing in the image, not the toolkit
NVIDIA_SMI_1668 = ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
                   "failed: unable to start container process: exec: \"nvidia-smi\": executable file not found in $PATH: "
                   "unknown.")


def test_case03_on_a_gpu_operator_node_the_operators_paths_lead(tmp_path: Path):
    findings = assert_log_leads(tmp_path, NERDCTL_2716, CLI, "gpu-operator-paths")
    remedy = findings[0].remedy.en
    assert "export PATH=$PATH:/usr/local/nvidia/toolkit" in remedy
    assert "/run/nvidia/driver/usr/lib/x86_64-linux-gnu > /etc/ld.so.conf.d/nvidia.conf" in remedy and "ldconfig" in remedy
    report = cli_report(tmp_path, NERDCTL_2716)
    assert report["exit_code"] == 1  # read as OK (exit 0) before
    assert "runtimeClassName: nvidia" in line_finding(report, CLI)["remedy"]


@pytest.mark.parametrize("line", [NERDCTL_2716[-1], DOCKER_1364, HOOK_875])
def test_each_form_without_the_operator_leads_with_the_missing_toolkit(tmp_path: Path, line: str):
    assert_line_is(tmp_path, line, CLI, "toolkit-not-installed")
    remedy = line_finding(cli_report(tmp_path, [line]), CLI)["remedy"]
    assert "nvidia-container-toolkit" in remedy and "nvidia-ctk runtime configure --runtime=containerd" in remedy
    assert "which nvidia-container-cli" in remedy


def test_a_program_missing_in_the_image_is_not_the_toolkits(tmp_path: Path):
    assert_matches_none(tmp_path, NVIDIA_SMI_1668, {CLI})


# --- case 08: the GPU Operator's driver container and the kernel headers ------------------------------------------

HEADERS = "gpu-operator-driver-kernel-headers-unavailable"
#: NVIDIA/gpu-operator#234 (GPU Operator 1.7.1, OpenShift 4.7.21), the trial's case 08
OPERATOR_234 = [
    "We are currently using the GPU operator version 1.7.1 in our OpenShift clusters.",
    "Unfortunately, after updating to OpenShift 4.7.21 the nvidia-driver DaemonSet pods crash with the following error:",
    "Installing Linux kernel headers...",
    "+ echo 'Installing Linux kernel headers...'",
    "+ dnf -q -y --releasever=8.3 install kernel-headers-4.18.0-240.23.2.el8_3.x86_64 "
    "kernel-devel-4.18.0-240.23.2.el8_3.x86_64",
    "Error: Unable to find a match: kernel-headers-4.18.0-240.23.2.el8_3.x86_64 kernel-devel-4.18.0-240.23.2.el8_3.x86_64",
]
#: NVIDIA/gpu-operator#616 (RHEL 8.6, GPU Operator 23.9): the repositories do not answer
OPERATOR_616 = [
    "Updating the package cache...",
    "+ echo 'Updating the package cache...'",
    "+ yum -q makecache",
    "Error: Failed to download metadata for repo 'rhel-8-for-x86_64-appstream-rpms': Cannot download repomd.xml: Cannot "
    "download repodata/repomd.xml: All mirrors were tried",
    "FATAL: failed to reach RHEL package repositories.  Ensure that the cluster can access the proper networks.",
]
#: NVIDIA/gpu-operator#338 (OpenShift 4.6): elfutils, the first package the build installs
OPERATOR_338 = "Error: Unable to find a match: elfutils-libelf-devel.x86_64"
#: NVIDIA/gpu-operator#190 (OpenShift 4.7.9), as posted (bold markdown around it)
OPERATOR_190 = "**Error: Unable to find a match: kernel-devel-4.18.0-240.22.1.el8_3.x86_64**"


def test_case08_on_openshift_the_entitlement_and_the_driver_toolkit_lead(tmp_path: Path):
    assert_log_leads(tmp_path, OPERATOR_234, HEADERS, "openshift-entitlement")
    report = cli_report(tmp_path, OPERATOR_234)  # the log alone: every place's remedy (these are Kubernetes')
    remedy = line_finding(report, HEADERS)["remedy"]
    assert "use_ocp_driver_toolkit: true" in remedy and "regenerate the entitlement" in remedy
    assert report["exit_code"] == 1  # read as OK (exit 0) before


def test_unreachable_repositories_lead_where_the_log_shows_them(tmp_path: Path):
    assert_log_leads(tmp_path, OPERATOR_616, HEADERS, "repositories-unreachable")
    remedy = line_finding(cli_report(tmp_path, OPERATOR_616), HEADERS)["remedy"]
    assert "driver.env" in remedy and "driver.repoConfig.configMapName" in remedy


@pytest.mark.parametrize("line", [OPERATOR_234[-1], OPERATOR_338, OPERATOR_190])
def test_without_openshift_in_the_log_the_missing_kernel_leads(tmp_path: Path, line: str):
    assert_line_is(tmp_path, line, HEADERS, "kernel-not-in-repositories")
    remedy = line_finding(cli_report(tmp_path, [line]), HEADERS)["remedy"]
    assert "dnf list --showduplicates kernel-devel" in remedy and "driver.enabled=false" in remedy
    assert "driver.usePrecompiled=true" in remedy


def test_other_packages_dnf_cannot_find_are_not_the_driver_containers(tmp_path: Path):
    """A Dockerfile's dnf install of something else (dnf's message with another package)."""
    assert_matches_none(tmp_path, "Error: Unable to find a match: python3-devel", {HEADERS})


# --- case 07: the store's port on a shared Slurm node ---------------------------------------------------------------

STORE = "pytorch-c10d-store-address-in-use"
#: pytorch/pytorch#116974 (torchrun with the c10d rendezvous on ComputeCanada's Slurm cluster), the trial's case 07
PYTORCH_116974 = [
    "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group",
    "[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).",
    "[W socket.cpp:426] [c10d] The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in "
    "use).",
    "[E socket.cpp:462] [c10d] The server socket has failed to listen on any local network address.",
]
#: the job script lines of a Slurm torchrun launch (AMDResearch/hpcfund#47)
SLURM_SCRIPT = ['export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)', "srun torchrun \\"]
#: TorchDR/TorchDR#249 (a Slurm cluster): the 2.x exception on another port
TORCHDR_249 = ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
               "address. port: 29501, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use")


def test_case07_the_remedy_names_the_rdzv_endpoint_and_the_lines_port(tmp_path: Path):
    remedy = line_finding(cli_report(tmp_path, PYTORCH_116974), STORE)["remedy"]
    assert "ss -ltnp | grep :29500" in remedy and "--rdzv-endpoint HOST:FREE_PORT" in remedy
    assert "pkill -f torchrun" not in remedy and "never pkill by name" in remedy


def test_with_slurm_in_the_log_the_slurm_cause_leads_without_kubernetes(tmp_path: Path):
    lines = SLURM_SCRIPT + PYTORCH_116974
    assert lead_cause(cli_report(tmp_path, lines), STORE) == "slurm-shared-node"
    remedy = line_finding(cli_report(tmp_path, lines), STORE)["remedy"]
    assert "hostNetwork" not in remedy and "Kubernetes" not in remedy
    assert remedy.index("ss -ltnp | grep :29500") < remedy.index("--rdzv-endpoint $HOST:FREE_PORT")
    assert "srun --ntasks-per-node=1 torchrun" in remedy and "MASTER_PORT" in remedy
    findings = not_ok_findings(tmp_path, lines)
    assert any("slurm" in f.message.en.lower() for f in findings)


def test_the_port_quoted_is_the_one_the_line_names(tmp_path: Path):
    remedy = line_finding(cli_report(tmp_path, [TORCHDR_249]), STORE)["remedy"]
    assert "ss -ltnp | grep :29501" in remedy and ":29500" not in remedy
