"""Probe: NVML (``libnvidia-ml.so.1``) through ctypes.

On a live system, when the loader search finds ``libnvidia-ml.so.1``, the
library is loaded and asked, in order:
``nvmlInit_v2``; on failure ``nvmlErrorString`` gives the text kept in
``init_error`` ("Driver/library version mismatch", "Unknown Error" ...).  Then
``nvmlSystemGetDriverVersion``, ``nvmlSystemGetNVMLVersion``,
``nvmlSystemGetCudaDriverVersion_v2`` (12080 = CUDA 12.8), the device count
and, per device, the name, brand (``nvmlBrandType_t`` as a lower-case name,
:data:`BRANDS`), CUDA compute capability and total memory (MiB); the UUID
only with ``--include-ids``.  ``nvmlShutdown`` ends the session.  All calls
run in the probe's worker thread, bounded by the probe timeout.

Without a live system only the library's location is probed: the loader
resolution of ``libnvidia-ml.so.1`` and the driver version in its real file
name (``libnvidia-ml.so.550.144`` -> ``library_version = "550.144"``).
"""

from __future__ import annotations

import os
from typing import Any, Optional

from lingjun.checks.facts import GpuFacts, NvmlFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.libcuda import mapped_path
from lingjun.checks.probes.loader import loader_facts, resolve, search_dirs, version_from_name

NAME = "nvml"
SONAME = "libnvidia-ml.so.1"

#: nvmlBrandType_t values -> lower-case names (NVML API, https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html)
BRANDS = {
    0: "unknown",
    1: "quadro",
    2: "tesla",
    3: "nvs",
    4: "grid",
    5: "geforce",
    6: "titan",
    7: "nvidia-vapps",
    8: "nvidia-vpc",
    9: "nvidia-vcs",
    10: "nvidia-vws",
    11: "nvidia-cloud-gaming",
    12: "quadro-rtx",
    13: "nvidia-rtx",
    14: "nvidia",
    15: "geforce-rtx",
    16: "titan-rtx",
}

_BUFFER = 96


def brand_name(value: int) -> str:
    """The lower-case brand name for an ``nvmlBrandType_t`` value (``"unknown"`` for values not in the table)."""
    return BRANDS.get(value, "unknown")


@register_probe(NAME, order=80)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Locate NVML and, live, query it (see the module docstring)."""
    return {"nvml": query(env)}


def query(env: ProbeEnv) -> NvmlFacts:
    """The NVML facts, computed once per :class:`ProbeEnv` (the nvidia-smi probe checks them first)."""
    return env.shared("nvml", lambda: _query(env))


def _query(env: ProbeEnv) -> NvmlFacts:
    facts = NvmlFacts()
    chosen = resolve(env, SONAME, search_dirs(loader_facts(env))).chosen
    if chosen is not None:
        facts.library_path = chosen.path
        facts.library_version = chosen.version
    if env.live and chosen is not None:  # dlopen would search the same directories and fail
        _query_live(env, facts)
    return facts


def _text(func: Any, *args: Any) -> Optional[str]:
    import ctypes

    buf = ctypes.create_string_buffer(_BUFFER)
    if func(*args, buf, ctypes.c_uint(_BUFFER)) != 0:
        return None
    return buf.value.decode("utf-8", "replace") or None


def _query_live(env: ProbeEnv, facts: NvmlFacts) -> None:
    import ctypes

    try:
        lib = ctypes.CDLL(SONAME)
    except OSError:
        return
    loaded = mapped_path("libnvidia-ml.so")
    if loaded:
        facts.library_path = loaded
        facts.library_version = version_from_name(os.path.basename(os.path.realpath(loaded))) or facts.library_version
    lib.nvmlErrorString.restype = ctypes.c_char_p
    init = getattr(lib, "nvmlInit_v2", None) or lib.nvmlInit
    code = init()
    if code != 0:
        facts.init_ok = False
        message = lib.nvmlErrorString(code)
        facts.init_error = message.decode("utf-8", "replace") if message else f"NVML error {code}"
        return
    facts.init_ok = True
    try:
        facts.driver_version = _text(lib.nvmlSystemGetDriverVersion)
        facts.library_version = _text(lib.nvmlSystemGetNVMLVersion) or facts.library_version
        cuda = ctypes.c_int(0)
        get_cuda = getattr(lib, "nvmlSystemGetCudaDriverVersion_v2", None) or getattr(lib, "nvmlSystemGetCudaDriverVersion", None)
        if get_cuda is not None and get_cuda(ctypes.byref(cuda)) == 0 and cuda.value > 0:
            facts.cuda_driver_version = cuda.value
        count = ctypes.c_uint(0)
        get_count = getattr(lib, "nvmlDeviceGetCount_v2", None) or lib.nvmlDeviceGetCount
        if get_count(ctypes.byref(count)) != 0:
            return
        get_handle = getattr(lib, "nvmlDeviceGetHandleByIndex_v2", None) or lib.nvmlDeviceGetHandleByIndex
        for index in range(count.value):
            handle = ctypes.c_void_p()
            if get_handle(ctypes.c_uint(index), ctypes.byref(handle)) != 0:
                facts.gpus.append(GpuFacts(index=index))
                continue
            facts.gpus.append(_device(env, lib, index, handle))
    finally:
        lib.nvmlShutdown()


def _device(env: ProbeEnv, lib: Any, index: int, handle: Any) -> GpuFacts:
    import ctypes

    class _Memory(ctypes.Structure):  # nvmlMemory_t
        _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]

    gpu = GpuFacts(index=index, name=_text(lib.nvmlDeviceGetName, handle))
    brand = ctypes.c_int(-1)
    if lib.nvmlDeviceGetBrand(handle, ctypes.byref(brand)) == 0:
        gpu.brand = brand_name(brand.value)
    major, minor = ctypes.c_int(0), ctypes.c_int(0)
    if lib.nvmlDeviceGetCudaComputeCapability(handle, ctypes.byref(major), ctypes.byref(minor)) == 0:
        gpu.compute_capability = f"{major.value}.{minor.value}"
    memory = _Memory()
    if lib.nvmlDeviceGetMemoryInfo(handle, ctypes.byref(memory)) == 0:
        gpu.memory_total_mib = int(memory.total // (1024 * 1024))
    if env.include_ids:
        gpu.uuid = _text(lib.nvmlDeviceGetUUID, handle)
    return gpu
