"""evidence.error-lines on nvcc's host compiler check (crt/host_config.h: 'unsupported GNU version!', the clang form) and
on the ldconfig step of the NVIDIA container hook ('ldcache error: ...': killed by signal 9, the configured ldconfig
missing on the host, ldconfig failing in its sandbox).  Each line is one of a public report the records cite; the
report names the signature and its lead cause, and a line of the same family with other causes matches none of them."""

from __future__ import annotations

import pytest

from signature_cases_kit import assert_line_is, assert_log_leads, assert_matches_none, cli_report, lead_cause, signature

HOST_COMPILER = "cuda-nvcc-unsupported-host-compiler"
LDCONFIG = {"nvidia-container-ldconfig-killed", "nvidia-container-ldconfig-not-found", "nvidia-container-ldconfig-failed"}

# (signature, real line, lead cause)
CASES = {
    "gcc-12-pytorch-build": (
        HOST_COMPILER,
        "/usr/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later than 12 are "
        "not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; however, "
        "using an unsupported host compiler may cause compilation failure or incorrect run time execution. Use at your "
        "own risk.",
        "host-compiler-newer-than-toolkit"),
    "gcc-11-cuda-11.8": (
        HOST_COMPILER,
        "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
        "version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used "
        "to override this version check; however, using an unsupported host compiler may cause compilation failure or "
        "incorrect run time execution. Use at your own risk.",
        "host-compiler-newer-than-toolkit"),
    "gcc-6-older-form": (
        HOST_COMPILER,
        "/usr/local/cuda-9.0/include/crt/host_config.h:119:2: error: #error -- unsupported GNU version! gcc versions "
        "later than 6 are not supported!",
        "host-compiler-newer-than-toolkit"),
    "clang-form": (
        HOST_COMPILER,
        "/usr/local/cuda/bin/../targets/x86_64-linux/include/crt/host_config.h:147:2: error: -- unsupported clang "
        "version! clang version must be less than 10 and greater than 3.2 . The nvcc flag '-allow-unsupported-compiler' "
        "can be used to override this version check; however, using an unsupported host compiler may cause compilation "
        "failure or incorrect run time execution. Use at your own risk.",
        "host-compiler-newer-than-toolkit"),
    "ldconfig-signal-9-k3s": (
        "nvidia-container-ldconfig-killed",
        "Error: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create "
        "failed: unable to start container process: error during container init: error running prestart hook #0: exit "
        "status 1, stdout: , stderr: Auto-detected mode as 'legacy' nvidia-container-cli: ldcache error: process "
        "/sbin/ldconfig terminated with signal 9",
        "memory-limit-too-low"),
    "ldconfig-real-missing": (
        "nvidia-container-ldconfig-not-found",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container "
        "process caused: process_linux.go:545: container init caused: Running hook #1:: error running hook: exit status "
        "1, stdout: , stderr: nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or "
        "directory: unknown.",
        "config-names-another-distro-path"),
    "ldconfig-missing-on-jetson": (
        "nvidia-container-ldconfig-not-found",
        "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
        "runtime create failed: runc create failed: unable to start container process: error during container init: "
        "error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: ldcache "
        "error: open failed: /sbin/ldconfig: no such file or directory: unknown.",
        "config-names-another-distro-path"),
    "ldconfig-real-error-code-1": (
        "nvidia-container-ldconfig-failed",
        "docker: Error response from daemon: OCI runtime create failed: container_linux.go:380: starting container "
        "process caused: process_linux.go:545: container init caused: Running hook #0:: error running hook: exit status "
        "1, stdout: , stderr: nvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with error code: "
        "1: unknown.",
        "sandbox-refused"),
    "ldconfig-podman-keep-id": (
        "nvidia-container-ldconfig-failed",
        "Error: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: "
        "Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: ldcache error: "
        "process /sbin/ldconfig failed with error code: 1: OCI runtime error",
        "sandbox-refused"),
    "ldconfig-enroot": (
        "nvidia-container-ldconfig-failed",
        "[ERROR] nvidia-container-cli: ldcache error: process /usr/sbin/ldconfig failed with error code: 1",
        "sandbox-refused"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_line_names_its_signature_and_lead_cause(tmp_path, case):
    sig_id, line, cause = CASES[case]
    assert_line_is(tmp_path, line, sig_id, cause)


def test_the_host_compiler_line_leads_a_torch_extension_build_log(tmp_path):
    """The host_config.h error (pytorch/pytorch#136556) above torch's summary of a failed extension build
    (Dao-AILab/flash-attention#279): the summary (torch-extension-build-failed, summary: true) is listed after the
    line that names the compiler."""
    report = cli_report(tmp_path, [
        CASES["gcc-12-pytorch-build"][1],
        "      RuntimeError: Error compiling objects for extension",
    ])
    signatures = [m["signature"] for m in report["evidence"]["matches"]]
    assert signatures[0] == HOST_COMPILER
    assert "torch-extension-build-failed" in signatures
    assert lead_cause(report, HOST_COMPILER) == "host-compiler-newer-than-toolkit"


def test_the_lead_remedy_uses_the_number_the_line_names_and_names_the_override_last(tmp_path):
    findings = assert_log_leads(tmp_path, [CASES["gcc-11-cuda-11.8"][1]], HOST_COMPILER,
                                "host-compiler-newer-than-toolkit")
    remedy = findings[0].remedy.en
    # the line says "later than 11": the remedy quotes 11, not an example number
    assert "Compare g++ --version with GCC 11 (the newest major this nvcc accepts)" in remedy
    assert "NVCC_PREPEND_FLAGS='-ccbin /usr/bin/g++-11'" in remedy and "CC=gcc-11 CXX=g++-11" in remedy
    assert remedy.index("-ccbin") < remedy.index("-allow-unsupported-compiler")


def test_a_host_without_ldconfig_is_named_after_the_path_mismatch(tmp_path):
    """OE4T/meta-tegra#1427: the Jetson image had no ldconfig at all; the line reads the same as a path of another
    distribution, so the report leads with that (its remedy starts by looking for the file) and names this next."""
    findings = assert_log_leads(tmp_path, [CASES["ldconfig-missing-on-jetson"][1]], "nvidia-container-ldconfig-not-found",
                                "config-names-another-distro-path")
    assert "The host has no ldconfig at all" in findings[0].message.en
    assert "ls -l /sbin/ldconfig /sbin/ldconfig.real /usr/sbin/ldconfig" in findings[0].remedy.en


def test_a_killed_ldconfig_leads_with_the_container_memory_limit(tmp_path):
    """The line alone does not say where the container runs (this test runs as a live check, read as Docker): the
    lead remedy is the limit of that place; the pod spec field is the Kubernetes and ACS remedy."""
    findings = assert_log_leads(tmp_path, [CASES["ldconfig-signal-9-k3s"][1]], "nvidia-container-ldconfig-killed",
                                "memory-limit-too-low")
    assert "docker run --memory" in findings[0].remedy.en
    remedies = signature("nvidia-container-ldconfig-killed")["causes"][0]["remedies"]
    assert all("resources.limits.memory" in remedies[place]["en"] for place in ("kubernetes", "acs"))


@pytest.mark.parametrize("line", [
    # nvidia-docker#1456: signal 31 (SIGSYS, the seccomp filter), not a kill from outside; the catalog names it
    "docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process "
    "caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , "
    "stderr: nvidia-container-cli: ldcache error: process /sbin/ldconfig.real terminated with signal 31: unknown.",
    # nvidia-docker#746: signal 11, a crash of ldconfig itself
    "nvidia-container-cli: ldcache error: process /sbin/ldconfig.real terminated with signal 11",
])
def test_other_signals_match_none_of_the_ldconfig_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, LDCONFIG)


def test_the_visual_studio_form_is_not_the_linux_host_compiler_signature(tmp_path):
    """TencentARC/BrushEdit#17: MSVC on Windows, whose remedies (a Visual Studio toolset) this record does not give."""
    assert_matches_none(tmp_path, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/host_config.h"
                        "(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the "
                        "versions between 2017 and 2022 (inclusive) are supported! The nvcc flag "
                        "'-allow-unsupported-compiler' can be used to override this version check; however, using an "
                        "unsupported host compiler may cause compilation failure or incorrect run time execution. Use at "
                        "your own risk.", {HOST_COMPILER})
