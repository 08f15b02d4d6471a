"""The readers of a line longer than the 8 KiB window read around each occurrence of their literal, not only the first
(issue 36 red team, F3): a path or an echoed command that mentions ``NCCL WARN``, ``CUDA error`` or ``Error: `` early in
the line (a decoy) hides no real message after it. The catalog reader, the exception reader, the log statements and
the signatures' quotes: each case puts the decoy first; the number of windows a line is read in stays bounded."""

from __future__ import annotations

import time

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge import catalog_lines
from lingjun.checks.knowledge.signatures import FEED_LIMIT, LINE_LIMIT, MAX_WINDOWS, SignatureSet, _window_spans

#: more than one window of plain words between the decoy and the real message
PAD = "pad " * (LINE_LIMIT // 4 + 500)


def _evidence(*lines: str, signatures: "list | None" = None) -> Evidence:
    evidence = Evidence()
    scanner = SignatureSet(signatures or []).scanner(evidence, "job.log")
    scanner.feed_block(("\n".join(lines) + "\n").encode())
    scanner.finish()
    return evidence


def test_an_nccl_warning_after_an_echoed_grep_for_nccl_warn_is_named():
    line = ("+ grep -c 'NCCL WARN' /var/log/nccl/rank0.log " + PAD + "node-1:12:34 [0] transport/net_ib.cc:1150 NCCL WARN "
            "NET/IB : Got completion from peer 10.0.0.2<4567> with status=12 opcode=0 len=0 vendor err 129 (Recv)")
    assert len(line) > LINE_LIMIT and line.index("NCCL WARN", 40) - line.index("NCCL WARN") > LINE_LIMIT
    [hit] = _evidence(line).catalog_hits
    assert [m.catalog for m in hit.matches] == ["nccl"] and "Got completion" in hit.matches[0].text
    assert "transport/net_ib.cc:1150 NCCL WARN NET/IB : Got completion" in hit.first.text  # quoted where it was read
    assert "grep -c" not in hit.first.text


def test_a_cuda_error_after_a_path_holding_cuda_error_is_named():
    line = ("reading /srv/reports/CUDA errors/summary.txt " + PAD +
            "RuntimeError: CUDA error: an illegal memory access was encountered")
    [hit] = _evidence(line).catalog_hits
    assert [m.info.name for m in hit.matches if m.info is not None] == ["cudaErrorIllegalAddress"]
    assert "illegal memory access" in hit.first.text


def test_the_first_window_that_names_an_entry_is_the_one_read():
    """Two real CUDA errors, more than a window apart: the line is read as a short line is, by its first error; an
    unknown message before them (a path read as a ``CUDA error``) is passed over as a short line's is."""
    line = "RuntimeError: CUDA error: out of memory " + PAD + "RuntimeError: CUDA error: an illegal memory access was encountered"
    [hit] = _evidence(line).catalog_hits
    assert [m.info.name for m in hit.matches if m.info is not None] == ["cudaErrorMemoryAllocation"]
    short = "reading /srv/reports/CUDA errors/summary.txt; RuntimeError: CUDA error: out of memory"
    [hit] = _evidence(short).catalog_hits
    assert [m.info.name for m in hit.matches if m.info is not None] == ["cudaErrorMemoryAllocation"]


def test_a_long_line_of_unknown_cuda_messages_is_read_by_its_first():
    line = "RuntimeError: CUDA error: something new " + PAD + "RuntimeError: CUDA error: something newer"
    [hit] = _evidence(line).catalog_hits
    assert [(m.info, m.text.split(" pad")[0]) for m in hit.matches] == [(None, "something new")]


def test_the_last_exception_after_an_early_error_colon_is_the_one_reported():
    line = "echo Error: see the log above " + PAD + "RuntimeError: NCCL communicator was aborted on rank 1."
    evidence = _evidence("Traceback (most recent call last):", '  File "train.py", line 3, in <module>', line)
    [unknown] = evidence.unmatched
    assert "RuntimeError: NCCL communicator was aborted on rank 1." in unknown.text
    assert "echo Error" not in unknown.text


def test_a_statement_after_an_early_mention_of_its_literal_is_read():
    line = "grep 'NCCL version ' build.log " + PAD + "node-1:12:34 [0] NCCL INFO NCCL version 2.21.5+cuda12.4"
    stated = _evidence(line).stated
    assert stated["nccl.version"].value == "2.21.5"
    assert "NCCL INFO NCCL version 2.21.5+cuda12.4" in stated["nccl.version"].line.text


def test_a_signature_matched_in_a_later_window_is_quoted_there():
    signatures = [{"id": "ib-completion", "printed_by": "nccl",
                   "patterns": [{"literal": "Got completion", "regex": r"Got completion from peer [^\n]{0,200}status=12"}]}]
    line = ("worker-3 Got completion queue ready " + PAD +
            "NET/IBP: Got completion from peer 10.0.0.2<4567> with status=12 opcode=0 len=0 vendor err 129")
    [hit] = _evidence(line, signatures=signatures).hits
    assert "with status=12" in hit.first.text and "queue ready" not in hit.first.text


def test_the_windows_of_several_literals_follow_their_occurrences_in_order():
    line = "a CUDA error b " + PAD + " c NCCL WARN d " + PAD + " e CUDA error f"
    spans = _window_spans(line, "NCCL WARN", "CUDA error")
    assert [literal for _, _, _, literal in spans] == ["CUDA error", "NCCL WARN", "CUDA error"]
    assert all(line.startswith(literal, at) and lo <= at and at + len(literal) <= hi for lo, hi, at, literal in spans)


def test_a_line_of_decoys_is_read_in_at_most_max_windows(monkeypatch):
    """A part of a line as long as it is fed (FEED_LIMIT) full of unreadable mentions: the catalogs read it a bounded
    number of times, and quickly."""
    calls = []
    real = catalog_lines.recognise
    monkeypatch.setattr(catalog_lines, "recognise", lambda text, catalogs: calls.append(len(text)) or real(text, catalogs))
    decoy = "+ grep 'NCCL WARN' " + "x " * 100
    line = (decoy * (FEED_LIMIT // len(decoy) + 1))[:FEED_LIMIT]
    started = time.process_time()
    evidence = _evidence(*[line] * 20)
    assert time.process_time() - started < 5.0
    assert 20 <= len(calls) <= 20 * MAX_WINDOWS and max(calls) <= LINE_LIMIT
    assert evidence.catalog_hits == []
