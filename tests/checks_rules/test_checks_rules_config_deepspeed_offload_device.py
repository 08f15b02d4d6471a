"""config.deepspeed-offload-device: cpu, nvme (with nvme_path) or none."""

from __future__ import annotations

from deepspeed_rules_kit import run

RULE = "config.deepspeed-offload-device"


def _zero(**sections):
    return {"zero_optimization": {"stage": 3, **sections}}


def test_unknown_device_is_an_error(tmp_path):
    (f,) = run(RULE, tmp_path, _zero(offload_optimizer={"device": "gpu"}))
    assert f.severity.value == "error"
    assert "zero_optimization.offload_optimizer.device is 'gpu'; DeepSpeed accepts only 'cpu', 'nvme', 'none'" in f.message.en


def test_nvme_needs_a_path(tmp_path):
    (f,) = run(RULE, tmp_path, _zero(offload_param={"device": "nvme"}))
    assert f.severity.value == "error" and "nvme_path is not set" in f.message.en


def test_valid_devices_are_ok(tmp_path):
    (f,) = run(RULE, tmp_path, _zero(offload_optimizer={"device": "cpu"}, offload_param={"device": "nvme", "nvme_path": "/local_nvme"}))
    assert f.severity.value == "ok"
    assert f.observed == "zero_optimization.offload_optimizer.device=cpu, zero_optimization.offload_param.device=nvme"


def test_no_offload_says_nothing(tmp_path):
    assert run(RULE, tmp_path, _zero()) == []
