"""The text report's "Logs read" line counts the lines a signature knows and, beside them, the lines only an error
catalog names, so a log whose one error is a catalog entry never reads "0 known error lines" alone."""

from __future__ import annotations

from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.report.render_text import evidence_line


def _line(tmp_path, text: str):
    log = tmp_path / "job.log"
    log.write_text(text, encoding="utf-8")
    return evidence_line(gather_evidence(load_data(None), Facts(), [str(log)]))


def test_a_line_only_a_catalog_names_is_counted_beside_the_known_lines(tmp_path):
    line = _line(tmp_path, "RuntimeError: CUDA error: uncorrectable ECC error encountered\n")
    assert ": 0 known error lines and 1 more an error catalog names." in line.en
    assert "0 种已知错误行，另有 1 种由错误目录识别。" in line.zh


def test_a_line_a_signature_holds_is_counted_once(tmp_path):
    line = _line(tmp_path, "node-1:1:1 [7] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory "
                           "segment /dev/shm/nccl- (size 0), error: No such file or directory (2)\n")
    assert ": 1 known error line." in line.en and "error catalog" not in line.en
