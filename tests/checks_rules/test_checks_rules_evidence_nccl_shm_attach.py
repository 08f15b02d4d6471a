"""evidence.error-lines on NCCL's 'Error while attaching to shared memory segment': the "(size 0)" form is the cuMem host
mismatch of NCCL 2.26.3 and later (NVIDIA/nccl#2190, PR #2059), the sized form a segment the peer cannot see."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import findings_for_log

PREFIX = "node-1:13740:13740 [7] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory segment "


def _finding(tmp_path, line: str):
    (finding,) = findings_for_log(tmp_path, [line])
    assert_bilingual([finding])
    return finding


def test_size_zero_form_names_the_cumem_host_mismatch_and_its_switch(tmp_path):
    finding = _finding(tmp_path, PREFIX + "/dev/shm/nccl- (size 0), error: No such file or directory (2)")
    assert finding.severity is Severity.error
    assert "cuMem" in finding.message.en
    assert finding.remedy.en.startswith("In the container: Set NCCL_CUMEM_HOST_ENABLE=0 for every rank")
    assert "NCCL_CUMEM_HOST_ENABLE=0" in finding.remedy.zh


def test_sized_form_keeps_the_attach_failure_without_the_cumem_switch(tmp_path):
    finding = _finding(tmp_path, PREFIX + "/dev/shm/nccl-glnlGK (size 14156128), error: No such file or directory (2)")
    assert "open a peer's shared-memory segment" in finding.message.en
    assert "NCCL_CUMEM_HOST_ENABLE" not in finding.remedy.en
