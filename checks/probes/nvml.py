"""Probe: NVML (``libnvidia-ml.so.1``) through ctypes.

On a live system, when the loader search finds ``libnvidia-ml.so.1``, the
library is loaded and asked, in order:
``nvmlInit_v2``; on failure ``nvmlErrorString`` gives the text kept in
``init_error`` ("Driver/library version mismatch", "Unknown Error" ...).  Then
``nvmlSystemGetDriverVersion``, ``nvmlSystemGetNVMLVersion``,
``nvmlSystemGetCudaDriverVersion_v2`` (12080 = CUDA 12.8), the device count
and, per device, the name, brand (``nvmlBrandType_t`` as a lower-case name,
:data:`BRANDS`), CUDA compute capability and total memory (MiB); the UUID
only with ``--include-ids``.  MIG: ``nvmlDeviceGetMigMode`` gives each
GPU's current mode (``mig_mode``; ``NVML_ERROR_NOT_SUPPORTED`` is a GPU
without MIG: False; a driver without the call: None) and, where it is
enabled, ``nvmlDeviceGetMaxMigDeviceCount`` and
``nvmlDeviceGetMigDeviceHandleByIndex`` list the MIG devices this container
can see (``Facts.mig_devices``: parent index, running number as in
``nvidia-smi -L``, the profile from the name, ``"... MIG 3g.40gb"`` ->
``"3g.40gb"``, and the ``MIG-...`` UUID only with ``--include-ids``); at most
:data:`MAX_MIG_DEVICES` per GPU.  ``nvmlShutdown`` ends the session.  All calls
run in the probe's worker thread, bounded by the probe timeout.

Without a live system only the library's location is probed: the loader
resolution of ``libnvidia-ml.so.1`` and the driver version in its real file
name (``libnvidia-ml.so.550.144`` -> ``library_version = "550.144"``).
"""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from lingjun.checks.facts import GpuFacts, MigDeviceFacts, NvmlFacts, ProbeRecord
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
#: the most MIG devices listed per GPU (an A100/H100 has at most 7)
MAX_MIG_DEVICES = 16
_NVML_ERROR_NOT_SUPPORTED = 3
_MIG_PROFILE_RE = re.compile(r"\bMIG\s+(\S+)\s*$")


def brand_name(value: int) -> str:
    """The lower-case brand name for an ``nvmlBrandType_t`` value (``"unknown"`` for values not in the table)."""
    return BRANDS.get(value, "unknown")


@register_probe(NAME, order=80)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Locate NVML and, live, query it (see the module docstring)."""
    facts, migs = env.shared("nvml", lambda: _query(env))
    result: dict[str, Any] = {"nvml": facts}
    if facts.gpus:  # NVML answered: its MIG list is observed (empty: none visible); else nvidia-smi may tell
        result["mig_devices"] = migs
    return result


def query(env: ProbeEnv) -> NvmlFacts:
    """The NVML facts, computed once per :class:`ProbeEnv` (the nvidia-smi probe checks them first)."""
    return env.shared("nvml", lambda: _query(env))[0]


def mig_profile(name: Optional[str]) -> Optional[str]:
    """The MIG profile at the end of a MIG device's NVML name (``"NVIDIA A100-SXM4-80GB MIG 3g.40gb"`` -> ``"3g.40gb"``)."""
    match = _MIG_PROFILE_RE.search(name or "")
    return match.group(1) if match else None


def _query(env: ProbeEnv) -> "tuple[NvmlFacts, list[MigDeviceFacts]]":
    facts = NvmlFacts()
    migs: list[MigDeviceFacts] = []
    chosen = resolve(env, SONAME, search_dirs(loader_facts(env))).chosen
    if chosen is not None:
        facts.library_path = chosen.path
        facts.library_version = chosen.version
    if env.live and chosen is not None:  # dlopen would search the same directories and fail
        _query_live(env, facts, migs)
    return facts, migs


def _text(func: Any, *args: Any) -> Optional[str]:
    import ctypes  # deferred: a plain or live check never needs it

    buf = ctypes.create_string_buffer(_BUFFER)
    if func(*args, buf, ctypes.c_uint(_BUFFER)) != 0:
        return None
    return buf.value.decode("utf-8", "replace") or None


def _query_live(env: ProbeEnv, facts: NvmlFacts, migs: "list[MigDeviceFacts]") -> None:
    import ctypes  # deferred: a plain or live check never needs it

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
            gpu = _device(env, lib, index, handle)
            facts.gpus.append(gpu)
            if gpu.mig_mode:
                migs.extend(_mig_devices(env, lib, index, handle))
    finally:
        lib.nvmlShutdown()


def _device(env: ProbeEnv, lib: Any, index: int, handle: Any) -> GpuFacts:
    import ctypes  # deferred: a plain or live check never needs it

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
    gpu.mig_mode = _mig_mode(lib, handle)
    return gpu


def _mig_mode(lib: Any, handle: Any) -> Optional[bool]:
    """nvmlDeviceGetMigMode's current mode: True enabled, False disabled or not a MIG GPU, None when unknown."""
    import ctypes  # deferred: a plain or live check never needs it

    get_mode = getattr(lib, "nvmlDeviceGetMigMode", None)
    if get_mode is None:  # a driver before MIG (R450)
        return None
    current, pending = ctypes.c_uint(0), ctypes.c_uint(0)
    code = get_mode(handle, ctypes.byref(current), ctypes.byref(pending))
    if code == _NVML_ERROR_NOT_SUPPORTED:
        return False
    if code != 0:
        return None
    return current.value == 1  # NVML_DEVICE_MIG_ENABLE


def _mig_devices(env: ProbeEnv, lib: Any, gpu_index: int, handle: Any) -> "list[MigDeviceFacts]":
    """The MIG devices of one MIG-enabled GPU, numbered in enumeration order (as ``nvidia-smi -L`` numbers them)."""
    import ctypes  # deferred: a plain or live check never needs it

    get_max = getattr(lib, "nvmlDeviceGetMaxMigDeviceCount", None)
    get_mig = getattr(lib, "nvmlDeviceGetMigDeviceHandleByIndex", None)
    if get_max is None or get_mig is None:
        return []
    count = ctypes.c_uint(0)
    if get_max(handle, ctypes.byref(count)) != 0:
        return []
    found: list[MigDeviceFacts] = []
    for slot in range(min(count.value, MAX_MIG_DEVICES)):
        mig = ctypes.c_void_p()
        if get_mig(handle, ctypes.c_uint(slot), ctypes.byref(mig)) != 0:
            continue  # NVML_ERROR_NOT_FOUND: no MIG device in this slot (or not visible here)
        device = MigDeviceFacts(gpu_index=gpu_index, index=len(found), profile=mig_profile(_text(lib.nvmlDeviceGetName, mig)))
        if env.include_ids:
            device.uuid = _text(lib.nvmlDeviceGetUUID, mig)
        found.append(device)
    return found
