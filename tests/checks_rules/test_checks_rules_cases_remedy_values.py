"""evidence.error-lines: a remedy names the values the input shows (``{{driver.target|...}}``): the driver branch that
meets the CUDA nvidia-container-cli says the image requires, the oldest supported long-term branch first; without
such a value it says its fallback words, never a number of its own."""

from __future__ import annotations

import datetime as dt

from signature_cases_kit import findings_for_log

from lingjun.checks.coverage import log_only_facts

#: SyneRBI/PETRIC2#27
REQUIRES_128 = ("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to "
                "a newer version, or use an earlier cuda container: unknown.")
#: NVIDIA/nvidia-docker#1442 (as the Docker CLI prints it)
REQUIRES_110 = ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container "
                "process caused \"process_linux.go:449: container init caused \\\"process_linux.go:432: running prestart "
                "hook 0 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: "
                "requirement error: unsatisfied condition: cuda>=11.0\\\\\\\\n\\\\\\\"\\\"\": unknown.")


def remedy_of(tmp_path, line: str, today: dt.date):
    """The remedy of the nvidia-container-cli line, the log judged alone (as --log-only does) on ``today``."""
    findings = findings_for_log(tmp_path, [line], log_only_facts(), today=today)
    finding = next(f for f in findings if "nvidia-container-cli: requirement error" in f.message.en)
    return finding.remedy


def test_the_required_cuda_names_the_oldest_supported_long_term_branch(tmp_path):
    remedy = remedy_of(tmp_path, REQUIRES_128, dt.date(2026, 12, 1))
    assert "Upgrade the host driver to R580 (580 or later; R620 is the newest)" in remedy.en
    assert "Pin a driver of R580 (580 or later; R620 is the newest) with the pod label" in remedy.en
    assert "R580（580 或更高；最新的是 R620）" in remedy.zh
    assert "{{" not in remedy.en + remedy.zh


def test_a_docker_log_gets_the_docker_remedy_alone_with_the_branch_for_its_cuda(tmp_path):
    remedy = remedy_of(tmp_path, REQUIRES_110, dt.date(2026, 12, 1))
    assert remedy.en.startswith("Docker: Upgrade the host driver to R580 (580 or later; R620 is the newest)")
    assert "Kubernetes:" not in remedy.en and "ACS GPU pod:" not in remedy.en


#: ninja-build/ninja#2595 (CUDA's host_config.h refusing GCC 12)
GCC_11 = ("/usr/include/crt/host_config.h:139:2: error: #error -- unsupported GNU version! gcc versions later than 11 "
          "are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; "
          "however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. "
          "Use at your own risk.")
#: NVIDIA/cccl#7 (the clang form states no GCC number)
CLANG = ("/usr/local/cuda/include/crt/host_config.h:151:2: error: -- unsupported clang version! clang version must be "
         "less than 16 and greater than 3.2 . The nvcc flag '-allow-unsupported-compiler' can be used to override this "
         "version check; however, using an unsupported host compiler may cause compilation failure or incorrect run "
         "time execution. Use at your own risk.")


def test_the_host_compiler_remedy_installs_the_gcc_major_the_line_names(tmp_path):
    finding = next(f for f in findings_for_log(tmp_path, [GCC_11], log_only_facts()) if "host_config.h" in f.message.en)
    assert "apt-get install -y gcc-11 g++-11" in finding.remedy.en
    assert "NVCC_PREPEND_FLAGS='-ccbin /usr/bin/g++-11'" in finding.remedy.en
    assert "apt-get install -y gcc-11 g++-11" in finding.remedy.zh


def test_a_line_without_the_number_says_the_fallback(tmp_path):
    found = [f for f in findings_for_log(tmp_path, [CLANG], log_only_facts()) if "host_config.h" in f.message.en]
    assert found and "apt-get install -y gcc-N g++-N" in found[0].remedy.en
    assert "{{" not in found[0].remedy.en + found[0].remedy.zh
