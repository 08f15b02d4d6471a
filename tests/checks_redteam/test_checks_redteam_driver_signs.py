"""Facts.has_nvidia_driver: every sign of a driver a probe, a snapshot or a collect_env paste can carry opens the GPU rules."""

from __future__ import annotations

import pytest

from lingjun.checks.facts import Facts, GpuFacts


def test_no_sign_means_no_driver():
    assert Facts().has_nvidia_driver is False


@pytest.mark.parametrize("fill", [
    lambda f: f.nvml.gpus.append(GpuFacts(index=0, name="NVIDIA GeForce RTX 5090", compute_capability="12.0")),
    lambda f: f.nvidia_smi.gpus.append(GpuFacts(index=0, name="Tesla T4")),
    lambda f: setattr(f.libcuda, "driver_api_version", 11000),  # "driver too old (found version 11000)"
    lambda f: setattr(f.nvml, "init_error", "Driver/library version mismatch"),
    lambda f: setattr(f.nvml, "library_version", "565.57"),
    lambda f: setattr(f.libcuda, "init_error", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"),
    lambda f: setattr(f.nvidia_smi, "cuda_version", "12.0"),
])
def test_each_sign_of_a_driver_counts(fill):
    facts = Facts()
    fill(facts)
    assert facts.has_nvidia_driver is True


def test_a_zero_driver_api_version_is_not_a_sign():
    facts = Facts()
    facts.libcuda.driver_api_version = 0
    assert facts.has_nvidia_driver is False
