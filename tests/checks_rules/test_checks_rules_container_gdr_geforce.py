"""container.gdr-geforce: GPUDirect RDMA on GeForce GPUs; never fires without the facts."""

import checks_rules_kit as kit
from lingjun.checks.facts import RdmaDeviceFacts

RULE = "container.gdr-geforce"
GF = (("NVIDIA GeForce RTX 4090", "geforce", "8.9"),) * 2


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def _facts(**env):
    facts = kit.gpu_facts("570.124.06", GF, **env)
    facts.rdma.devices = [RdmaDeviceFacts(name="mlx5_0")]
    return facts


def test_registration_failure_is_an_error_and_gdr_level_a_warning():
    facts = _facts(NCCL_NET_GDR_LEVEL="SYS")
    (f,) = _run(facts)
    assert f.severity.value == "warning" and "NCCL_NET_GDR_LEVEL=LOC" in f.remedy.en and "data center" in f.remedy.en
    facts.symptoms.errors = ["NET/IB : ibv_reg_mr failed: Bad address"]
    (f,) = _run(facts)
    assert f.severity.value == "error"


def test_gdr_off_is_ok_and_missing_facts_skip():
    assert kit.severities(_run(_facts(NCCL_NET_GDR_LEVEL="LOC"))) == ["ok"]
    assert kit.severities(_run(_facts())) == ["skipped"]  # nothing shows GDR is attempted
    dc = kit.gpu_facts("570.124.06", NCCL_NET_GDR_LEVEL="SYS")
    dc.rdma.devices = [RdmaDeviceFacts(name="mlx5_0")]
    assert kit.severities(_run(dc)) == ["skipped"]  # data center GPUs
    no_rdma = kit.gpu_facts("570.124.06", GF, NCCL_NET_GDR_LEVEL="SYS")
    assert kit.severities(_run(no_rdma)) == ["skipped"]
