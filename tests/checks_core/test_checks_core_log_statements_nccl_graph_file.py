"""The log statement ``NCCL_GRAPH_FILE set by environment to PATH`` (NCCL's INFO line, NVIDIA/nccl#1240) states
``nccl.graph_file_set``, and the fact reads the environment too; its absence from the environment is not known to be
an absence (NCCL also reads /etc/nccl.conf)."""

from __future__ import annotations

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import UNKNOWN, fact_value
from lingjun.checks.knowledge.signatures import SignatureSet

LINE = "Spotllm:73025:73112 [0] NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml"


def _evidence(lines: "list[str]") -> Evidence:
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    return evidence


def test_nccls_info_line_states_that_a_graph_file_is_set():
    evidence = _evidence([LINE])
    value = fact_value("nccl.graph_file_set", Facts(), evidence)
    assert value.value is True and value.line == "job.log:1"


def test_the_environment_states_it_too_and_its_absence_is_unknown():
    facts = Facts()
    facts.env["NCCL_GRAPH_FILE"] = "/opt/microsoft/ncv4/graph.xml"
    assert fact_value("nccl.graph_file_set", facts, _evidence([])).value is True
    facts.env.clear()
    facts.env["NCCL_DEBUG"] = "INFO"
    assert fact_value("nccl.graph_file_set", facts, _evidence(["NCCL INFO NCCL_TOPO_FILE set by environment to /x"])).value is UNKNOWN
