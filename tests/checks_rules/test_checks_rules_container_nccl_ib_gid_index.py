"""container.nccl-ib-gid-index judges the index NCCL uses (strtoll, base 0) and the probe's 32-entry cap (try9 finding 2)."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
import checks_rules_rdma_kit as rk
from lingjun.checks.core import nccl_param

GID = "container.nccl-ib-gid-index"


def _run(facts):
    findings = kit.run(GID, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


@pytest.mark.parametrize("text,value", [("3", 3), ("010", 8), ("0x1", 1), ("0X1f", 31), ("3abc", 3), (" \\t7", None),
                                        ("  7", 7), ("abc", 0), ("-1", -1), ("+5", 5), ("0x", 0), ("0" * 5000 + "3", 3)])
def test_strtoll_base_zero(text, value):
    if value is not None:
        assert nccl_param.read(text).value == value


def test_out_of_range_is_the_default():
    assert nccl_param.read("9" * 5000).out_of_range and nccl_param.read(str(2 ** 63)).out_of_range
    assert nccl_param.read(str(2 ** 63 - 1)).value == 2 ** 63 - 1


@pytest.mark.parametrize("value,severity,words", [
    ("010", "error", "NCCL_IB_GID_INDEX=010 (NCCL reads 010 as 8) points at an empty GID entry"),
    ("0x3", "ok", "NCCL_IB_GID_INDEX=0x3 (NCCL reads 0x3 as 3) is a RoCE v2 entry"),
    ("3abc", "ok", "NCCL_IB_GID_INDEX=3abc (NCCL reads 3abc as 3) is a RoCE v2 entry"),
    ("01", "ok", "NCCL_IB_GID_INDEX=01 (NCCL reads 01 as 1) is a RoCE v2 entry"),
])
def test_index_as_nccl_reads_it(value, severity, words):
    (f,) = _run(rk.bonds(2, NCCL_IB_GID_INDEX=value))
    assert f.severity.value == severity and words in f.message.en


def test_huge_value_is_ignored_by_nccl():
    (f,) = _run(rk.bonds(2, NCCL_IB_GID_INDEX="9" * 5000))
    assert f.severity.value == "warning" and "uses its default" in f.message.en


def test_index_past_a_capped_list_is_not_known():
    types = ["RoCE v2"] * 32
    (f,) = _run(rk.facts(rk.device("mlx5_bond_0", "uverbs0", gid_types=types), NCCL_IB_GID_INDEX="40"))
    assert f.severity.value == "skipped" and "not shown up to that index" in f.message.en


def test_index_past_a_short_list_is_still_empty():
    (f,) = _run(rk.facts(rk.device("mlx5_bond_0", "uverbs0", gid_types=["RoCE v2"] * 4), NCCL_IB_GID_INDEX="10"))
    assert f.severity.value == "error"


def test_expected_is_bilingual():
    (f,) = _run(rk.bonds(1, NCCL_IB_GID_INDEX="0"))
    assert f.expected_text.zh == "RoCE v2 条目"


def test_rdma_usable_and_transport_words_are_chinese():
    facts = rk.facts(rk.device("mlx5_bond_0", None), NCCL_NET="IB")
    (usable,) = _run_rule("container.rdma-usable", facts)
    assert usable.observed_text.zh.startswith("mlx5_bond_0：") and "ACTIVE 端口" in usable.expected_text.zh
    (net,) = _run_rule("container.nccl-ib-transport", facts)
    assert "现有设备：mlx5_bond_0" in net.message.zh and net.expected_text.zh.startswith("一个带")


def _run_rule(rule, facts):
    findings = kit.run(rule, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_transport_without_devices_says_none_in_chinese():
    facts = rk.facts(NCCL_NET="IB")
    findings = _run_rule("container.nccl-ib-transport", facts)
    assert [f.severity.value for f in findings] == ["error"] and "现有设备：无" in findings[0].message.zh


def test_a_malformed_port_is_dropped_and_the_rest_judged():
    import json
    from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
    data = {"schema": "lingjun-check/snapshot/1", "origin": "snapshot", "env": {"NCCL_IB_GID_INDEX": "3"},
            "rdma": {"devices": [{"name": "mlx5_bond_0", "uverbs": "uverbs0", "ports": [
                {"port": "1", "state": "ACTIVE"},
                {"port": 2, "state": "ACTIVE", "link_layer": "Ethernet", "gid_types": ["IB/RoCE v1", "RoCE v2", "IB/RoCE v1", "RoCE v2"]}]}],
                "uverbs_nodes": ["/dev/infiniband/uverbs0"], "uverbs_accessible": True}}
    facts, problems = facts_from_snapshot_dict(json.loads(json.dumps(data)))
    assert "rdma.devices[0].ports[0]: no usable port, so the entry was ignored" in problems
    (usable,) = _run_rule("container.rdma-usable", facts)
    assert usable.severity.value == "ok" and "mlx5_bond_0:2" in usable.message.en
    (gid,) = _run_rule(GID, facts)
    assert gid.severity.value == "ok" and "mlx5_bond_0:2" in gid.message.en


def test_ports_without_state_are_skipped_not_silent():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0", state=None), NCCL_IB_GID_INDEX="3")
    (usable,) = _run_rule("container.rdma-usable", facts)
    assert usable.severity.value == "skipped" and "port states of mlx5_bond_0 are not shown" in usable.message.en
    (gid,) = _run_rule(GID, facts)
    assert gid.severity.value == "skipped"


@pytest.mark.parametrize("value,names,notes", [(" mlx5_bond_0", [" mlx5_bond_0"], ["space"]), ("^ mlx5_0", [" mlx5_0"], ["space"]),
                                               (" ^mlx5_0", [" ^mlx5_0"], ["space"]), ("mlx5_0:1,", ["mlx5_0"], ["empty-entry"])])
def test_hca_keeps_spaces_as_nccl_does(value, names, notes):
    from lingjun.checks.core import nccl_ib_hca
    pattern = nccl_ib_hca.parse(value)
    assert [e.name for e in pattern.entries] == names and pattern.notes == notes


def test_hca_with_a_leading_space_matches_nothing():
    (f,) = _run_rule("container.nccl-ib-hca", rk.bonds(2, NCCL_IB_HCA=" mlx5_bond_0"))
    assert f.severity.value == "warning" and "NCCL keeps spaces as part of the names" in f.message.en
    assert f.observed == "' mlx5_bond_0'"


def test_a_huge_value_is_shown_cut_short():
    (f,) = _run(rk.bonds(2, NCCL_IB_GID_INDEX="9" * 5000))
    assert f.observed == "9" * 20 + "… (5000 characters)" and "9" * 21 not in f.message.en
