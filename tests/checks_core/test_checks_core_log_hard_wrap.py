"""The log reader on a paste hard-wrapped at a fixed width: a line that holds a literal, names nothing, and is as long
as a neighbour is read joined with the next line, which then belongs to it (counted once, under the number of its first piece).

tests/fixtures/logs/nvidia-docker-825-hard-wrapped.log is the Docker error of NVIDIA/nvidia-docker#825 as posted
(https://github.com/NVIDIA/nvidia-docker/issues/825): wrapped at 212 columns, "nvidia-container-cli: m" / "ount error".
"""

from __future__ import annotations

from pathlib import Path

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge.signatures import SignatureSet

ROOT = Path(__file__).resolve().parents[2]
POSTED = ROOT / "tests" / "fixtures" / "logs" / "nvidia-docker-825-hard-wrapped.log"
SIGNATURES = [{"id": "shm", "printed_by": "nccl", "patterns": [{"literal": "posix_fallocate failed", "regex": "No space left"}]}]


def _scan(data: bytes, signatures=SIGNATURES, messages=()) -> Evidence:
    evidence = Evidence()
    scanner = SignatureSet(signatures, messages).scanner(evidence, "job.log")
    scanner.feed_block(data)
    return evidence


def test_the_wrapped_container_cli_error_of_nvidia_docker_825_names_its_catalog_entry():
    kd = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json")
    evidence = _scan(POSTED.read_bytes(), kd.signatures, kd.catalog_message_literals)
    cli = [h for h in evidence.catalog_hits if h.matches[0].catalog == "container-cli"]
    assert [(h.first.number, h.matches[0].context.stage if h.matches[0].context else None) for h in cli] == [(2, "mount error")]  # the wrapped line starts on line 2
    assert "file creation failed" in cli[0].matches[0].text


def _wrapped(text: str, width: int) -> bytes:
    return ("\n".join(text[i:i + width] for i in range(0, len(text), width)) + "\n").encode()


def test_a_pattern_cut_by_the_wrap_is_found_once_under_the_line_that_starts_it():
    head = "x" * 40 + " NCCL WARN Call to posix_fallocate failed : No sp"
    text = head + "ace left on device " + "y" * 120
    data = _wrapped(text, len(head))  # the cut falls inside "No space left"
    assert b"No space left" not in data.split(b"\n")[0] and b"posix_fallocate failed" in data.split(b"\n")[0]
    evidence = _scan(data)
    assert [(h.signature, h.first.number, h.count) for h in evidence.hits] == [("shm", 1, 1)]


def test_lines_of_different_lengths_are_not_joined():
    data = (("x" * 70 + " NCCL WARN Call to posix_fallocate failed : N") + "\n" + "o space left on device\n").encode()
    assert _scan(data).hits == []


def test_short_lines_are_not_joined_even_when_equally_long():
    data = b"posix_fallocate failed : N\no space left on dev\n"
    assert _scan(data).hits == []


def test_a_complete_error_on_the_next_line_is_counted_once_when_the_join_names_nothing_new():
    first = "a" * 80 + " posix_fallocate failed"  # holds the literal, names nothing, as long as the next line
    second = "NCCL WARN posix_fallocate failed : No space left on device".ljust(len(first), ".")
    evidence = _scan((first + "\n" + second + "\n").encode())
    assert [(h.signature, h.count) for h in evidence.hits] == [("shm", 1)]
