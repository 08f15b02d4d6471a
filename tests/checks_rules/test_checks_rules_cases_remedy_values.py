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
