"""evidence.error-lines on NCCL's 'ring does not loop back to start': the NCCL 2.19 cause leads only when the log
shows 2.19; a fact two clauses test is named once, whether shown or not."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from signature_cases_kit import findings_for_log

LINE = "[7] graph/rings.cc:38 NCCL WARN Error : ring 0 does not loop back to start (13 != 15)."


def _finding(tmp_path, *lines: str):
    (finding,) = findings_for_log(tmp_path, list(lines))
    assert_bilingual([finding])
    return finding


def test_without_the_nccl_version_the_ranks_disagreeing_leads(tmp_path):
    finding = _finding(tmp_path, LINE)
    assert "Most likely cause here: The ranks do not agree on the system" in finding.message.en
    assert "NCCL_HOSTID" in finding.remedy.en


def test_nccl_2_19_shown_by_the_log_leads_with_the_upgrade_named_once(tmp_path):
    finding = _finding(tmp_path, "NCCL version 2.19.3+cuda12.3", LINE)
    assert "Most likely cause here: NCCL 2.19 reads PCI link speeds" in finding.message.en
    assert finding.message.en.count("the NCCL version is 2.19.3") == 1
    assert "2.20 or newer" in finding.remedy.en
