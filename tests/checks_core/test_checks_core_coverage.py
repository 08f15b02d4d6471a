"""lingjun.checks.coverage: which sections an input carries, and the reasons a rule is skipped."""

from __future__ import annotations

import json

import pytest

from checks_core_helpers import REPO
from lingjun.checks import coverage
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
from lingjun.checks.probes import load_probes

TORCH_PASTE = """PyTorch version: 2.6.0+cu124
CUDA used to build PyTorch: 12.4
OS: Ubuntu 22.04.4 LTS (x86_64)
Python version: 3.10.13 (main, Sep 11 2023, 13:44:35) [GCC 11.2.0] (64-bit runtime)
Is CUDA available: True
CUDA runtime version: 12.4.131
CUDA_MODULE_LOADING set to: LAZY
GPU models and configuration: GPU 0: NVIDIA A800-SXM4-80GB
Nvidia driver version: 470.161.03
cuDNN version: Could not collect
[pip3] torch==2.6.0
"""


def test_live_facts_are_observed_everywhere():
    facts = Facts()
    assert {coverage.state(facts, s) for s in coverage.SECTIONS} == {coverage.OBSERVED}
    assert coverage.driver_observed(facts)


def test_unknown_section_is_a_key_error():
    with pytest.raises(KeyError, match="unknown facts section 'envs'"):
        coverage.state(Facts(), "envs")


def test_snapshot_without_keys_marks_exactly_those_sections():
    facts, problems = facts_from_snapshot_dict({"schema": "lingjun-check/snapshot/1", "env": {}, "driver": {"device_nodes": []}})
    assert problems == []
    assert coverage.state(facts, "env") == coverage.OBSERVED
    assert coverage.state(facts, "device-nodes") == coverage.OBSERVED
    assert coverage.state(facts, "driver") == coverage.NOT_AVAILABLE  # no kernel_module_version / proc_version_error
    assert coverage.state(facts, "loader") == coverage.NOT_AVAILABLE
    assert coverage.state(facts, "distributions") == coverage.NOT_AVAILABLE
    assert coverage.driver_observed(facts)  # device nodes were shown


def test_snapshot_probe_records_mark_probes_that_did_not_run_or_timed_out():
    data = {"schema": "lingjun-check/snapshot/1", "env": {}, "loader": {}, "network": [],
            "probes": [{"name": "env"}, {"name": "loader", "timed_out": True, "ok": False}]}
    facts, _ = facts_from_snapshot_dict(data)
    assert coverage.state(facts, "env") == coverage.OBSERVED
    assert coverage.state(facts, "loader") == coverage.NOT_AVAILABLE  # timed out
    assert coverage.state(facts, "network") == coverage.NOT_AVAILABLE  # its probe is not among the records


def test_snapshot_may_declare_its_own_coverage():
    data = {"schema": "lingjun-check/snapshot/1", "env": {}, "distributions": [],
            "coverage": {"not_available": ["env", "no-such-section"], "partial": ["distributions"]}}
    facts, _ = facts_from_snapshot_dict(data)
    assert coverage.state(facts, "env") == coverage.NOT_AVAILABLE
    assert coverage.state(facts, "distributions") == coverage.PARTIAL
    assert "no-such-section" not in facts.coverage.not_available


def test_torch_collect_env_paste_coverage():
    facts = parse_collect_env(TORCH_PASTE)
    for section in ("driver", "device-nodes", "nvml", "libcuda", "nccl", "network", "loader", "manifest"):
        assert coverage.state(facts, section) == coverage.NOT_AVAILABLE, section
    for section in ("distributions", "env", "cudnn", "cuda-toolkit", "nvidia-smi"):
        assert coverage.state(facts, section) == coverage.PARTIAL, section
    assert coverage.state(facts, "symptoms") == coverage.OBSERVED
    assert facts.symptoms.cuda_available is True
    assert not coverage.driver_observed(facts)
    assert coverage.env_known(facts, "CUDA_MODULE_LOADING")
    assert not coverage.env_known(facts, "NCCL_SOCKET_IFNAME")
    assert not coverage.env_known(facts, "CHECKPOINT_OPTIMIZATION")


def test_vllm_paste_lists_variables_by_prefix():
    text = TORCH_PASTE + "==============================\n     Environment Variables\n==============================\nNCCL_DEBUG=INFO\n"
    facts = parse_collect_env(text)
    assert coverage.env_known(facts, "NCCL_SOCKET_IFNAME")  # vLLM lists every NCCL_* variable: unset is observed
    assert coverage.env_known(facts, "NCCL_DEBUG")
    assert not coverage.env_known(facts, "CHECKPOINT_OPTIMIZATION")


def test_pip_fragment_shows_only_packages():
    facts = parse_collect_env("[pip3] torch==2.6.0\n[pip3] numpy==2.2.6\n")
    assert coverage.state(facts, "distributions") == coverage.PARTIAL
    assert coverage.state(facts, "nvidia-smi") == coverage.NOT_AVAILABLE
    assert coverage.state(facts, "symptoms") == coverage.NOT_AVAILABLE
    assert coverage.state(facts, "env") == coverage.NOT_AVAILABLE


def test_reasons_name_the_input_and_the_sections():
    facts = parse_collect_env(TORCH_PASTE)
    reason = coverage.unavailable_reason(facts, ["env", "loader"])
    assert reason.en == "the collect_env paste does not show environment variables or the loader path (LD_LIBRARY_PATH, ld.so.conf.d)"
    assert reason.zh == "collect_env 输出中不包含环境变量和动态库搜索路径（LD_LIBRARY_PATH、ld.so.conf.d）"
    live = Facts()
    assert coverage.unavailable_reason(live, ["network"]).en == "the network interfaces could not be probed in this container"


def test_source_labels_name_the_real_source():
    live = Facts()
    paste = parse_collect_env(TORCH_PASTE)
    snap, _ = facts_from_snapshot_dict({"schema": "lingjun-check/snapshot/1"})
    label = coverage.Text("version.json", "version.json")
    assert coverage.source_label(live, "cuda.toolkit_version", label).en == "version.json"
    assert coverage.source_label(paste, "cuda.toolkit_version", label).en == "collect_env line 'CUDA runtime version'"
    assert coverage.source_label(snap, "cuda.toolkit_version", label).en == "snapshot field cuda.toolkit_version"


def test_every_section_probe_is_a_registered_probe_record_name():
    names = {spec.name for spec in load_probes()}
    assert {s.probe for s in coverage.SECTIONS.values() if s.probe} == names  # every probe fills a section, and back


def test_snapshot_schema_enumerates_the_sections():
    schema = json.loads((REPO / "checks" / "snapshot.schema.json").read_text(encoding="utf-8"))
    enum = schema["definitions"]["CoverageFacts"]["properties"]["not_available"]["items"]["enum"]
    assert enum == list(coverage.SECTIONS)


def test_every_section_key_is_a_facts_field():
    import dataclasses
    import typing

    from lingjun.checks import facts as facts_module

    for section in coverage.SECTIONS.values():
        for key in section.keys:
            cls = facts_module.Facts
            for part in key.split("."):
                fields = {f.name: f for f in dataclasses.fields(cls)}
                assert part in fields, (section.id, key)
                hint = typing.get_type_hints(cls)[part]
                inner = [a for a in typing.get_args(hint) if dataclasses.is_dataclass(a)]
                cls = hint if dataclasses.is_dataclass(hint) else (inner[0] if inner else None)
