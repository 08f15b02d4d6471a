"""container.memlock-rdma: RLIMIT_MEMLOCK judged only where RDMA is in use; unlimited or CAP_IPC_LOCK is ok."""

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, RdmaDeviceFacts, RdmaPortFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env

RULE = "container.memlock-rdma"
MIB = 1024 * 1024


def _facts(soft, hard=None, cap=False, rdma=True, errors=()):
    facts = Facts()
    facts.limits.memlock_soft = soft
    facts.limits.memlock_hard = hard
    facts.limits.cap_ipc_lock = cap
    if rdma:
        facts.rdma.devices = [RdmaDeviceFacts("mlx5_bond_0", ports=[RdmaPortFacts(1, state="ACTIVE", link_layer="Ethernet")], uverbs="uverbs0")]
        facts.rdma.uverbs_nodes = ["/dev/infiniband/uverbs0"]
    facts.symptoms.errors = list(errors)
    return facts


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_8_mib_with_rdma_is_an_error_naming_the_limit_and_unlimited_memlock():
    (f,) = _run(_facts(8 * MIB, hard=8 * MIB))
    assert f.severity.value == "error"
    assert f.message.en.startswith("The locked-memory limit is 8 MiB while RDMA is in use (RDMA devices: mlx5_bond_0)")
    assert "ibv_reg_mr" in f.message.en and "Cannot allocate memory" in f.message.en
    assert f.observed == "RLIMIT_MEMLOCK 8 MiB"
    assert "--ulimit memlock=-1" in f.remedy.en and "LimitMEMLOCK=infinity" in f.remedy.en and "IPC_LOCK" in f.remedy.en
    assert "hard limit" not in f.message.en  # the hard limit is no higher


def test_no_rdma_does_not_name_the_limit():
    (f,) = _run(_facts(8 * MIB, rdma=False))
    assert f.severity.value == "ok" and "8 MiB" not in f.message.en and f.observed is None


@pytest.mark.parametrize("soft,hard,cap,severity,words", [
    (-1, -1, False, "ok", "unlimited, as RDMA registration needs"),
    (8 * MIB, None, True, "ok", "holds CAP_IPC_LOCK"),
    (4 * 1024 * MIB, None, False, "warning", "The locked-memory limit is 4 GiB"),
    (64 * 1024, -1, None, "error", "The hard limit is unlimited: 'ulimit -l unlimited'"),
])
def test_branches(soft, hard, cap, severity, words):
    (f,) = _run(_facts(soft, hard, cap))
    assert f.severity.value == severity and words in f.message.en, f.message.en
    if cap is None:
        assert "(RDMA devices: mlx5_bond_0; whether the process holds CAP_IPC_LOCK is not shown)" in f.message.en


def test_a_quoted_ibv_error_is_evidence_without_rdma_facts():
    facts = _facts(8 * MIB, rdma=False, errors=["NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory"])
    facts.coverage.not_available = ["rdma"]
    (f,) = _run(facts)
    assert f.severity.value == "error"
    assert "(the input quotes 'NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory')" in f.message.en
    assert f.links[-1] == "https://github.com/NVIDIA/nccl-tests/issues/206"


def test_missing_facts():
    facts = _facts(8 * MIB, rdma=False)
    facts.origin = "snapshot"
    facts.coverage.not_available = ["rdma"]
    (f,) = kit.run(RULE, kit.context(facts))
    assert f.severity.value == "skipped"
    assert f.message.en == "The locked-memory limit was not judged: the snapshot does not show the RDMA devices and /dev/infiniband nodes."
    (g,) = kit.run(RULE, kit.context(_facts(None)))
    assert g.severity.value == "skipped" and g.message.en == "The locked-memory limit could not be read in this container."
    paste = parse_collect_env("PyTorch version: 2.6.0+cu124\nGPU models and configuration: GPU 0: NVIDIA H20\n")
    (h,) = kit.run(RULE, kit.context(paste))
    assert h.severity.value == "skipped" and "does not show the resource limits" in h.message.en


def test_8_mib_seen_by_a_check_whose_pod_dropped_every_capability_is_a_warning_naming_that():
    facts = _facts(8 * MIB, hard=8 * MIB)
    facts.limits.caps_dropped, facts.limits.uid = True, 65534
    (f,) = _run(facts)
    assert f.severity.value == "warning"
    assert "this check ran with every capability dropped" in f.message.en
    assert "whether the workload holds CAP_IPC_LOCK is not known" in f.message.en
    assert "本次检查运行时所有权能都已被移除" in f.message.zh


def test_8_mib_without_ipc_lock_in_a_pod_that_kept_its_capabilities_stays_an_error():
    facts = _facts(8 * MIB, hard=8 * MIB)
    facts.limits.caps_dropped = False
    (f,) = _run(facts)
    assert f.severity.value == "error" and "every capability dropped" not in f.message.en
