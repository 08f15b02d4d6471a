"""container.rdma-usable: devices in sysfs without a verbs node, ports not ACTIVE, unopenable nodes."""

import checks_rules_kit as kit
import checks_rules_rdma_kit as rk
from lingjun.checks.inputs.collect_env_text import parse_collect_env

RULE = "container.rdma-usable"


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_lingjun_bonds_all_active_are_ok():
    (f,) = _run(rk.bonds(2))
    assert f.severity.value == "ok" and f.message.en == "RDMA ports usable by NCCL in this container: mlx5_bond_0:1, mlx5_bond_1:1."


def test_devices_in_sysfs_without_uverbs_nodes_fall_back_to_sockets():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0"), rk.device("erdma_0", None), nodes=[])
    (f,) = _run(facts)
    assert f.severity.value == "warning"
    assert "The node has RDMA devices (mlx5_bond_0, erdma_0) but none is usable in this container" in f.message.en
    assert "mlx5_bond_0: no /dev/infiniband/uverbs0 in the container; erdma_0: no verbs device (no uverbs entry in sysfs)" in f.message.en
    assert "falls back to TCP sockets" in f.message.en
    assert "--device=/dev/infiniband/uverbsN" in f.remedy.en and "NET/Socket" in f.remedy.en


def test_down_port_and_unopenable_nodes():
    (down,) = _run(rk.facts(rk.device("mlx5_0", "uverbs0", state="DOWN")))
    assert down.severity.value == "warning" and "mlx5_0: no ACTIVE port (port 1 DOWN)" in down.message.en
    (closed,) = _run(rk.facts(rk.device("mlx5_0", "uverbs0"), accessible=False))
    assert closed.severity.value == "warning" and "mlx5_0: /dev/infiniband/uverbs0 cannot be opened" in closed.message.en


def test_some_usable_is_info():
    facts = rk.facts(rk.device("mlx5_bond_0", "uverbs0"), rk.device("mlx5_bond_1", "uverbs1", state="INIT"))
    (f,) = _run(facts)
    assert f.severity.value == "info"
    assert f.message.en == "NCCL can use mlx5_bond_0:1; it skips these: mlx5_bond_1: no ACTIVE port (port 1 INIT)."


def test_unknown_port_state_is_not_called_unusable():
    facts = rk.facts(rk.device("mlx5_0", "uverbs0", state=None), rk.device("mlx5_1", None))
    (f,) = _run(facts)
    assert f.severity.value == "info" and "mlx5_1: no verbs device" in f.message.en and "mlx5_0" not in f.message.en.split(";")[1]
    (skipped,) = _run(rk.facts(rk.device("mlx5_0", "uverbs0", state=None)))
    assert skipped.severity.value == "skipped" and "port states of mlx5_0 are not shown" in skipped.message.en


def test_no_device_says_nothing_and_a_paste_is_skipped():
    assert _run(rk.facts()) == []
    paste = parse_collect_env("PyTorch version: 2.6.0+cu124\nGPU models and configuration: GPU 0: NVIDIA H20\n")
    (f,) = kit.run(RULE, kit.context(paste))
    assert f.severity.value == "skipped" and f.message.en == "The collect_env paste does not show the RDMA devices and /dev/infiniband nodes."
