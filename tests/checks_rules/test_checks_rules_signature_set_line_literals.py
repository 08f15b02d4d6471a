"""SignatureSet.line_literals: the literals a line holds, found by one trie expression, are exactly those a substring
test of every literal finds, in the same order (overlapping literals, one inside another, at the line's ends)."""

from __future__ import annotations

import random

from lingjun.checks.knowledge.signatures import SignatureSet
from signature_cases_kit import bundle


def _sigset() -> SignatureSet:
    return SignatureSet(bundle()["signatures"])


def _naive(sigset: SignatureSet, line: str) -> list[str]:
    return [lit for lit in sigset._plain_literals if lit in line]


def test_line_literals_equal_a_substring_test_of_every_literal_on_real_example_lines():
    sigset = _sigset()
    lines = [ex["line"] for sig in bundle()["signatures"] for ex in sig.get("examples") or []]
    lines += [pattern["literal"] for sig in bundle()["signatures"] for pattern in sig["patterns"]]
    assert len(lines) > 100
    for line in lines:
        assert sigset._present(line) == _naive(sigset, line), line


def test_line_literals_equal_a_substring_test_on_spliced_literals():
    sigset = _sigset()
    literals = sigset._plain_literals
    rng = random.Random(20261204)
    for _ in range(3000):
        parts = [rng.choice(literals)[rng.randrange(3):] for _ in range(rng.randrange(1, 5))]
        line = rng.choice(["", " ", "x"]).join(parts)
        assert sigset._present(line) == _naive(sigset, line), line


def test_a_literal_inside_a_longer_one_is_found_with_it():
    sigset = SignatureSet([{"id": "a", "patterns": [{"literal": "CUDA error: out"}]},
                           {"id": "b", "patterns": [{"literal": "error: out of memory"}]}])
    found = sigset._present("RuntimeError: CUDA error: out of memory")
    # 'CUDA error' is a prefix of 'CUDA error: out' (one trie path); 'error: out of memory' starts inside it
    assert {"CUDA error", "CUDA error: out", "error: out of memory", "Error: "} <= set(found)
    assert "Cuda failure" not in found
    assert found == _naive(sigset, "RuntimeError: CUDA error: out of memory")
