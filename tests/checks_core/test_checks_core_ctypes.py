"""The live ctypes paths of the NVML and libcuda probes, against small fake driver libraries compiled here.

The fakes implement the entry points the probes call with fixed answers
(an "NVIDIA H20", brand 2 = tesla, CUDA 12.8, cuInit failing with 804), so the
argument marshalling and the decoding are exercised without a GPU.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from checks_core_helpers import run_cli

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build the fake driver libraries")

NVML_C = r"""
#include <string.h>
typedef struct { unsigned long long total, free, used; } mem_t;
int nvmlInit_v2(void) { return 0; }
int nvmlShutdown(void) { return 0; }
const char *nvmlErrorString(int c) { return "Driver/library version mismatch"; }
int nvmlSystemGetDriverVersion(char *b, unsigned n) { strncpy(b, "570.124.06", n); return 0; }
int nvmlSystemGetNVMLVersion(char *b, unsigned n) { strncpy(b, "12.570.124.06", n); return 0; }
int nvmlSystemGetCudaDriverVersion_v2(int *v) { *v = 12080; return 0; }
int nvmlDeviceGetCount_v2(unsigned *c) { *c = 2; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void **h) { *h = (void *)(long)(i + 1); return 0; }
int nvmlDeviceGetName(void *h, char *b, unsigned n) { strncpy(b, "NVIDIA H20", n); return 0; }
int nvmlDeviceGetBrand(void *h, int *t) { *t = 2; return 0; }
int nvmlDeviceGetCudaComputeCapability(void *h, int *a, int *b) { *a = 9; *b = 0; return 0; }
int nvmlDeviceGetMemoryInfo(void *h, mem_t *m) { m->total = 97871ULL * 1024 * 1024; m->free = 0; m->used = 0; return 0; }
int nvmlDeviceGetUUID(void *h, char *b, unsigned n) { strncpy(b, "GPU-11111111-2222", n); return 0; }
"""

NVML_FAILING_C = r"""
int nvmlInit_v2(void) { return 18; }
int nvmlShutdown(void) { return 0; }
const char *nvmlErrorString(int c) { return c == 18 ? "Driver/library version mismatch" : "Unknown Error"; }
"""

CUDA_C = r"""
int cuDriverGetVersion(int *v) { *v = 12080; return 0; }
int cuInit(unsigned f) { return 804; }
int cuGetErrorName(int c, const char **s) { *s = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"; return 0; }
"""


def _build(tmp_path, name, source, real_name):
    src = tmp_path / f"{real_name}.c"
    src.write_text(source)
    real = tmp_path / real_name
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(real), str(src)], check=True)
    (tmp_path / name).symlink_to(real_name)


def test_live_nvml_and_libcuda_through_ctypes(tmp_path):
    _build(tmp_path, "libnvidia-ml.so.1", NVML_C, "libnvidia-ml.so.570.124.06")
    _build(tmp_path, "libcuda.so.1", CUDA_C, "libcuda.so.570.124.06")
    snap = tmp_path / "facts.json"
    result = run_cli("--format", "json", "--collect", str(snap), env={"LD_LIBRARY_PATH": str(tmp_path)})
    assert result.returncode in (0, 1), result.stderr
    facts = json.loads(snap.read_text())
    nvml = facts["nvml"]
    assert nvml["init_ok"] is True
    assert nvml["library_path"] == str(tmp_path / "libnvidia-ml.so.570.124.06") or nvml["library_path"].endswith("libnvidia-ml.so.1")
    assert (nvml["driver_version"], nvml["library_version"], nvml["cuda_driver_version"]) == ("570.124.06", "12.570.124.06", 12080)
    assert [(g["index"], g["name"], g["brand"], g["compute_capability"], g["memory_total_mib"], g["uuid"]) for g in nvml["gpus"]] == [
        (0, "NVIDIA H20", "tesla", "9.0", 97871, None),
        (1, "NVIDIA H20", "tesla", "9.0", 97871, None),
    ]
    cuda = facts["libcuda"]
    assert cuda["driver_api_version"] == 12080
    assert cuda["init_error"] == "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"
    assert cuda["file_version"] == "570.124.06"
    assert cuda["candidates"][0] == str(tmp_path / "libcuda.so.1")
    assert facts["nvidia_smi"]["available"] is None  # NVML answered: nvidia-smi is not run


def test_live_nvml_init_failure_text(tmp_path):
    _build(tmp_path, "libnvidia-ml.so.1", NVML_FAILING_C, "libnvidia-ml.so.550.144")
    snap = tmp_path / "facts.json"
    result = run_cli("--format", "json", "--collect", str(snap), env={"LD_LIBRARY_PATH": str(tmp_path)})
    assert result.returncode in (0, 1), result.stderr
    nvml = json.loads(snap.read_text())["nvml"]
    assert (nvml["init_ok"], nvml["init_error"], nvml["library_version"]) == (False, "Driver/library version mismatch", "550.144")
