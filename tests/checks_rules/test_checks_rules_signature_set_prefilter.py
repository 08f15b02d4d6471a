"""Scanner's prefilter (SignatureSet.prefilter): on a long block the literals are searched only in the lines a
prefilter of rare pieces finds, and the matches are exactly those of the literals' expression over the whole block,
in the same order, whatever the input's bytes make rare."""

from __future__ import annotations

import random

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge import signatures
from lingjun.checks.knowledge.signatures import SignatureSet
from signature_cases_kit import bundle


@pytest.fixture(scope="module")
def sigset() -> SignatureSet:
    return SignatureSet(bundle()["signatures"])


def _matches(scanner, block: bytes) -> list[tuple[int, bytes]]:
    return [(m.start(), m.group()) for m in scanner._literal_matches(block)]


def _block(sigset: SignatureSet, rng: random.Random, lines: int) -> bytes:
    """Lines of filler, some holding a literal (whole, cut, or twice), some very long."""
    fillers = ["node-3:1323:1345 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC/read",
               "[rank1]:[W1201 10:10:00.000] step 5 loss 2.31 lr 3.0e-4", "Channel hannel chann", "é中文 ° ±", ""]
    literals = sigset.literals
    out = []
    for _ in range(lines):
        line = rng.choice(fillers)
        if rng.random() < 0.2:
            literal = rng.choice(literals)
            cut = literal if rng.random() < 0.7 else literal[: rng.randrange(1, len(literal) + 1)]
            line = line[: rng.randrange(len(line) + 1)] + cut + rng.choice(["", " x", cut])
        if rng.random() < 0.01:
            line = line * 300
        out.append(line)
    return "\n".join(out).encode("utf-8")


@pytest.mark.parametrize("seed", range(6))
def test_prefiltered_matches_equal_the_whole_block_search(sigset, monkeypatch, seed):
    monkeypatch.setattr(signatures, "PREFILTER_BLOCK", 1024)
    rng = random.Random(seed)
    block = _block(sigset, rng, 3000)
    scanner = sigset.scanner(Evidence(), "job.log")
    assert len(block) >= 1024
    got = _matches(scanner, block)
    assert scanner._prefilter is not None
    assert got == [(m.start(), m.group()) for m in sigset.regex.finditer(block)]
    assert len(got) > 100
    # the prefilter chosen on the first block serves the next ones, whatever they hold
    other = _block(sigset, random.Random(seed + 100), 500)
    assert _matches(scanner, other) == [(m.start(), m.group()) for m in sigset.regex.finditer(other)]


def test_a_short_block_is_searched_whole_without_a_prefilter(sigset):
    scanner = sigset.scanner(Evidence(), "job.log")
    block = b"x NCCL WARN Cuda failure 2 'out of memory'\n"
    assert [m.group() for m in scanner._literal_matches(block)] == [m.group() for m in sigset.regex.finditer(block)]
    assert scanner._prefilter is None


def test_the_prefilter_pieces_avoid_what_the_input_repeats(sigset):
    """In a log of NCCL INFO lines the piece of a literal is not one those lines are full of."""
    sample = b"node-3:1323:1345 [3] NCCL INFO Channel 00/0 : 3[3] -> 4[4] via P2P/IPC/read\n" * 800
    pre = sigset.prefilter(sample)
    assert pre.search(sample) is None
    assert pre.search(b"misc/shmutils.cc:72 NCCL WARN Error: failed to extend /dev/shm") is not None


def test_no_literal_holds_a_line_break(sigset):
    """A literal's piece must lie in one line for the prefilter to find the line."""
    assert not [lit for lit in sigset.literals if "\n" in lit]
