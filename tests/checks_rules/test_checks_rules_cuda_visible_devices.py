"""cuda.visible-devices: CUDA_VISIBLE_DEVICES and NVIDIA_VISIBLE_DEVICES against the container's GPUs."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.collect_env_text import parse_collect_env

RULE = "cuda.visible-devices"
H20 = ("NVIDIA H20", "nvidia", "9.0")


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def _four(**env):
    return kit.gpu_facts("570.124.06", gpus=[H20] * 4, **env)


def test_unset_is_ok_with_every_gpu():
    (f,) = _run(_four())
    assert f.severity.value == "ok" and "unset: CUDA sees every GPU of the container (the container has 4 GPU(s))" in f.message.en
    assert f.observed == "unset"


def test_unset_in_a_container_without_gpus_is_skipped_with_the_reason():
    (f,) = _run(Facts())
    assert f.severity.value == "skipped" and "no NVIDIA driver or GPU is seen in the container" in f.message.en
    (f,) = _run(Facts(env={"CUDA_VISIBLE_DEVICES": "0,0"}))  # a broken value is still reported
    assert f.severity.value == "error"


def test_a_valid_list_is_renumbered():
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES="3,1"))
    assert f.severity.value == "ok" and f.message.en == "CUDA_VISIBLE_DEVICES=3,1: CUDA sees 2 GPU(s), renumbered 0-1."


@pytest.mark.parametrize("value", ["", "-1"])
def test_empty_hides_every_gpu(value):
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES=value))
    assert f.severity.value == "warning"
    assert f"CUDA_VISIBLE_DEVICES={value!r} hides every GPU from CUDA (the container has 4 GPU(s))" in f.message.en


def test_a_repeated_entry_leaves_no_gpu():
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES="0,1,1"))
    assert f.severity.value == "error" and "names 1 twice" in f.message.en and "sees no GPU at all" in f.message.en
    assert "https://github.com/pytorch/pytorch/pull/84879" in f.links


def test_an_out_of_range_index_cuts_the_list():
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES="2,5,3"))
    assert f.severity.value == "warning"
    assert "index 5 names no GPU: the container has 4 (0-3)" in f.message.en
    assert "only 2 stay visible (as devices 0)" in f.message.en and "invalid device ordinal" in f.message.en


def test_an_out_of_range_first_entry_leaves_nothing():
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES="4"))
    assert f.severity.value == "error" and "no GPU is visible to CUDA" in f.message.en


def test_an_invalid_entry_stops_the_list():
    (f,) = _run(_four(CUDA_VISIBLE_DEVICES="0,2,-1,1"))
    assert f.severity.value == "warning"
    assert "'-1' is not a GPU index or UUID" in f.message.en and "only 0, 2 stay visible (as devices 0-1)" in f.message.en


def test_uuids_are_checked_only_when_the_input_has_them():
    facts = _four(CUDA_VISIBLE_DEVICES="GPU-abcd")
    (f,) = _run(facts)
    assert f.severity.value == "ok" and "Not compared with the container's GPUs (GPU-abcd)" in f.message.en
    for gpu, uuid in zip(facts.nvml.gpus, ("GPU-1111", "GPU-2222", "GPU-3333", "GPU-4444")):
        gpu.uuid = uuid
    (f,) = _run(facts)
    assert f.severity.value == "error" and "GPU-abcd matches no GPU of the container" in f.message.en


def test_indices_not_compared_without_the_gpu_list():
    facts = Facts(origin="snapshot", env={"CUDA_VISIBLE_DEVICES": "1,2"})
    facts.nvml.library_version = "12.570.124.06"
    facts.coverage.not_available = ["nvml", "nvidia-smi"]
    (f,) = _run(facts)
    assert f.severity.value == "ok" and "CUDA sees at most 2 GPU(s)" in f.message.en
    assert "Not compared with the container's GPUs (1, 2): the snapshot does not show the GPU list" in f.message.en


@pytest.mark.parametrize("value,words", [("void", "neither GPUs nor driver capabilities"), ("none", "driver's capabilities are")])
def test_nvidia_visible_devices_void_or_none(value, words):
    facts = Facts(env={"NVIDIA_VISIBLE_DEVICES": value})
    findings = _run(facts)
    assert kit.severities(findings) == ["warning"]  # no GPU in the container: nothing to say about CUDA_VISIBLE_DEVICES unset
    assert f"NVIDIA_VISIBLE_DEVICES='{value}' asks the NVIDIA container runtime to pass no GPU" in findings[0].message.en
    assert words in findings[0].message.en and "docker --gpus" in findings[0].remedy.en


def test_nvidia_visible_devices_void_with_gpus_anyway_is_info():
    findings = _run(_four(NVIDIA_VISIBLE_DEVICES="void"))
    assert kit.severities(findings) == ["info", "ok"] and "Yet 4 GPU(s) are visible" in findings[0].message.en


def test_a_torch_collect_env_paste_does_not_show_the_variable():
    facts = parse_collect_env("PyTorch version: 2.6.0+cu124\nGPU models and configuration: GPU 0: NVIDIA H20\n"
                              "CUDA_MODULE_LOADING set to: LAZY\n")
    (f,) = _run(facts)
    assert f.severity.value == "skipped"
    assert f.message.en == ("CUDA_VISIBLE_DEVICES was not checked: the collect_env paste does not show whether "
                            "CUDA_VISIBLE_DEVICES is set.")
