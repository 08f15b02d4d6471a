"""A log that shows the NVIDIA GPU Operator on the node (``log.gpu_operator``): its name or namespace, or the host paths
it keeps the toolkit and the driver in (/usr/local/nvidia/toolkit, /run/nvidia/driver), as containerd/nerdctl#2716
and nerdctl's GPU documentation print them."""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def operator(line: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    found = fact_value("log.gpu_operator", Facts(), evidence)
    return found.value if found.known else None


@pytest.mark.parametrize("line", [
    # containerd/nerdctl#2716
    "1. Using the  [gpu-operator](https://github.com/NVIDIA/gpu-operator)  to install GPU drivers.",
    "export PATH=$PATH:/usr/local/nvidia/toolkit",
    'echo "/run/nvidia/driver/usr/lib/x86_64-linux-gnu" > /etc/ld.so.conf.d/nvidia.conf',
    # the operator's namespace in kubectl's output (NVIDIA's GPU Operator documentation)
    "kubectl get pods -n gpu-operator",
])
def test_the_gpu_operator_is_stated(line):
    assert operator(line) is True


@pytest.mark.parametrize("line", [
    "helm install my-gpu-operator-fork ./charts",  # another word that holds it
    "ls /usr/local/nvidia/lib64",
])
def test_other_words_state_nothing(line):
    assert operator(line) is None
