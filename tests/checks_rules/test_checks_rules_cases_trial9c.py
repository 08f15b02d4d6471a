"""Lines of GPU jobs that fail before they run: the kube-scheduler's FailedScheduling reasons for GPU pods
(kubernetes-gpu-taint-not-tolerated, kubernetes-insufficient-nvidia-gpu), Docker's unknown nvidia runtime
(docker-unknown-runtime-nvidia; the existing docker-no-gpu-device-driver for --gpus), and a driver module missing for
the running kernel (kernel-nvidia-module-not-found) with nvidia-smi's summary of it
(nvml-nvidia-smi-cannot-communicate-with-driver).

Lines are quoted from public reports: vllm-project/aibrix#909, NVIDIA/k8s-device-plugin#421 (taint);
NVIDIA/k8s-device-plugin#119, #283, #430, #36 (Insufficient nvidia.com/gpu); Leon-Sander/Local-Multimodal-AI-Chat#31,
NVIDIA/nvidia-container-toolkit#150, NVIDIA-NeMo/labs-molt#88, NVIDIA/nvidia-docker#1352 (Docker);
NVIDIA/nvidia-docker#365, Witko/nvidia-xrun#135, compiler-explorer/infra#1413, qixuema/envs#4 (driver module).
The near misses are quoted from hystax/optscale#568, AliyunContainerService/gpushare-scheduler-extender#59 and
ssst0n3/fake-nvidia#3, or are other lines of the same outputs (kubectl describe pod's Tolerations and Limits).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import (assert_line_is, assert_log_leads, assert_matches_none, cli_report,
                                 evidence_for_log, findings_for_log)

TAINT = "kubernetes-gpu-taint-not-tolerated"
INSUFFICIENT = "kubernetes-insufficient-nvidia-gpu"
RUNTIME = "docker-unknown-runtime-nvidia"
GPUS_FLAG = "docker-no-gpu-device-driver"
MODULE = "kernel-nvidia-module-not-found"
SMI = "nvml-nvidia-smi-cannot-communicate-with-driver"

CASES = [
    (TAINT, "toleration-missing",
     "FailedScheduling   2m21s (x42 over 60m)  default-scheduler  1 node(s) had untolerated taint {nvidia.com/gpu: present}"),
    (TAINT, "toleration-missing",
     "0/1 nodes are available: 1 node(s) had untolerated taint {gpu: }. preemption: 0/1 nodes are available: 1 "
     "Preemption is not helpful for scheduling.."),
    (INSUFFICIENT, "gpus-not-advertised",
     " Warning FailedScheduling  40s (x2 over 40s)  default-scheduler  0/2 nodes are available: 1 Insufficient "
     "nvidia.com/gpu, 1 node(s) were unschedulable."),
    (INSUFFICIENT, "gpus-not-advertised",
     "  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn't match "
     "node selector, 6 Insufficient nvidia.com/gpu."),
    (INSUFFICIENT, "gpus-not-advertised",
     "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption "
     "victims found for incoming pod.."),
    (INSUFFICIENT, "gpus-not-advertised",
     "$ kubectl get pod gpu-pod --template '{{.status.conditions}}' [map[type:PodScheduled lastProbeTime:<nil> "
     "lastTransitionTime:2018-02-26T21:58:32Z message:0/2 nodes are available: 1 PodToleratesNodeTaints, 2 Insufficient "
     "nvidia.com/gpu. reason:Unschedulable status:False]]"),
    (RUNTIME, "runtime-not-registered", "Error response from daemon: unknown or invalid runtime name: nvidia"),
    (RUNTIME, "runtime-not-registered", "docker: Error response from daemon: unknown or invalid runtime name: nvidia."),
    (GPUS_FLAG, "toolkit-missing",
     'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].'),
    (MODULE, "module-not-built-for-running-kernel", "modprobe: FATAL: Module nvidia not found."),
    (MODULE, "module-not-built-for-running-kernel",
     "modprobe: FATAL: Module nvidia not found in directory /lib/modules/5.2.13-200.fc30.x86_64"),
    (MODULE, "module-not-built-for-running-kernel",
     "modprobe: FATAL: Module nvidia_uvm not found in directory /lib/modules/5.2.13-200.fc30.x86_64"),
    (MODULE, "module-not-built-for-running-kernel",
     "modprobe: FATAL: Module nvidia not found in directory /lib/modules/6.8.0-1015-aws"),
    (SMI, "module-not-loaded",
     "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running."),
    (SMI, "module-not-loaded", "NVIDIA-SMI has failed because it couldn\u2018t communicate with the NVIDIA driver."),
]

NEAR_MISSES = [
    # a taint that is not the GPU's (hystax/optscale#568)
    "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/1 nodes "
    "are available: 1 Preemption is not helpful for scheduling.",
    # Alibaba's GPU-sharing resource, not the device plugin's (gpushare-scheduler-extender#59)
    "  Warning  FailedScheduling  6s (x5 over 3m1s)  default-scheduler  0/2 nodes are available: 2 Insufficient "
    "aliyun.com/gpu-mem",
    # kubectl describe pod's own lines about the GPU: a toleration the pod has, its limit
    "                             nvidia.com/gpu:NoSchedule op=Exists",
    "      nvidia.com/gpu:  1",
    # another runtime Docker does not know
    "docker: Error response from daemon: unknown or invalid runtime name: runsc",
    # another module modprobe does not find (ssst0n3/fake-nvidia#3)
    "modprobe: FATAL: Module fake_nvidia_driver not found in directory /lib/modules/5.15.0-142-generic",
    # NVML's own failure, another signature's
    "Failed to initialize NVML: Driver/library version mismatch",
]

#: small logs as a person pastes them: kubectl describe pod, a docker run transcript, the host's shell
LOGS = {
    # vllm-project/aibrix#909: the kvcache pod that requests no GPU, on GKE's tainted GPU node
    "taint": ([
        "Name:             deepseek-coder-7b-kvcache-7c984cdff8-xq5pk",
        "Namespace:        default",
        "Status:           Pending",
        "Containers:",
        "  kvcache:",
        "    Requests:",
        "      cpu:     2",
        "      memory:  4Gi",
        "Conditions:",
        "  Type           Status",
        "  PodScheduled   False",
        "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
        "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
        "Events:",
        "  Type     Reason            Age                   From               Message",
        "  ----     ------            ----                  ----               -------",
        "  Warning  " + CASES[0][2],
    ], TAINT, "toleration-missing"),
    # NVIDIA/k8s-device-plugin#430: the GPU pod that no node has a free GPU for
    "insufficient": ([
        "root@ttogpu:~# kubectl describe pod triton-inference-server-5b6c7f889c-f54c6",
        "Name:             triton-inference-server-5b6c7f889c-f54c6",
        "Namespace:        default",
        "Node:             <none>",
        "Status:           Pending",
        "Containers:",
        "  triton-server:",
        "    Limits:",
        "      nvidia.com/gpu:  1",
        "    Requests:",
        "      nvidia.com/gpu:  1",
        "Conditions:",
        "  Type           Status",
        "  PodScheduled   False",
        "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
        "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
        "Events:",
        "  Type     Reason            Age   From               Message",
        "  ----     ------            ----  ----               -------",
        "  Warning  FailedScheduling  52s   default-scheduler  " + CASES[4][2],
    ], INSUFFICIENT, "gpus-not-advertised"),
    # NVIDIA-NeMo/labs-molt#88 and Leon-Sander/Local-Multimodal-AI-Chat#31: docker run, then docker info
    "runtime": ([
        "+ docker run --runtime=nvidia --gpus all -it --rm --shm-size=10g --cap-add=SYS_ADMIN -e HF_TOKEN "
        "hijkzzz/molt:latest bash -lc 'cd /molt && exec bash'",
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia",
        "$ docker info | grep -i runtime",
        " Runtimes: io.containerd.runc.v2 runc",
        " Default Runtime: runc",
    ], RUNTIME, "runtime-not-registered"),
    # NVIDIA/nvidia-docker#365: nvidia-smi after a kernel upgrade, then the user's own checks
    "module": ([
        "$ nvidia-smi",
        CASES[9][2],
        CASES[13][2],
        "",
        "$ sudo modprobe nvidia",
        CASES[9][2],
        "$ sudo nvidia-modprobe -u -c=0",
        "modprobe: FATAL: Module nvidia-uvm not found.",
        "$ uname -a",
        "Linux <hostname> 3.13.0-116-generic #163-Ubuntu SMP Fri Mar 31 14:13:22 UTC 2017 x86_64 x86_64 x86_64 GNU/Linux",
        '$ find /lib/modules/ -name "*nvidia*"',
        "/lib/modules/3.13.0-88-generic/kernel/drivers/video/nvidia.ko",
        "/lib/modules/3.13.0-88-generic/kernel/drivers/video/nvidia-uvm.ko",
    ], MODULE, "module-not-built-for-running-kernel"),
}

OURS = {sig_id for sig_id, _, _ in CASES}


def signature_of(finding) -> str:
    """The signature an evidence.error-lines finding names: the anchor of its troubleshooting page link."""
    return next(link for link in finding.links if "/troubleshooting/" in link).rsplit("#", 1)[1]


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert_line_is(tmp_path, line, sig_id, cause)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_miss_lines_match_none_of_these_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, OURS)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_log_names_its_signature_with_the_expected_lead_cause(tmp_path, name):
    lines, sig_id, cause = LOGS[name]
    findings = assert_log_leads(tmp_path, lines, sig_id, cause)
    assert findings[0].severity is Severity.error
    assert signature_of(findings[0]) == sig_id


def test_scheduler_reasons_link_the_kubernetes_page_and_name_the_pod_spec_fix(tmp_path):
    # a log alone does not say where the job runs, so the report gives the Kubernetes remedies these records have
    [taint] = [f for f in cli_report(tmp_path, LOGS["taint"][0])["findings"] if f["rule"] == "evidence.error-lines"]
    assert "https://kb.example.org/troubleshooting/kubernetes/#kubernetes-gpu-taint-not-tolerated" in taint["links"]
    assert "key: nvidia.com/gpu, operator: Exists, effect: NoSchedule" in taint["remedy"]
    [insufficient] = [f for f in cli_report(tmp_path, LOGS["insufficient"][0])["findings"]
                      if f["rule"] == "evidence.error-lines"]
    assert "Allocatable" in insufficient["remedy"] and "nvidia-device-plugin" in insufficient["remedy"]


def test_a_line_with_both_scheduler_reasons_names_both(tmp_path):
    # the scheduler lists every reason of a pod's FailedScheduling in one message
    line = ("  Warning  FailedScheduling  3s  default-scheduler  0/3 nodes are available: 1 node(s) had untolerated "
            "taint {nvidia.com/gpu: present}, 2 Insufficient nvidia.com/gpu.")
    assert {h.signature for h in evidence_for_log(tmp_path, [line]).hits} == {TAINT, INSUFFICIENT}


def test_docker_runtime_remedy_configures_the_runtime_and_restarts_the_daemon(tmp_path):
    [finding] = findings_for_log(tmp_path, LOGS["runtime"][0])
    assert "sudo nvidia-ctk runtime configure --runtime=docker" in finding.remedy.en
    assert "sudo systemctl restart docker" in finding.remedy.en


def test_modprobe_line_leads_and_nvidia_smi_summary_follows(tmp_path):
    lines = LOGS["module"][0]
    findings = [f for f in findings_for_log(tmp_path, lines) if f.severity is not Severity.ok]
    assert [signature_of(f) for f in findings] == [MODULE, SMI]
    module, smi = findings
    assert "modprobe: FATAL: Module nvidia not found." in module.message.en and "(3 such lines)" in module.message.en
    assert "dkms autoinstall" in module.remedy.en and "linux-modules-nvidia-BRANCH-server-$(uname -r)" in module.remedy.en
    assert "sums up a failure" in smi.message.en


def test_nvidia_smi_line_first_still_lists_the_modprobe_line_first(tmp_path):
    # the user ran nvidia-smi, then loaded the module by hand: the summary line comes first in the log
    lines = [CASES[13][2], "$ sudo modprobe nvidia", CASES[10][2]]
    report = cli_report(tmp_path, lines)
    assert [m["signature"] for m in report["evidence"]["matches"]] == [SMI, MODULE]
    findings = [f for f in findings_for_log(tmp_path, lines) if f.severity is not Severity.ok]
    assert [signature_of(f) for f in findings] == [MODULE, SMI]
    assert "sums up a failure" in findings[1].message.en


def test_nvidia_smi_alone_names_the_module_first_and_the_gpu_less_container_next(tmp_path):
    [finding] = findings_for_log(tmp_path, [CASES[13][2]])
    assert finding.severity is Severity.error
    assert "sums up a failure" not in finding.message.en  # no other error line to point to
    assert "lsmod | grep nvidia" in finding.remedy.en
    assert "started without GPUs" in finding.message.en
