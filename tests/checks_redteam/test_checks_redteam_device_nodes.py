"""driver.device-nodes: no 'no GPU was passed into this container' warning where device nodes were never looked at."""

from __future__ import annotations

from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.rules import RULES
from lingjun.checks.runner import load_rules, run_rule

from checks_redteam_kit import REDTEAM

RULE = "driver.device-nodes"


def _findings(facts):
    from lingjun.checks.cli import load_data

    load_rules()
    ctx = CheckContext(facts=facts, data=load_data(None), release=ReleaseMatch(ref=None, how="none", score=None, record=None),
                       options=CheckOptions())
    return run_rule(RULES[RULE], ctx)


def _snapshot(probes, nodes_key=True):
    from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict

    data = {"schema": "lingjun-check/snapshot/1", "driver": {"kernel_module_version": "550.54.14"},
            "probes": [{"name": n} for n in probes]}
    if nodes_key:
        data["driver"]["device_nodes"] = []
    facts, problems = facts_from_snapshot_dict(data)
    assert problems == []
    return facts


def test_collect_env_paste_is_skipped_with_the_reason():
    # vllm-project/vllm#4294: four T4s in use; collect_env never lists /dev/nvidia*
    facts = parse_collect_env((REDTEAM / "R03-vllm-4294.collect_env.txt").read_text(encoding="utf-8"))
    assert facts.driver_version == "535.129.03" and not facts.driver.device_nodes
    (finding,) = _findings(facts)
    assert finding.severity.value == "skipped"
    assert finding.message.en == "The collect_env paste does not show the /dev/nvidia* device nodes."
    assert finding.message.zh == "collect_env 输出中不包含 /dev/nvidia* 设备节点。"


def test_snapshot_whose_probes_skipped_device_nodes_is_skipped():
    (finding,) = _findings(_snapshot(["driver-proc"]))
    assert finding.severity.value == "skipped"
    assert finding.message.en == "The snapshot does not show the /dev/nvidia* device nodes."


def test_snapshot_without_the_device_nodes_key_is_skipped():
    (finding,) = _findings(_snapshot([], nodes_key=False))
    assert finding.severity.value == "skipped"
    assert "does not show the /dev/nvidia* device nodes" in finding.message.en


def test_snapshot_whose_probe_found_no_nodes_still_warns():
    (finding,) = _findings(_snapshot(["device-nodes"]))
    assert finding.severity.value == "warning"
    assert "no GPU was passed into this container" in finding.message.en


def test_hand_written_snapshot_with_an_empty_node_list_is_taken_at_its_word():
    (finding,) = _findings(_snapshot([]))
    assert finding.severity.value == "warning"
