"""evidence.error-lines on NVML's 'GPU access blocked by the operating system' (nvml-gpu-access-blocked, NVML error
17): the lines of NVIDIA/nvidia-container-toolkit#85, fixed by no-cgroups = false, name that setting first with the
nvidia-ctk command that changes it, and the WSL libraries second; NVML's other errors are not this record."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

# https://github.com/NVIDIA/nvidia-container-toolkit/issues/85 (as the comment quotes them)
LINES = ["sudo docker run --rm --runtime=nvidia --gpus all ubuntu nvidia-smi", "",
         "Failed to initialize NVML: GPU access blocked by the operating system",
         "Failed to properly shut down NVML: GPU access blocked by the operating system"]


def test_the_reports_lines_name_no_cgroups_first_with_the_command_that_clears_it(tmp_path):
    hits = evidence_for_log(tmp_path, LINES).hits
    assert [(h.signature, h.first.number, h.count) for h in hits] == [("nvml-gpu-access-blocked", 3, 2)]
    errors = [f for f in findings_for_log(tmp_path, LINES, log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "Most likely cause here: The NVIDIA container runtime is set to no-cgroups = true" in finding.message.en
    assert "Under WSL2, the Windows driver's libraries" in finding.message.en
    assert finding.remedy is not None
    assert "sudo nvidia-ctk config --set nvidia-container-cli.no-cgroups=false --in-place" in finding.remedy.en


def test_nvmls_unknown_error_is_another_record(tmp_path):
    hits = evidence_for_log(tmp_path, ["Failed to initialize NVML: Unknown Error"]).hits
    assert [h.signature for h in hits] == ["nvml-unknown-error"]
