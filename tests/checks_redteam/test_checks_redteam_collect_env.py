"""collect_env pastes as people post them: fragments, truncations, other platforms."""

from __future__ import annotations

import pytest

from lingjun.checks.inputs.collect_env_text import CollectEnvError, parse_collect_env


def test_a_fragment_of_only_package_lines_is_read():
    # rwth-i6/returnn#1802 quotes just these two lines of collect_env
    facts = parse_collect_env("[pip3] nvidia-nccl-cu11==2.14.3\n[pip3] nvidia-nccl-cu12==2.27.3\n")
    assert [(d.name, d.version, d.installer) for d in facts.distributions] == [
        ("nvidia-nccl-cu11", "2.14.3", None), ("nvidia-nccl-cu12", "2.27.3", None)]


def test_conda_lines_alone_are_read():
    facts = parse_collect_env("[conda] pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch\n")
    assert [(d.name, d.version, d.installer) for d in facts.distributions] == [("pytorch", "2.1.0", None)]


@pytest.mark.parametrize("text", ["", "hello world\n", "Length: 31107 (30K) [text/plain]\n", "[pip3] \n"])
def test_text_without_collect_env_keys_or_packages_is_refused(text):
    with pytest.raises(CollectEnvError):
        parse_collect_env(text)


ROCM_PASTE = (
    "PyTorch version: 2.4.0+rocm6.1\nIs debug build: False\nCUDA used to build PyTorch: N/A\n"
    "ROCM used to build PyTorch: 6.1.40091-a8dbc0c19\n\nOS: Ubuntu 22.04.4 LTS (x86_64)\n"
    "GPU models and configuration: AMD Instinct MI300X (gfx942:sramecc+:xnack-)\nNvidia driver version: Could not collect\n"
)


def test_rocm_paste_lists_no_nvidia_gpu_and_no_driver():
    facts = parse_collect_env(ROCM_PASTE)
    assert facts.torch.hip == "6.1.40091-a8dbc0c19"
    assert facts.gpus == [] and facts.has_nvidia_driver is False


def test_amd_gpu_lines_are_not_nvidia_gpus_even_in_a_cuda_paste():
    facts = parse_collect_env("CUDA used to build PyTorch: 12.1\nGPU models and configuration: \nGPU 0: AMD Radeon RX 7900 XTX\n"
                              "GPU 1: NVIDIA GeForce RTX 4090\n")
    assert [g.name for g in facts.gpus] == ["NVIDIA GeForce RTX 4090"]


def test_a_paste_quoted_in_a_reply_is_read():
    facts = parse_collect_env("> PyTorch version: 2.3.0+cu121\n> CUDA used to build PyTorch: 12.1\n>> Nvidia driver version: 470.57.02\n"
                              "> GPU models and configuration: GPU 0: Tesla V100-SXM2-32GB\n> [pip3] torch==2.3.0\n")
    assert facts.torch.version == "2.3.0+cu121" and facts.driver_version == "470.57.02"
    assert [g.name for g in facts.gpus] == ["Tesla V100-SXM2-32GB"]


def test_a_utf16_paste_from_powershell_is_read(monkeypatch, capsys, tmp_path):
    from checks_redteam_kit import run_json, severities

    path = tmp_path / "env.txt"
    # Windows PowerShell 5 writes `python -m torch.utils.collect_env > env.txt` as UTF-16LE with a byte order mark
    path.write_bytes("PyTorch version: 2.1.0+cu121\r\nCUDA used to build PyTorch: 12.1\r\nNvidia driver version: 472.12\r\n"
                     .encode("utf-16"))
    code, report, err = run_json(monkeypatch, capsys, "--from-collect-env", str(path))
    assert report is not None, err
    assert severities(report, "cuda.torch-build-vs-driver") == ["error"] and code == 1


def test_a_version_past_the_integer_digit_limit_is_unreadable_not_a_crash(tmp_path, capsys):
    """A 5,000-digit version (past int()'s 4,300-digit limit) is no version; the check still reports."""
    from lingjun.checks.cli import main
    from lingjun.checks.core.version_match import parse_version, same_version

    huge = "9" * 5000
    assert parse_version(huge) is None and same_version("2.7.1", huge) is None
    paste = tmp_path / "paste.txt"
    paste.write_text(f"PyTorch version: {huge}\nIs CUDA available: False\n", encoding="utf-8")
    assert main(["--from-collect-env", str(paste), "--release", "training-nv-pytorch:25.07", "--format", "json"]) in (0, 1, 2)
    assert "internal error" not in capsys.readouterr().err
