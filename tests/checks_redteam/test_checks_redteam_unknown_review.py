"""Kinds a review of issue 7 found after the first round: each input claims no more than it shows (through the CLI)."""

from __future__ import annotations

import json

import pytest

from checks_redteam_kit import run_json, severities


def _paste(tmp_path, text: str, name: str = "paste.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _snapshot(tmp_path, data: dict) -> str:
    path = tmp_path / "snap.json"
    path.write_text(json.dumps({"schema": "lingjun-check/snapshot/1", **data}), encoding="utf-8")
    return str(path)


def _one(report: dict, rule_id: str) -> dict:
    (finding,) = [f for f in report["findings"] if f["rule"] == rule_id]
    return finding


A800 = ("PyTorch version: 2.6.0+cu124\nCUDA used to build PyTorch: 12.4\nIs CUDA available: True\n"
        "GPU models and configuration: GPU 0: NVIDIA A800-SXM4-80GB\nNvidia driver version: 550.54.15\n")


@pytest.mark.parametrize("gpu", ["NVIDIA A800-SXM4-80GB", "NVIDIA H20", "NVIDIA A100-SXM4-40GB"])
def test_a_partial_gpu_support_list_does_not_make_other_gpus_unsupported(monkeypatch, capsys, tmp_path, gpu):
    # 25.06's page announces new Blackwell support and lists nothing else
    paste = _paste(tmp_path, A800.replace("NVIDIA A800-SXM4-80GB", gpu))
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.06")
    finding = _one(report, "cuda.compute-capability")
    assert finding["severity"] == "ok" and "blackwell" not in finding["message"].lower()


def test_an_nvcc_older_than_the_gpu_is_about_extensions_when_torch_covers_it(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version: 2.7.0+cu128\nCUDA used to build PyTorch: 12.8\nIs CUDA available: True\n"
                             "CUDA runtime version: 12.2.140\nGPU models and configuration: GPU 0: NVIDIA B200\n"
                             "Nvidia driver version: 570.124.06\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    kinds = severities(report, "cuda.compute-capability")
    assert "error" not in kinds and "info" in kinds
    info = [f for f in report["findings"] if f["rule"] == "cuda.compute-capability" and f["severity"] == "info"][0]
    assert "CUDA extensions compiled with it cannot target this GPU" in info["message"]


@pytest.mark.parametrize("section,value", [("env", None), ("env", "garbage"), ("driver", {"kernel_module_version": "550.54.15", "device_nodes": None}),
                                           ("distributions", None), ("loader", "x")])
def test_a_section_whose_value_was_dropped_is_not_shown(monkeypatch, capsys, tmp_path, section, value):
    data = {"driver": {"kernel_module_version": "550.54.15", "device_nodes": ["/dev/nvidia0"]},
            "nvml": {"gpus": [{"index": 0, "name": "NVIDIA H20"}]}, "env": {}, "distributions": [{"name": "torch", "version": "2.7.1.8+nv25.3"}],
            "loader": {"ld_library_path": []}, "libcuda": {"path": "/usr/lib/x86_64-linux-gnu/libcuda.so.1"}}
    data[section] = value
    code, report, _ = run_json(monkeypatch, capsys, "--from", _snapshot(tmp_path, data), "--release", "training-nv-pytorch:25.07")
    messages = " | ".join(f["message"] for f in report["findings"] if f["severity"] != "skipped")
    # the other sections stay observed (env {} is observed empty); only the dropped one may not be concluded from
    claim = {"env": "is unset", "driver": "no /dev/nvidia", "distributions": "not installed",
             "loader": "No cuda-compat library on the loader path"}[section]
    assert claim not in messages
    shown = {"env": "env", "driver": "device-nodes", "distributions": "distributions", "loader": "loader"}[section]
    assert shown in report["facts"]["coverage"]["not_available"]


def test_a_variable_dropped_from_env_is_not_known_while_the_rest_is(monkeypatch, capsys, tmp_path):
    data = {"env": {"NCCL_SOCKET_IFNAME": 5, "NCCL_DEBUG": "INFO"}, "network": [{"name": "eth0", "has_ipv4": True}],
            "nvml": {"gpus": [{"index": 0, "name": "NVIDIA H20"}]}, "driver": {"kernel_module_version": "575.57.08"}}
    code, report, _ = run_json(monkeypatch, capsys, "--from", _snapshot(tmp_path, data), "--release", "training-nv-pytorch:25.07")
    assert "env" in report["facts"]["coverage"]["partial"]
    assert _one(report, "env.nccl-socket-ifname")["severity"] == "skipped"
    assert _one(report, "env.nccl-socket-ifname-pod-size")["severity"] == "skipped"


def test_a_quoted_804_is_evidence_even_without_the_loader(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 804: "
                             "forward compatibility was attempted on non supported HW\n" + A800.replace("A800-SXM4-80GB", "GeForce RTX 3090")
                             .replace("Is CUDA available: True", "Is CUDA available: False"))
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    fc = _one(report, "driver.forward-compat-consumer-gpu")
    assert fc["severity"] == "error" and "quotes CUDA error 804" in fc["message"]
    available = _one(report, "cuda.available")
    assert available["message"].count("804") == 1  # one cause, not the quote and the guess both


def test_without_the_loader_and_without_a_quote_the_rule_is_skipped(monkeypatch, capsys, tmp_path):
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", _paste(tmp_path, A800))
    assert _one(report, "driver.forward-compat-consumer-gpu")["severity"] == "skipped"


def test_a_cpu_only_cause_needs_the_cuda_line_or_a_cpu_tag(monkeypatch, capsys, tmp_path):
    no_cuda_line = _paste(tmp_path, "> PyTorch version: 2.7.1.8+nv25.3\n> Is CUDA available: False\n"
                                    "> RuntimeError: The NVIDIA driver on your system is too old (found version 11040)\n"
                                    "> GPU models and configuration: GPU 0: NVIDIA H20\n> Nvidia driver version: 470.161.03\n", "a.txt")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", no_cuda_line)
    message = _one(report, "cuda.available")["message"]
    assert "CPU-only" not in message
    first = message.split("(1) ", 1)[1].split("(2) ", 1)[0]
    assert "the input quotes: torch: the NVIDIA driver is too old" in first, first
    tagged = _paste(tmp_path, "PyTorch version: 2.5.1+cpu\nIs CUDA available: False\nGPU models and configuration: GPU 0: NVIDIA H20\n"
                              "Nvidia driver version: 570.124.06\n", "b.txt")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", tagged)
    assert "(1) torch 2.5.1+cpu is a CPU-only build" in _one(report, "cuda.available")["message"]


def test_no_gpu_cause_only_when_the_input_shows_the_gpus(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version: 2.7.0+cu126\nCUDA used to build PyTorch: 12.6\nIs CUDA available: False\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    message = _one(report, "cuda.available")["message"]
    assert "started without GPUs" not in message and "no cause is visible in this input" in message


def test_rocm_build_is_named_as_such(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version: 2.5.1+rocm6.2\nCUDA used to build PyTorch: N/A\nROCM used to build PyTorch: 6.2.41133\n"
                             "Is CUDA available: False\nGPU models and configuration: AMD Instinct MI250X\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    message = _one(report, "cuda.available")["message"]
    assert "ROCm (HIP 6.2.41133) build for AMD GPUs" in message and "started without GPUs" not in message


def test_cuda_not_available_qualifies_every_prediction_that_it_starts(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version: 2.7.1+cu128\nCUDA used to build PyTorch: 12.8\nIs CUDA available: False\n"
                             "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090\nNvidia driver version: 535.183.01\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.07")
    for rule_id in ("driver.minimum", "driver.cuda-compatibility", "cuda.torch-build-vs-driver"):
        finding = _one(report, rule_id)
        assert finding["message"].endswith("However, the collect_env paste reports that CUDA is not available: "
                                           "see cuda.available for the likely causes."), rule_id
        assert finding["i18n"]["message"]["zh"].endswith("可能的原因见 cuda.available。")


def test_an_upgrade_is_never_below_the_release_minimum(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, A800.replace("550.54.15", "535.104.12"))
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.07")
    remedies = " | ".join(f["remedy"] or "" for f in report["findings"] if f["rule"].startswith("driver."))
    assert "570.26" not in remedies
    # one driver as the fix, at or above the release minimum (575) and never an end-of-life branch (R575 is one)
    import re

    branches = set(re.findall(r"\bR(\d{3}) \(", remedies))
    assert len(branches) == 1 and int(branches.pop()) > 575 and "575 or later" not in remedies


def test_the_release_admitting_a_branch_on_data_center_gpus_is_said(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, A800.replace("A800-SXM4-80GB", "H20").replace("550.54.15", "535.183.01"))
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.08")
    finding = _one(report, "driver.minimum")
    assert finding["severity"] == "info" and "the release admits R535 (535.86 or later) on data center GPUs" in finding["message"]
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.07")
    # 25.07's own driver text is cut off: its family's neighbours decide, and the finding says so
    message = _one(report, "driver.minimum")["message"]
    assert "this release's own driver text is cut off" in message and "25.06 and 25.08 admit R535" in message


def test_the_vllm_version_line_counts_and_a_partial_list_does_not_win_the_fingerprint(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version : 2.7.1.8+nv25.3\nCUDA used to build PyTorch : 12.8\nIs CUDA available : True\n"
                             "GPU models and configuration :\nGPU 0: NVIDIA H20\nNvidia driver version : 575.57.08\n"
                             "vLLM Version                 : 0.9.2\n[pip3] transformer-engine==2.3.0+5de3e14\n"
                             "[pip3] transformers==4.51.2+ali\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    assert report["release"]["ref"] == "training-nv-pytorch:25.07"


def test_a_key_given_twice_with_different_values_is_not_known(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, A800 + "Is CUDA available: False\nNvidia driver version: 470.161.03\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste)
    assert severities(report, "cuda.available") == []
    assert report["facts"]["driver_version"] is None


def test_an_empty_environment_section_at_the_end_is_a_cut_off_paste(monkeypatch, capsys, tmp_path):
    paste = _paste(tmp_path, "PyTorch version : 2.7.1+cu128\nGPU models and configuration :\n"
                   + "".join(f"GPU {i}: NVIDIA H20\n" for i in range(8))
                   + "Nvidia driver version : 575.57.08\n==============================\n     Environment Variables\n"
                     "==============================\n")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", paste, "--release", "training-nv-pytorch:25.07")
    assert _one(report, "env.nccl-socket-ifname-pod-size")["severity"] == "skipped"


def test_an_unreadable_driver_version_is_not_called_visible(monkeypatch, capsys, tmp_path):
    data = {"driver": {"kernel_module_version": "abc", "device_nodes": ["/dev/nvidia0"]}, "nvml": {"cuda_driver_version": 10 ** 30}}
    code, report, err = run_json(monkeypatch, capsys, "--from", _snapshot(tmp_path, data))
    present = _one(report, "driver.present")
    assert present["severity"] == "warning" and "'abc' is not a driver version" in present["message"]
    assert not [f for f in report["findings"] if "1000000000000" in f["message"]]
