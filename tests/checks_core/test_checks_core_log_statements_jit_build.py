"""A JIT build's missing nvcc path states the CUDA_HOME it was looked for in: a list of paths when it holds a colon
(``':/usr/local/cuda/bin/nvcc'``, from ``export CUDA_HOME=$CUDA_HOME:/usr/local/cuda``), one directory otherwise.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def feed(*lines: str) -> Evidence:
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


@pytest.mark.parametrize("line, is_list", [
    # deepspeedai/DeepSpeed#5511
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc'", True),
    # bytedance/lightseq#155
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda-10.0/bin/nvcc': "
     "':/usr/local/cuda-10.0/bin/nvcc'", True),
    # joanrod/star-vector#8 (a runtime image)
    ("FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", False),
])
def test_the_failing_nvcc_path_states_whether_cuda_home_is_a_list(line, is_list):
    evidence = feed(line)
    assert evidence.stated["cuda.home_is_path_list"].value is is_list
    found = fact_value("cuda.home_is_path_list", Facts(), evidence)
    assert (found.value, found.line) == (is_list, "job.log:1")


def test_nvcc_looked_up_on_path_says_nothing_about_cuda_home():
    # flashinfer-ai/flashinfer#1781
    evidence = feed("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'")
    assert "cuda.home_is_path_list" not in evidence.stated
    assert not fact_value("cuda.home_is_path_list", Facts(), evidence).known
