"""A shell prompt whose host name is a Docker container's id states that the log's commands ran inside a container
(``log.docker_container_shell``): Docker names a container's host after the first 12 hexadecimal digits of its id.

Lines are quoted from public reports: E4S-Project/e4s#172 (nvidia-smi's NVML mismatch inside a container); the
near misses are a host's prompt and the same text inside a sentence.
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet

#: E4S-Project/e4s#172
E4S_PROMPT = "root@5561000296a4:~/testsuite/validation_tests/chai-cuda# nvidia-smi"


def shell(*lines: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    return fact_value("log.docker_container_shell", Facts(), evidence)


@pytest.mark.parametrize("line, inside", [
    (E4S_PROMPT, True),
    ("(base) root@0c8e2a9f41b7:/workspace# python train.py", True),  # a conda environment's prefix
    ("root@0c8e2a9f41b7:/#", True),
    ("root@gpu-node-07:~# nvidia-smi", None),  # a host's name
    ("root@5561000296a4x:~# nvidia-smi", None),  # not 12 digits
    ("ssh root@5561000296a4: permission denied", None),  # not a prompt at the start of a line
])
def test_a_prompt_in_a_docker_container_is_stated(line, inside):
    found = shell(line)
    assert (found.value if found.known else None) is inside
    if inside:
        assert found.line == "job.log:1"
