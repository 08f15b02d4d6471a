"""The signature scanner: literal then expression, counts, the facts logs state, masking of what it quotes."""

from __future__ import annotations

import time

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.log_statements import STATEMENTS
from lingjun.checks.knowledge.signatures import QUOTE_LIMIT, SignatureSet, literal_regex

SIGNATURES = [
    {"id": "shm", "printed_by": "nccl", "patterns": [{"literal": "posix_fallocate failed", "regex": "No space left"},
                                                      {"literal": "failed to extend /dev/shm/nccl-", "regex": None}]},
    {"id": "oom", "printed_by": "pytorch", "patterns": [{"literal": "CUDA out of memory", "regex": None}]},
]


def feed(lines: list[str]) -> Evidence:
    evidence = Evidence()
    scanner = SignatureSet(SIGNATURES).scanner(evidence, "job.log")
    scanner.feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


def test_a_pattern_needs_its_literal_and_its_expression():
    evidence = feed(["NCCL WARN Call to posix_fallocate failed : Invalid argument"])
    assert evidence.hits == []
    evidence = feed(["NCCL WARN Call to posix_fallocate failed : No space left on device"])
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 1)]


def test_two_patterns_of_one_signature_on_one_line_count_once():
    evidence = feed(["posix_fallocate failed: No space left; failed to extend /dev/shm/nccl-abc"])
    assert [(h.signature, h.count) for h in evidence.hits] == [("shm", 1)]


def test_two_signatures_on_one_line_are_both_found():
    evidence = feed(["CUDA out of memory after posix_fallocate failed : No space left"])
    assert sorted(h.signature for h in evidence.hits) == ["oom", "shm"]


def test_the_facts_a_nccl_log_states():
    evidence = feed([
        "host:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.244.0.233<0>",
        "host:1:1 [0] NCCL INFO cudaDriverVersion 12080",
        "NCCL version 2.21.5+cuda12.4",
        "host:1:112 [1] NCCL INFO Using network IB",
        "host:1:112 [1] NCCL INFO Using network Socket",
        "NCCL INFO NET/IB : No device found.",
    ])
    stated = {name: fact.value for name, fact in evidence.stated.items()}
    assert stated == {"nccl.bootstrap_interface": "eth0", "driver.cuda": "12.8", "nccl.version": "2.21.5",
                      "nccl.network": "ib", "nccl.ib_devices": 0}
    # two lines state two networks (two pods, two runs): which one the error belongs to is not known
    assert evidence.conflicts == {"nccl.network": ["ib", "socket"]} and evidence.value("nccl.network") is None
    assert evidence.stated["nccl.version"].line.where() == "job.log:3"
    # the address of the bootstrap line is masked in what the report quotes
    assert "10.244.0.233" not in evidence.stated["nccl.bootstrap_interface"].line.text


def test_torchs_compatibility_warning_states_the_gpu_and_the_architectures():
    evidence = feed([
        "NVIDIA B200 with CUDA capability sm_100 is not compatible with the current PyTorch installation.",
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.",
    ])
    assert evidence.stated["gpu.name"].value == "NVIDIA B200"
    assert evidence.stated["gpu.compute_capability"].value == "10.0"
    assert evidence.stated["torch.arch_list"].value == ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]


def test_xid_numbers_and_the_vllm_version():
    evidence = feed([
        "[ 1234.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=2345, GPU has fallen off the bus.",
        "[ 1235.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=2345, GPU has fallen off the bus.",
        "[ 1236.5] NVRM: Xid (PCI:0000:86:00): 48, pid=1, DBE (double bit error) ECC error",
        "INFO 06-27 16:37:35 [api_server.py:1] vLLM API server version 0.9.1",
    ])
    assert evidence.xids == [79, 48]
    assert evidence.stated["vllm.version"].value == "0.9.1"


def test_a_long_line_is_quoted_around_its_match_and_secrets_are_masked():
    line = "x" * 5000 + " token=ghp_" + "a" * 36 + " CUDA out of memory. Tried to allocate 2.00 GiB " + "y" * 5000
    evidence = feed([line])
    quoted = evidence.hits[0].first.text
    assert "CUDA out of memory" in quoted and len(quoted) <= QUOTE_LIMIT + 2
    assert "ghp_" + "a" * 36 not in quoted


def test_vllm_engine_line_states_the_version():
    evidence = feed(["INFO 05-01 [llm_engine.py:1] Initializing a V1 LLM engine (v0.8.5) with config: model='x'"])
    assert evidence.stated["vllm.version"].value == "0.8.5"


def test_the_literal_expression_finds_every_literal_and_nothing_else():
    literals = ["abc", "abd", "ab", "posix_fallocate failed", "NET/IB : No device found"]
    regex = literal_regex(literals)
    for lit in literals:
        assert regex.search(b"-- " + lit.encode() + b" --")
    assert regex.search(b"a b c") is None


@pytest.mark.parametrize("hostile", ["a" * 100_000, "(" * 100_000, "\x00" * 100_000, "posix_fallocate failed" * 5000])
def test_a_hostile_line_is_scanned_in_bounded_time(hostile):
    start = time.perf_counter()
    feed([hostile])
    assert time.perf_counter() - start < 2.0
