"""The port torch.distributed's store could not listen on (``c10d.store_port``, which the remedies quote), in c10d's
warning and its 2.x exception, and a job Slurm runs (``log.slurm``: SLURM_* variables, srun, #SBATCH, slurmstepd)."""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def evidence_of(*lines: str) -> Evidence:
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


@pytest.mark.parametrize("line, port", [
    # pytorch/pytorch#116974
    ("[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).",
     29500),
    ("[W socket.cpp:426] [c10d] The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in "
     "use).", 29500),
    # pytorch/pytorch#85604
    ("[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:47531 (errno: 98 - Address already in "
     "use).", 47531),
    # TorchDR/TorchDR#249 (a Slurm cluster)
    ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: "
     "29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use", 29500),
])
def test_the_stores_port_is_stated(line, port):
    stated = evidence_of(line).value("c10d.store_port")
    assert stated is not None and stated.value == port


@pytest.mark.parametrize("line", [
    # AMDResearch/hpcfund#47
    "srun torchrun \\",
    'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
    # pytorch/pytorch#73656
    "#SBATCH --ntasks-per-node=1",
    # Slurm's step daemon (its message format)
    "slurmstepd: error: *** JOB 4242 ON gpu017 CANCELLED AT 2024-01-09T10:00:00 DUE TO TIME LIMIT ***",
])
def test_a_slurm_job_is_stated(line):
    found = fact_value("log.slurm", Facts(), evidence_of(line))
    assert found.known and found.value is True


@pytest.mark.parametrize("line", ["the srun-like launcher", "MY_SLURM_WRAPPER=1", "# SBATCH is not used here"])
def test_other_words_state_no_slurm(line):
    assert not fact_value("log.slurm", Facts(), evidence_of(line)).known
