"""Unknown is not absent: a rule that needs a fact the input does not carry is skipped with the reason, and no
finding claims 'unset', 'not installed', 'no device nodes' or 'no cuda-compat' from an input that cannot show it."""

from __future__ import annotations

import re

import pytest

import checks_rules_kit as kit
from lingjun.checks import coverage
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.rules import RULES

#: words that state an absence; only a live probe or an explicit snapshot field may lead to them
ABSENCE = re.compile(r"\bis unset\b|\bnot installed\b|No cuda-compat|no /dev/nvidia|no GPU was passed|No NVIDIA driver in this container", re.I)

NEEDS = [(spec.id, section) for spec in RULES.values() for section in spec.needs]


def _rich_facts() -> Facts:
    facts = kit.gpu_facts("570.124.06")
    facts.origin = "snapshot"
    facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
    facts.cuda.toolkit_version = "12.8"
    facts.distributions = [kit.dist("torch", "2.7.1.8+nv25.3")]
    facts.torch = kit.torch_build("2.7.1.8+nv25.3", "12.8")
    return facts


def test_rules_declare_needs():
    # the sections each rule cannot judge without are declared on the rule, not guessed by the runner
    assert {spec.id: spec.needs for spec in RULES.values() if spec.needs} == {
        "driver.forward-compat-consumer-gpu": ("libcuda",),
        "driver.compat-shadows-host": ("libcuda",),
        "driver.device-nodes": ("device-nodes",),
        "cuda.toolkit-vs-record": ("cuda-toolkit",),
        "packages.missing": ("distributions",),
        "env.nccl-socket-ifname": ("env", "network"),
    }


@pytest.mark.parametrize("rule_id,section", NEEDS)
def test_rule_is_skipped_with_the_reason_when_a_needed_section_is_missing(rule_id, section):
    facts = _rich_facts()
    facts.coverage.not_available = [section]
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    findings = kit.run(rule_id, ctx)
    assert [f.severity.value for f in findings] == ["skipped"]
    label = coverage.SECTIONS[section].label
    assert findings[0].message.en == f"The snapshot does not show {label.en}."
    assert findings[0].message.zh == f"快照中不包含{label.zh}。"


def test_needs_name_only_known_sections():
    from lingjun.checks.rules import rule

    with pytest.raises(KeyError, match="unknown facts section 'envs'"):
        rule("test.bad-needs", "environment", "x", "x", needs=("envs",))


@pytest.mark.parametrize("ref", ["training-nv-pytorch:25.07", "training-nv-pytorch:25.10", "training-nv-pytorch:25.06"])
def test_a_snapshot_that_shows_nothing_claims_no_absence(ref):
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = list(coverage.SECTIONS)
    ctx = kit.context(facts, rec=kit.fixture_record(ref))
    findings = kit.all_findings(ctx)
    claims = [f"{f.rule}: {f.message.en}" for f in findings if ABSENCE.search(f.message.en)]
    assert claims == []
    assert not [f for f in findings if f.severity.value == "error"]
    driver = [f for f in findings if f.rule == "driver.present"]
    assert driver[0].severity.value == "skipped"
    assert driver[0].message.en.startswith("The snapshot does not show whether an NVIDIA driver is present")


@pytest.mark.parametrize("paste", [
    "PyTorch version: 2.6.0+cu124\nCUDA used to build PyTorch: 12.4\nPython version: 3.10.13 (main) [GCC] (64-bit runtime)\n"
    "GPU models and configuration: GPU 0: NVIDIA H20\nNvidia driver version: 570.124.06\nCUDA runtime version: 12.8.93\n"
    "CUDA_MODULE_LOADING set to: LAZY\nIs CUDA available: True\n[pip3] torch==2.6.0\n[pip3] numpy==2.2.6\n",
    # vLLM's layout, with its environment section (which lists NCCL_* and CUDA_* variables, not CHECKPOINT_OPTIMIZATION)
    "==============================\n PyTorch Info\n==============================\nPyTorch version : 2.7.0+cu128\n"
    "CUDA used to build PyTorch : 12.8\n==============================\n CUDA / GPU Info\n==============================\n"
    "Is CUDA available : True\nGPU models and configuration :\nGPU 0: NVIDIA H20\nNvidia driver version : 570.124.06\n"
    "[pip3] torch==2.7.0\n==============================\n     Environment Variables\n==============================\n"
    "NCCL_DEBUG=INFO\n",
], ids=["torch-format", "vllm-format"])
@pytest.mark.parametrize("ref", ["training-nv-pytorch:25.07", "training-nv-pytorch:25.10"])
def test_collect_env_paste_with_a_release_claims_no_absence_it_cannot_show(paste, ref):
    facts = parse_collect_env(paste)
    ctx = kit.context(facts, rec=kit.fixture_record(ref))
    findings = kit.all_findings(ctx)
    # vLLM's paste lists every NCCL_* variable, so "NCCL_SOCKET_IFNAME is unset" is observed there
    shown = ("NCCL_",) if facts.coverage.env_prefixes and "NCCL" in facts.coverage.env_prefixes else ()
    claims = [f"{f.rule}: {f.message.en}" for f in findings
              if ABSENCE.search(f.message.en) and not any(f.message.en.startswith(p) for p in shown)]
    assert claims == []
    by_rule = {f.rule: f for f in findings}
    if ref.endswith("25.07"):  # the release documents CHECKPOINT_OPTIMIZATION
        assert by_rule["env.checkpoint-optimization"].severity.value == "skipped"
        assert "does not show environment variables" in by_rule["env.checkpoint-optimization"].message.en
    assert by_rule["driver.device-nodes"].severity.value == "skipped"
    assert by_rule["driver.forward-compat-consumer-gpu"].severity.value == "skipped"
    missing = [f for f in findings if f.rule == "packages.missing"]
    assert [f.severity.value for f in missing if "not checked" in f.message.en] == ["skipped"]
    assert not [f for f in missing if f.severity.value == "warning"]


def test_vllm_paste_shows_nccl_variables_so_unset_is_observed():
    paste = ("PyTorch version : 2.7.0+cu128\nGPU models and configuration :\n" + "".join(f"GPU {i}: NVIDIA H20\n" for i in range(8))
             + "Nvidia driver version : 570.124.06\n==============================\n     Environment Variables\n"
             "==============================\nNCCL_DEBUG=INFO\n")
    facts = parse_collect_env(paste)
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    (finding,) = kit.run("env.nccl-socket-ifname-pod-size", ctx)
    assert finding.severity.value == "warning"
    assert "NCCL_SOCKET_IFNAME is unset" in finding.message.en


def test_live_facts_still_say_unset():
    facts = kit.gpu_facts("570.124.06")
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    (finding,) = kit.run("env.checkpoint-optimization", ctx)
    assert finding.severity.value == "info" and "CHECKPOINT_OPTIMIZATION is unset" in finding.message.en
