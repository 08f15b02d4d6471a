"""driver.device-nodes: no 'no GPU was passed into this container' warning where device nodes were never looked at."""

from __future__ import annotations

from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.facts import ProbeRecord
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


def test_collect_env_paste_says_nothing_about_device_nodes():
    # vllm-project/vllm#4294: four T4s in use; collect_env never lists /dev/nvidia*
    facts = parse_collect_env((REDTEAM / "R03-vllm-4294.collect_env.txt").read_text(encoding="utf-8"))
    assert facts.driver_version == "535.129.03" and not facts.driver.device_nodes
    assert [f.severity.value for f in _findings(facts)] == []


def test_snapshot_whose_probes_skipped_device_nodes_gets_no_warning():
    facts = parse_collect_env("Nvidia driver version: 550.54.14\n")
    facts.origin = "snapshot"
    facts.probes = [ProbeRecord(name="driver-proc")]
    assert [f.severity.value for f in _findings(facts)] == []


def test_snapshot_whose_probe_found_no_nodes_still_warns():
    facts = parse_collect_env("Nvidia driver version: 550.54.14\n")
    facts.origin = "snapshot"
    facts.probes = [ProbeRecord(name="device-nodes")]
    assert [f.severity.value for f in _findings(facts)] == ["warning"]


def test_the_rule_names_the_device_probe_by_its_real_name():
    from lingjun.checks.probes import devices
    from lingjun.checks.rules import driver_device_nodes

    assert driver_device_nodes.DEVICE_PROBE == devices.NAME
