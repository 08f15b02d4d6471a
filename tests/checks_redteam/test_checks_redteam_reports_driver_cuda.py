"""Second set of public reports (tests/fixtures/reports), replayed through the command line with their expected verdicts.

Each input holds only what its report showed; the verdicts were written from the reports, before the checker ran.
"""

from __future__ import annotations

import re

import pytest

from checks_redteam_kit import REPO, run_json, severities

TURN2 = REPO / "tests" / "fixtures" / "reports"
ABSENCE = re.compile(r"\bis unset\b|\bnot installed\b|No cuda-compat|no /dev/nvidia|no GPU was passed|No NVIDIA driver in this container", re.I)


def _findings(report: dict, rule_id: str) -> list[dict]:
    return [f for f in report["findings"] if f["rule"] == rule_id]


def _paste(name: str, *extra: str) -> list[str]:
    return ["--from-collect-env", str(TURN2 / name), *extra]


def test_s3_a800_on_r470_with_cuda_available_is_forward_compatibility_not_an_error(monkeypatch, capsys):
    # vllm-project/vllm#15607: 8x A800, driver 470.161.03, torch 2.6.0+cu124, and the paste says Is CUDA available: True
    code, report, err = run_json(monkeypatch, capsys, *_paste("S3-vllm-15607-a800-drv470.txt"))
    assert code == 0, err
    assert [f for f in report["findings"] if f["severity"] == "error"] == []
    for rule_id in ("driver.cuda-compatibility", "cuda.torch-build-vs-driver"):
        (finding,) = _findings(report, rule_id)
        assert finding["severity"] == "warning"
        assert "only through forward compatibility" in finding["message"]
        assert "reports that CUDA is available" in finding["message"]
        assert "R470" in finding["message"] and "RNone" not in finding["message"]
    assert severities(report, "cuda.available") == ["ok"]
    assert severities(report, "driver.forward-compat-consumer-gpu") == ["skipped"]  # the paste shows no loader path
    (cuda,) = _findings(report, "driver.cuda-compatibility")
    assert "collect_env line 'CUDA runtime version'" in cuda["observed"]  # not "(version.json)"


def test_s3_with_a_release_claims_nothing_the_paste_cannot_show(monkeypatch, capsys):
    code, report, _ = run_json(monkeypatch, capsys, *_paste("S3-vllm-15607-a800-drv470.txt", "--release", "training-nv-pytorch:25.07"))
    assert [f["message"] for f in report["findings"] if ABSENCE.search(f["message"])] == []
    assert not [f for f in report["findings"] if "will not initialise" in f["message"] or "cannot run" in f["message"]]


def test_s4_vllm_format_lists_release_packages_it_does_not_name_as_not_checked(monkeypatch, capsys):
    # vllm-project/vllm#31480, vLLM's collect_env layout, checked against 25.10
    code, report, _ = run_json(monkeypatch, capsys, *_paste("S4-vllm-31480-rtxpro6000-vllmformat.txt", "--release", "training-nv-pytorch:25.10"))
    missing = _findings(report, "packages.missing")
    skipped = [f for f in missing if f["severity"] == "skipped"]
    assert len(skipped) == 1 and "were not checked" in skipped[0]["message"]
    for name in ("DeepSpeed", "Diffusers"):
        assert name in skipped[0]["message"]
    assert not [f for f in missing if f["severity"] == "warning"]
    # vLLM's paste lists every CUDA* variable, so "CUDA_VISIBLE_DEVICES is unset" is observed there (and said as such)
    assert [f["message"] for f in report["findings"] if ABSENCE.search(f["message"]) and f["rule"] != "cuda.visible-devices"] == []
    # the paste lists NVIDIA_VISIBLE_DEVICES=void next to 3 GPUs: the GPUs came another way, an info, not a warning
    assert severities(report, "cuda.visible-devices") == ["info", "ok"]
    nvd, cvd = _findings(report, "cuda.visible-devices")
    assert "NVIDIA_VISIBLE_DEVICES='void'" in nvd["message"] and "Yet 3 GPU(s) are visible" in nvd["message"]
    assert cvd["message"].startswith("CUDA_VISIBLE_DEVICES is unset")
    (driver,) = _findings(report, "driver.present")
    assert driver["severity"] == "info" and "not the driver's version" in driver["message"]


@pytest.mark.parametrize("name", ["T01-pytorch-110153-h100-sm90.txt", "T04-pytorch-130181-mig.txt"])
def test_t01_t04_with_a_release_say_no_unset_or_not_installed(monkeypatch, capsys, name):
    code, report, _ = run_json(monkeypatch, capsys, *_paste(name, "--release", "training-nv-pytorch:25.07"))
    assert [f["message"] for f in report["findings"] if ABSENCE.search(f["message"])] == []
    for rule_id in ("env.checkpoint-optimization", "env.nccl-socket-ifname-pod-size", "driver.device-nodes",
                    "driver.forward-compat-consumer-gpu"):
        assert severities(report, rule_id) == ["skipped"], rule_id
    (python,) = _findings(report, "python.interpreter")
    assert "(?)" not in python["message"] and "(?)" not in (python["observed"] or "")


