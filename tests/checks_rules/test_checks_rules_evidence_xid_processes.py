"""evidence.error-lines on Xid 13/31/43: the processes the kernel's lines name are evidence (kernel.xid_processes):
one process points at the program, three or more over time at the GPU (pytorch/pytorch#51382)."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from signature_cases_kit import evidence_for_log, findings_for_log


def _finding(tmp_path, pids):
    lines = [f"[Wed Jan 27 23:04:35 2021] NVRM: Xid (PCI:0000:3d:00): 43, pid={pid}, Ch 00000008" for pid in pids]
    assert evidence_for_log(tmp_path, lines).stated["kernel.xid_processes"].value == len(set(pids))
    (finding,) = findings_for_log(tmp_path, lines)
    assert_bilingual([finding])
    return finding


def test_one_process_leaves_the_program_first(tmp_path):
    finding = _finding(tmp_path, ["35521", "35521"])
    assert "Most likely cause here: A bug in the application" in finding.message.en


def test_many_processes_put_the_gpu_first_with_the_count_shown(tmp_path):
    finding = _finding(tmp_path, ["35521", "36178", "1405", "11101"])
    assert "Most likely cause here: The same Xid from different programs on one GPU" in finding.message.en
    assert "is 4, shown by the log" in finding.message.en
