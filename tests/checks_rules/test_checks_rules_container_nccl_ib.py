"""container.nccl-ib-hca, container.nccl-ib-transport, container.nccl-ib-gid-index against the container's RDMA ports."""

import pytest

import checks_rules_kit as kit
import checks_rules_rdma_kit as rk
from lingjun.checks.facts import Facts

HCA, NET, GID = "container.nccl-ib-hca", "container.nccl-ib-transport", "container.nccl-ib-gid-index"


def _run(rule_id, facts):
    findings = kit.run(rule_id, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


# -- NCCL_IB_HCA ---------------------------------------------------------------

def test_hca_naming_nothing_falls_back_to_sockets():
    (f,) = _run(HCA, rk.bonds(2, NCCL_IB_HCA="mlx5_0,mlx5_1"))
    assert f.severity.value == "warning"
    assert f.message.en == ("NCCL_IB_HCA=mlx5_0,mlx5_1 leaves NCCL no RDMA port (it matches no device port; devices: mlx5_bond_0, "
                            "mlx5_bond_1): NCCL falls back to TCP sockets without an error.")
    assert f.expected == "one of mlx5_bond_0:1, mlx5_bond_1:1" and "'=' asks for exact names" in f.remedy.en


def test_hca_matching_only_unusable_ports():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0", state="DOWN"), rk.device("mlx5_bond_1", "uverbs1"), NCCL_IB_HCA="=mlx5_bond_0")
    (f,) = _run(HCA, facts)
    assert f.severity.value == "warning" and "it matches mlx5_bond_0:1, none of them usable" in f.message.en


@pytest.mark.parametrize("value,severity,words", [
    ("mlx5_bond", "ok", "NCCL_IB_HCA=mlx5_bond gives NCCL mlx5_bond_0:1, mlx5_bond_1:1."),
    ("=mlx5_bond_0:1", "ok", "gives NCCL mlx5_bond_0:1."),
    ("^=mlx5_bond_1,mlx5_9", "ok", "gives NCCL mlx5_bond_0:1."),  # an exclude list may name what is not there
    ("=mlx5_bond_0,mlx5_bond_2", "warning", "names mlx5_bond_2, which the container does not have"),
    ("=mlx5_bond_0:2,mlx5_bond_1", "warning", "names mlx5_bond_0:2, which"),
])
def test_hca_branches(value, severity, words):
    (f,) = _run(HCA, rk.bonds(2, NCCL_IB_HCA=value))
    assert f.severity.value == severity and words in f.message.en, f.message.en


def test_hca_unset_or_without_devices():
    assert _run(HCA, rk.bonds(2)) == []
    (f,) = _run(HCA, rk.facts(NCCL_IB_HCA="mlx5"))
    assert f.severity.value == "warning" and "shows no RDMA device port" in f.message.en


# -- NCCL_IB_DISABLE / NCCL_NET -----------------------------------------------

def test_ib_disable_on_an_rdma_node_is_info():
    (f,) = _run(NET, rk.bonds(1, NCCL_IB_DISABLE="1"))
    assert f.severity.value == "info"
    assert f.message.en.startswith("NCCL_IB_DISABLE=1 on a node whose container can use RDMA (mlx5_bond_0:1)")


def test_net_ib_without_a_usable_port_is_an_error():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0"), nodes=[], NCCL_NET="IB")
    (f,) = _run(NET, facts)
    assert f.severity.value == "error"
    assert "no RDMA port is usable in this container (devices: mlx5_bond_0)" in f.message.en
    # NCCL_IB_HCA that filters every usable port away counts too
    (g,) = _run(NET, rk.bonds(2, NCCL_NET="IB", NCCL_IB_HCA="mlx5_0"))
    assert g.severity.value == "error"
    (h,) = _run(NET, rk.facts(NCCL_NET="IB"))
    assert h.severity.value == "error" and "(devices: none)" in h.message.en


@pytest.mark.parametrize("env,severity", [
    ({"NCCL_NET": "IB", "NCCL_IB_DISABLE": "1"}, "error"),
    ({"NCCL_NET": "IB"}, "ok"),
    ({"NCCL_NET": "Socket"}, "info"),
    ({"NCCL_IB_DISABLE": "0"}, None),
    ({}, None),
])
def test_transport_branches(env, severity):
    findings = _run(NET, rk.bonds(2, **env))
    assert kit.severities(findings) == ([severity] if severity else [])


def test_ib_disable_without_rdma_says_nothing():
    assert _run(NET, rk.facts(NCCL_IB_DISABLE="1")) == []


# -- NCCL_IB_GID_INDEX ----------------------------------------------------------

@pytest.mark.parametrize("value,severity,words", [
    ("3", "ok", "NCCL_IB_GID_INDEX=3 is a RoCE v2 entry on mlx5_bond_0:1, mlx5_bond_1:1."),
    ("0", "warning", "selects a RoCE v1 entry on mlx5_bond_0:1 (IB/RoCE v1), mlx5_bond_1:1 (IB/RoCE v1)"),
    ("7", "error", "points at an empty GID entry on mlx5_bond_0:1, mlx5_bond_1:1"),
    ("three", "warning", "NCCL_IB_GID_INDEX=three is not a number; NCCL reads it as 0"),
])
def test_gid_index_branches(value, severity, words):
    f = _run(GID, rk.bonds(2, NCCL_IB_GID_INDEX=value))[0]
    assert f.severity.value == severity and words in f.message.en, f.message.en


def test_gid_index_empty_entry_inside_the_table():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0", gid_types=["IB/RoCE v1", "RoCE v2", ""]), NCCL_IB_GID_INDEX="2")
    (f,) = _run(GID, facts)
    assert f.severity.value == "error" and f.expected == "a RoCE v2 entry"


def test_gid_index_quiet_or_skipped():
    assert _run(GID, rk.bonds(2)) == []
    assert _run(GID, rk.bonds(2, NCCL_IB_GID_INDEX="-1")) == []  # NCCL chooses
    infiniband = rk.facts(rk.device("mlx5_0", "uverbs0", link_layer="InfiniBand"), NCCL_IB_GID_INDEX="0")
    assert _run(GID, infiniband) == []
    # only the ports NCCL_IB_HCA leaves are judged
    mixed = rk.facts(rk.device("mlx5_bond_0", "uverbs0"), rk.device("mlx5_bond_1", "uverbs1", gid_types=["RoCE v2"]),
                     NCCL_IB_GID_INDEX="3", NCCL_IB_HCA="=mlx5_bond_0")
    assert kit.severities(_run(GID, mixed)) == ["ok"]
    (f,) = _run(GID, rk.facts(rk.device("mlx5_bond_0", "uverbs0", gid_types=[]), NCCL_IB_GID_INDEX="3"))
    assert f.severity.value == "skipped" and f.message.en == "NCCL_IB_GID_INDEX=3 was not checked: the GID table types of mlx5_bond_0:1 are not shown."


def test_env_rules_skip_when_the_input_has_no_rdma_section():
    facts = Facts(origin="snapshot")
    facts.env.update(NCCL_IB_HCA="mlx5", NCCL_NET="IB", NCCL_IB_GID_INDEX="3")
    facts.coverage.not_available = ["rdma"]
    for rule_id in (HCA, NET, GID):
        (f,) = kit.run(rule_id, kit.context(facts))
        assert f.severity.value == "skipped" and f.message.en == "The snapshot does not show the RDMA devices and /dev/infiniband nodes."
