"""The text report's "Logs read" line counts the kinds of error line: those a signature explains, those only an
error catalog names and those nothing knows, so a log whose one error is a catalog entry or unknown never reads as
holding no error line."""

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
    assert ": 1 kind of error line (1 named by an error catalog)." in line.en
    assert "1 种错误行（1 种由错误目录识别）。" in line.zh


def test_a_line_a_signature_holds_is_counted_once(tmp_path):
    line = _line(tmp_path, "node-1:1:1 [7] misc/shmutils.cc:132 NCCL WARN Error while attaching to shared memory "
                           "segment /dev/shm/nccl- (size 0), error: No such file or directory (2)\n")
    assert ": 1 kind of error line (1 with a known cause)." in line.en and "error catalog" not in line.en


def test_an_unknown_line_is_counted_as_unknown(tmp_path):
    line = _line(tmp_path, "Traceback (most recent call last):\nValueError: a failure nobody recorded\n")
    assert ": 1 kind of error line (1 unknown)." in line.en and "1 种错误行（1 种未知）" in line.zh


def test_a_log_without_error_lines_says_none(tmp_path):
    line = _line(tmp_path, "epoch 1 loss 2.3\n")
    assert ": 0 kinds of error line." in line.en and "0 种错误行。" in line.zh
