"""evidence.error-lines on container-runtime failures: CDI device injection (podman, Docker, containerd), enroot and
pyxis under Slurm, and the GPU Operator's driver container.  Each case is the line of a public report (the
record's examples name the thread); the finding names the record's first cause with the command that fixes it,
and a similar harmless line matches nothing."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

# (signature, [real lines], words of the first cause's title, a command its remedy gives)
CASES = {
    "podman-unresolvable": (
        "container-cdi-unresolvable-device",
        ["Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"],
        "no cdi spec for the nvidia devices", "nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
    "docker-unresolvable": (
        "container-cdi-unresolvable-device",
        ["docker: Error response from daemon: CDI device injection failed: unresolvable CDI devices nvidia.com/gpu=all."],
        "no cdi spec for the nvidia devices", "nvidia-ctk cdi list"),
    "containerd-unresolvable": (
        "container-cdi-unresolvable-device",
        ["Warning  Failed     10s (x2 over 10s)  kubelet            Error: failed to create containerd task: failed to "
         "create shim task: OCI runtime create failed: could not apply required modification to OCI specification: "
         "error modifying OCI spec: failed to inject CDI devices: unresolvable CDI devices "
         "management.nvidia.com/gpu=GPU-e78e68c0-4e6a-737e-f9cc-4223fe50aead"],
        "no cdi spec for the nvidia devices", "nvidia-ctk cdi generate"),
    "docker-cdi-driver": (
        "container-cdi-docker-driver-not-registered",
        ["docker: Error response from daemon: could not select device driver \"cdi\" with capabilities: []"],
        "cdi support is off", "nvidia-ctk runtime configure --runtime=docker --cdi.enabled"),
    "docker-cdi-driver-escaped": (
        "container-cdi-docker-driver-not-registered",
        ["could not select device driver \\\"cdi\\\" with capabilities: [[]]"],
        "cdi support is off", "sudo systemctl restart docker"),
    "cdi-host-device": (
        "container-cdi-host-device-missing",
        ["Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device "
         "\"/dev/dri/renderD129\": no such file or directory"],
        "the spec is stale", "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml"),
    "enroot-userns": (
        "container-enroot-user-namespace",
        ["slurmstepd: error: pyxis: container start failed with error code: 1",
         "slurmstepd: error: pyxis: printing contents of log file ...",
         "slurmstepd: error: pyxis:     enroot-nsenter: failed to create user namespace: Invalid argument",
         "slurmstepd: error: pyxis: couldn't start container"],
        "unprivileged user namespaces are disabled", "user.max_user_namespaces"),
    "enroot-userns-plain": (
        "container-enroot-user-namespace",
        ["enroot-nsenter: failed to create user namespace: Permission denied"],
        "unprivileged user namespaces are disabled", "kernel.apparmor_restrict_unprivileged_userns=0"),
    "enroot-host-as-path": (
        "container-enroot-registry-host-as-path",
        ["0: slurmstepd: error: pyxis:     [INFO] Authenticating with user: <anonymous>",
         "0: slurmstepd: error: pyxis:     [ERROR] URL https://registry-1.docker.io/v2/nvcr.io/nvidia/pytorch/manifests/"
         "20.12-py3 returned error code: 401 Unauthorized"],
        "names its registry docker-style", "--container-image=nvcr.io#nvidia/pytorch"),
    "enroot-unauthorized": (
        "container-enroot-registry-unauthorized",
        ["[INFO] Authenticating with user: $oauthtoken",
         "[ERROR] URL https://nvcr.io/proxy_auth returned error code: 401 Unauthorized"],
        "no machine line for the registry", "machine authn.nvidia.com login $oauthtoken"),
    "enroot-runtime-dir": (
        "container-enroot-runtime-dir-denied",
        ["slurmstepd: error: pyxis:     mkdir: cannot create directory '/run/enroot': Permission denied"],
        "enroot_runtime_path points under a directory", "ENROOT_RUNTIME_PATH /tmp/enroot/user-$(id -u)"),
    "enroot-run-user": (
        "container-enroot-runtime-dir-denied",
        ["slurmstepd: error: pyxis:     mkdir: cannot create directory \u2018/run/user/1000\u2019: Permission denied"],
        "enroot_runtime_path points under a directory", "chmod 1777 /tmp/enroot"),
    "operator-kernel-version": (
        "gpu-operator-driver-kernel-version-unresolved",
        ["Resolving Linux kernel version...",
         "Unable to open the file '/lib/modules/3.10.0-862.el7.x86_64/proc/version' (No such file or directory)."
         "Could not resolve Linux kernel version"],
        "carry no headers for this kernel", "driver.usePrecompiled=true"),
    "operator-nvidia-ko": (
        "gpu-operator-driver-nvidia-ko-load-failed",
        ["ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module "
         "was built against the wrong or improperly configured kernel sources, with a version of gcc that differs from "
         "the one used to build the target kernel, or if another driver, such as nouveau, is present and prevents the "
         "NVIDIA kernel module from obtaining ownership of the NVIDIA GPU(s), or no NVIDIA GPU installed in this "
         "system is supported by this NVIDIA Linux graphics driver release."],
        "secure boot is on", "mokutil --sb-state"),
}


#: the words that open the lines of a case which only give context (enroot's INFO lines, pyxis' own report)
_CONTEXT = ("[INFO]", "Resolving Linux", "slurmstepd: error: pyxis: container start", "slurmstepd: error: pyxis: printing",
            "slurmstepd: error: pyxis: couldn't")


def _error_line(lines: "list[str]") -> int:
    """The number (from 1) of the one line of ``lines`` that is the failure, not its context."""
    (number,) = [n for n, line in enumerate(lines, 1) if not any(word in line for word in _CONTEXT)]
    return number


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_real_line_names_the_first_cause_with_its_command(tmp_path, case):
    signature, lines, cause, command = CASES[case]
    errors = [f for f in findings_for_log(tmp_path, lines) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert cause in finding.message.en.lower(), finding.message.en
    assert finding.remedy is not None and command in finding.remedy.en, finding.remedy
    hits = evidence_for_log(tmp_path, lines).hits
    assert [(h.signature, h.first.number) for h in hits] == [(signature, _error_line(lines))]


# a line close to each record's that reports no failure (or another one) and must match nothing
HARMLESS = {
    "container-cdi-unresolvable-device": "INFO[0000] Found 3 CDI devices nvidia.com/gpu=0 nvidia.com/gpu=all resolved",
    "container-cdi-docker-driver-not-registered":
        "time=\"2025-05-15T10:00:00Z\" level=info msg=\"registered device driver \\\"cdi\\\" with capabilities: [[gpu]]\"",
    "container-cdi-host-device-missing": "WARN[0000] Could not locate /dev/dri/controlD64: pattern /dev/dri/controlD64 not found",
    "container-enroot-user-namespace": "enroot-nsenter: created user namespace for uid 1000",
    "container-enroot-registry-host-as-path":
        "[INFO] URL https://registry-1.docker.io/v2/library/ubuntu/manifests/latest returned error code: 200 OK",
    "container-enroot-registry-unauthorized":
        "[ERROR] URL https://nvcr.io/v2/nvidia/pytorch/manifests/24.05-py3 returned error code: 404 Not Found",
    "container-enroot-runtime-dir-denied": "mkdir: cannot create directory '/home/user/data': Permission denied",
    "gpu-operator-driver-kernel-version-unresolved": "Proceeding with Linux kernel version 5.15.0-106-generic",
    "gpu-operator-driver-nvidia-ko-load-failed": "Kernel module compilation complete.",
}


@pytest.mark.parametrize("signature", sorted(HARMLESS))
def test_a_similar_harmless_line_matches_nothing(tmp_path, signature):
    assert [h.signature for h in evidence_for_log(tmp_path, [HARMLESS[signature]]).hits] == []


def test_a_dockerhub_private_image_401_is_not_read_as_a_registry_written_with_a_slash(tmp_path):
    line = "[ERROR] URL https://registry-1.docker.io/v2/myteam/private-image/manifests/v1 returned error code: 401 Unauthorized"
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == ["container-enroot-registry-unauthorized"]


def test_a_slurm_job_without_pyxis_is_not_read_as_enroot_run_user(tmp_path):
    line = "mkdir: cannot create directory '/run/user/1000': Permission denied"
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == []


def test_the_docker_gpu_driver_line_stays_with_its_own_record(tmp_path):
    line = "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]."
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == ["docker-no-gpu-device-driver"]


@pytest.mark.parametrize("case,command", [("operator-kernel-version", "helm upgrade gpu-operator nvidia/gpu-operator"),
                                          ("containerd-unresolvable", "kubectl logs -n gpu-operator")])
def test_in_a_pod_the_remedy_is_the_kubernetes_one(tmp_path, case, command):
    from lingjun.checks.facts import Facts

    facts = Facts()
    facts.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
    _, lines, _, _ = CASES[case]
    (finding,) = [f for f in findings_for_log(tmp_path, lines, facts) if f.severity is Severity.error]
    assert finding.remedy is not None and command in finding.remedy.en and "Kubernetes:" in finding.remedy.en
