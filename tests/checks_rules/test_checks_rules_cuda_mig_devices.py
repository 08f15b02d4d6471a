"""cuda.mig-devices: one MIG device per process; MIG mode with no MIG device."""

from __future__ import annotations

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, MigDeviceFacts

RULE = "cuda.mig-devices"
A100 = ("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def _mig(n, **env):
    facts = kit.gpu_facts("535.161.08", gpus=[A100], **env)
    facts.nvml.gpus[0].mig_mode = True
    facts.mig_devices = [MigDeviceFacts(gpu_index=0, index=i, profile="3g.40gb") for i in range(n)]
    return facts


def test_no_mig_says_nothing():
    assert _run(kit.gpu_facts("535.161.08", gpus=[A100])) == []


def test_two_mig_devices_without_a_selection_is_a_warning():
    (f,) = _run(_mig(2))
    assert f.severity.value == "warning"
    assert f.message.en.startswith("2 MIG devices are visible to one process: 3g.40gb (GPU 0 device 0), 3g.40gb (GPU 0 device 1) "
                                   "and CUDA_VISIBLE_DEVICES is not set.")
    assert "DDP across the MIG slices of one process is not possible" in f.message.en
    assert "CUDA_VISIBLE_DEVICES=MIG-<uuid>" in f.remedy.en
    assert f.links[-1] == "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/mig-device-names.html"


def test_a_snapshot_without_the_environment_says_the_selection_is_not_shown():
    facts = _mig(2)
    facts.origin = "snapshot"
    facts.coverage.not_available = ["env"]
    (f,) = _run(facts)
    assert f.severity.value == "warning" and "(the snapshot lists them)" in f.message.en
    assert "whether CUDA_VISIBLE_DEVICES selects one is not shown by the snapshot" in f.message.en


def test_one_mig_uuid_selected_is_ok():
    (f,) = _run(_mig(2, CUDA_VISIBLE_DEVICES="MIG-4c5a-0001"))
    assert f.severity.value == "ok" and f.message.en == "CUDA_VISIBLE_DEVICES selects one MIG device (MIG-4c5a-0001)."


def test_several_mig_uuids_selected_is_a_warning():
    (f,) = _run(_mig(2, CUDA_VISIBLE_DEVICES="MIG-aaaa,MIG-bbbb"))
    assert f.severity.value == "warning" and "CUDA_VISIBLE_DEVICES lists 2 MIG devices (MIG-aaaa, MIG-bbbb)" in f.message.en


def test_index_selection_does_not_pick_a_mig_device():
    (f,) = _run(_mig(3, CUDA_VISIBLE_DEVICES="0"))
    assert f.severity.value == "warning" and "3 MIG devices" in f.message.en
    assert "CUDA_VISIBLE_DEVICES=0 names no MIG device" in f.message.en


def test_one_mig_device_is_ok():
    (f,) = _run(_mig(1))
    assert f.severity.value == "ok" and f.message.en == "One MIG device is visible: 3g.40gb (GPU 0 device 0)."


def test_mig_mode_without_devices_is_a_warning_only_when_observed():
    (f,) = _run(_mig(0))
    assert f.severity.value == "warning" and "MIG mode is enabled on GPU 0 (NVIDIA A100-SXM4-80GB), but no MIG device" in f.message.en
    partial = _mig(0)
    partial.coverage.partial = ["mig"]
    assert _run(partial) == []


def test_missing_mig_section_is_skipped():
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = ["mig"]
    (f,) = _run(facts)
    assert f.severity.value == "skipped" and f.message.en == "The snapshot does not show the MIG devices."


def test_unknown_or_negative_parents_are_left_out_not_shown_as_question_marks():
    from lingjun.checks.facts import MigDeviceFacts

    facts = kit.gpu_facts("570.124.06", gpus=[("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")])
    facts.mig_devices = [MigDeviceFacts(gpu_index=None, index=-1, profile="3g.40gb"), MigDeviceFacts(gpu_index=0, index=1, profile="3g.40gb")]
    findings = kit.run("cuda.mig-devices", kit.context(facts))
    text = " ".join(f.message.en + f.message.zh for f in findings)
    assert "?" not in text and "-1" not in text
    assert "3g.40gb (GPU 0 device 1)" in text