def test_t01_h100_with_a_cu117_torch_has_no_sm90_kernels(monkeypatch, capsys):
    code, report, _ = run_json(monkeypatch, capsys, *_paste("T01-pytorch-110153-h100-sm90.txt"))
    (finding,) = _findings(report, "cuda.compute-capability")
    assert finding["severity"] == "error" and "sm_90" in finding["message"] and "11.8" in finding["message"]
    assert severities(report, "cuda.torch-build-vs-driver") == ["ok"]  # driver 535 is fine


def test_t07_cudnn_label_names_the_snapshot_field(monkeypatch, capsys):
    code, report, _ = run_json(monkeypatch, capsys, "--from", str(TURN2 / "T07-cog-815-cudnn.json"))
    (finding,) = _findings(report, "libraries.cudnn-shadowed")
    assert finding["severity"] == "error"
    assert "(snapshot field cudnn.expected_by_torch)" in finding["message"]
    assert "Requires-Dist" not in finding["message"]


def test_t09_nvml_baked_into_the_image(monkeypatch, capsys):
    code, report, _ = run_json(monkeypatch, capsys, "--from", str(TURN2 / "T09-libnvidia-container-266-nvml.json"))
    assert severities(report, "driver.nvml-mismatch") == ["error"]


def test_t10_unknown_driver_version_is_said_in_words(monkeypatch, capsys):
    code, report, _ = run_json(monkeypatch, capsys, "--from", str(TURN2 / "T10-deepseek-ocr-app-5-ngc2509-driver126.json"))
    (finding,) = _findings(report, "cuda.torch-build-vs-driver")
    assert finding["severity"] == "error" and "13.0" in finding["message"] and "12.6" in finding["message"]
    texts = [f["message"] for f in report["findings"]] + [f["observed"] or "" for f in report["findings"]]
    assert not [t for t in texts if re.search(r"Driver \?|\(\?\)| \? ", t)]
    assert "version unknown" in finding["message"]
    assert severities(report, "driver.cuda-compatibility") == ["skipped"]
    (cuda,) = _findings(report, "driver.cuda-compatibility")
    assert "the snapshot does not show the image's CUDA toolkit" in cuda["message"]


def test_cuda_not_available_on_a_geforce_with_r535_is_an_error_with_causes(monkeypatch, capsys, tmp_path):
    paste = tmp_path / "rtx4090.txt"
    paste.write_text("PyTorch version: 2.7.1+cu128\nCUDA used to build PyTorch: 12.8\nIs CUDA available: False\n"
                     "CUDA runtime version: 12.8.93\nGPU models and configuration: GPU 0: NVIDIA GeForce RTX 4090\n"
                     "Nvidia driver version: 535.183.01\n", encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(paste))
    assert code == 1
    (finding,) = _findings(report, "cuda.available")
    assert finding["severity"] == "error"
    assert finding["message"].startswith("CUDA is not available although a GPU and driver are visible")
    assert "error 804" in finding["message"] and "(1) NVIDIA GeForce RTX 4090 is a consumer GPU" in finding["message"]
    assert finding["i18n"]["message"]["zh"].startswith("能看到 GPU 和驱动，但 CUDA 不可用")


def test_quoted_error_lines_rank_first(monkeypatch, capsys, tmp_path):
    paste = tmp_path / "p.txt"
    paste.write_text("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 804: "
                     "forward compatibility was attempted on non supported HW\n"
                     "PyTorch version: 2.3.0+cu121\nCUDA used to build PyTorch: 12.1\nIs CUDA available: False\n"
                     "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 3090\nNvidia driver version: 550.54.14\n", encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(paste))
    (finding,) = _findings(report, "cuda.available")
    # the quoted line's signature gives the first cause (releases/troubleshooting/cuda-forward-compat-unsupported.yaml)
    first = finding["message"].split("(1) ", 1)[1].split("(2) ", 1)[0]
    assert "the input quotes: CUDA error 804" in first, first


def test_cpu_only_torch_is_the_first_cause(monkeypatch, capsys, tmp_path):
    paste = tmp_path / "p.txt"
    paste.write_text("PyTorch version: 2.5.1+cpu\nCUDA used to build PyTorch: None\nIs CUDA available: False\n"
                     "GPU models and configuration: GPU 0: NVIDIA H20\nNvidia driver version: 570.124.06\n", encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(paste))
    (finding,) = _findings(report, "cuda.available")
    assert "(1) torch 2.5.1+cpu is a CPU-only build" in finding["message"]


def test_no_cause_visible_says_so(monkeypatch, capsys, tmp_path):
    paste = tmp_path / "p.txt"
    paste.write_text("PyTorch version: 2.7.0+cu126\nCUDA used to build PyTorch: 12.6\nIs CUDA available: False\n"
                     "GPU models and configuration: GPU 0: NVIDIA H20\nNvidia driver version: 570.124.06\n", encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(paste))
    (finding,) = _findings(report, "cuda.available")
    assert "no cause is visible in this input" in finding["message"]
