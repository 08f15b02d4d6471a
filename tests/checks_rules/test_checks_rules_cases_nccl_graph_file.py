"""evidence.error-lines on NCCL's 'XML Import Channel : dev N not found' (nccl-graph-file-mismatch): with the log's own
'NCCL_GRAPH_FILE set by environment' line (NVIDIA/nccl#1240, the Azure HPC image's graph on a 1-GPU VM), the cause is
confirmed by that line and the remedy unsets the variable; without it, the cause is named as not confirmed."""

from __future__ import annotations

from pathlib import Path

from checks_rules_kit import ROOT, assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

LOG = ROOT / "tests" / "fixtures" / "cases" / "nccl-graph-file" / "nccl-1240.log"
WARN = "Spotllm:73025:73112 [0] graph/search.cc:719 NCCL WARN XML Import Channel : dev 1 not found."


def test_the_reports_log_names_the_graph_file_from_its_own_line_and_unsets_it(tmp_path):
    lines = LOG.read_text(encoding="utf-8").splitlines()
    assert [h.signature for h in evidence_for_log(tmp_path, lines).hits] == ["nccl-graph-file-mismatch"]
    errors = [f for f in findings_for_log(tmp_path, lines, log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "NCCL_GRAPH_FILE points at a graph made for other hardware (NCCL_GRAPH_FILE is set, shown by the log" in finding.message.en
    assert "job.log:12" in finding.message.en and "not confirmed" not in finding.message.en
    assert finding.remedy is not None and "unset NCCL_GRAPH_FILE" in finding.remedy.en
    assert "/etc/nccl.conf" in finding.remedy.en


def test_the_warning_alone_names_the_cause_as_not_confirmed(tmp_path):
    (finding,) = [f for f in findings_for_log(tmp_path, [WARN], log_only_facts()) if f.severity is Severity.error]
    assert "the input does not show whether NCCL_GRAPH_FILE is set" in finding.message.en
