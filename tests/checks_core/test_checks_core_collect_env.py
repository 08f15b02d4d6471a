"""Parsing pasted ``python -m torch.utils.collect_env`` output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from checks_core_helpers import run_cli
from lingjun.checks.inputs.collect_env_text import CollectEnvError, parse_collect_env

DATA = Path(__file__).parent / "data"


def _parse(name: str):
    return parse_collect_env((DATA / name).read_text(encoding="utf-8"), name)


def test_multi_gpu_paste_with_cudnn_candidates():
    facts = _parse("collect_env_a100_cudnn_list.txt")
    assert facts.origin == "collect_env"
    assert (facts.torch.version, facts.torch.cuda, facts.torch.debug) == ("2.3.0+cu121", "12.1", False)
    assert (facts.host.os_id, facts.host.os_version_id, facts.host.machine) == ("ubuntu", "20.04", "x86_64")
    assert facts.host.kernel_release == "5.4.0-187-generic"
    assert facts.python.version == "3.9.19"
    assert facts.cuda.toolkit_version == "12.0"  # nvcc 12.0.140 is CUDA 12.0
    assert [g.name for g in facts.gpus] == ["NVIDIA A100-SXM4-40GB"] * 4
    assert [g.index for g in facts.gpus] == [0, 1, 2, 3]
    assert facts.nvidia_smi.driver_version == "550.54.14" and facts.driver_version == "550.54.14"
    assert facts.has_nvidia_driver
    assert [(f.path, f.version) for f in facts.cudnn.files] == [("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.0.0", "9.0.0")]
    assert facts.env == {"CUDA_MODULE_LOADING": "LAZY"}
    # conda duplicates of pip names are dropped; a paste records no installer (pip lists every package)
    assert {d.name: (d.version, d.installer) for d in facts.distributions} == {
        "numpy": ("1.26.4", None), "nvidia-nccl-cu12": ("2.20.5", None), "torch": ("2.3.0", None), "triton": ("2.3.0", None)}


def test_inline_gpu_and_single_cudnn_path():
    facts = _parse("collect_env_t4_inline.txt")
    assert [(g.index, g.name, g.brand) for g in facts.gpus] == [(0, "Tesla T4", "tesla")]
    assert facts.nvidia_smi.driver_version == "418.67"
    assert facts.torch.debug is True
    assert facts.cuda.toolkit_version == "10.1"
    assert facts.cudnn.files[0].version == "7.6.5"
    assert facts.python.version == "3.6"


def test_rocm_paste_has_no_nvidia_facts():
    facts = _parse("collect_env_rocm_2020.txt")
    assert facts.torch.hip == "3.7.20315-077bcfa0" and facts.torch.cuda is None
    assert facts.gpus == [] and not facts.has_nvidia_driver
    listed = {d.name: d.version for d in facts.distributions}
    assert {name: listed.get(name) for name in ("blas", "mkl")} == {"blas": "1.0", "mkl": "2020.2"}


def test_windows_cpu_paste():
    facts = _parse("collect_env_windows_cpu.txt")
    assert facts.torch.version == "2.8.0.dev20250528+cpu" and facts.torch.cuda is None
    assert facts.gpus == [] and facts.nvidia_smi.driver_version is None and facts.cudnn.files == []
    assert facts.python.version == "3.10.17"
    assert facts.host.os_pretty_name.startswith("Microsoft Windows 11")


def test_vllm_sectioned_layout_and_env_section():
    facts = _parse("collect_env_vllm_sections.txt")
    assert facts.torch.version == "2.7.0+cu126" and facts.torch.cuda == "12.6"
    assert [(g.name, g.brand) for g in facts.gpus] == [("NVIDIA GeForce RTX 4090", "geforce")] * 2
    assert facts.nvidia_smi.driver_version == "570.133.07"
    assert facts.python.version == "3.12.11"
    assert facts.env == {
        "CUDA_MODULE_LOADING": "LAZY",
        "NCCL_CUMEM_ENABLE": "0",
        "NCCL_SOCKET_IFNAME": "eth0",
        "PYTORCH_NVML_BASED_CUDA_CHECK": "1",
    }  # HF_TOKEN and non-allow-listed names dropped
    assert facts.distribution("nvidia-cudnn-cu12").version == "9.5.1.17"


@pytest.mark.parametrize("text", ["", "hello world\nthis is not it\n", "\x00\x01binary", "Traceback (most recent call last):\n  File x\nImportError: no torch\n"])
def test_garbage_is_a_clear_error(text):
    with pytest.raises(CollectEnvError, match="does not look like the output"):
        parse_collect_env(text, "paste.txt")


def test_cli_from_collect_env(tmp_path):
    result = run_cli("--from-collect-env", str(DATA / "collect_env_vllm_sections.txt"), "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["origin"] == "collect_env"
    assert report["facts"]["driver_version"] == "570.133.07"
    assert report["facts"]["gpus"][0]["name"] == "NVIDIA GeForce RTX 4090"
    bad = tmp_path / "bad.txt"
    bad.write_text("nothing useful")
    result = run_cli("--from-collect-env", str(bad))
    assert result.returncode == 3 and "does not look like the output" in result.stderr
