"""Probe: the ``libcuda.so.1`` the dynamic loader resolves, and its driver API version.

Every directory of the loader search order (:mod:`lingjun.checks.probes.loader`)
holding ``libcuda.so.1`` is a candidate; the first one is what a process
loads.  The version is read from the real file name after following links
(``libcuda.so.570.124.06``).  A file under a ``compat`` directory
(``/usr/local/cuda/compat``, ``/usr/local/cuda-12.8/compat/lib.real``) or a
``cuda-compat`` path is the forward-compatibility user-mode driver.

On a live system (root ``/``), when the search above found the library, it
is also loaded with ctypes:
``cuDriverGetVersion`` (works without ``cuInit``; 12080 means CUDA 12.8) and
``cuInit(0)``, whose failure is kept as ``"CUDA_ERROR_... (code)"``: 803 and
804 are the forward-compatibility failures.  The path the process really
mapped (``/proc/self/maps``) then replaces the simulated choice.  ctypes calls
run inside the probe's worker thread, so a hanging driver costs at most the
probe timeout.
"""

from __future__ import annotations

import os
from typing import Any, Optional

from lingjun.checks.facts import LibcudaFacts, ProbeRecord
from lingjun.checks.core.compat import is_compat_path
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.loader import loader_facts, resolve, search_dirs, version_from_name

NAME = "libcuda"
SONAME = "libcuda.so.1"


def mapped_path(fragment: str) -> Optional[str]:
    """The path of a shared object mapped into this process whose name contains ``fragment`` (``/proc/self/maps``)."""
    try:
        with open("/proc/self/maps", "r", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parts = line.split(None, 5)
                if len(parts) == 6 and fragment in parts[5].rsplit("/", 1)[-1]:
                    return parts[5].strip()
    except OSError:
        return None
    return None


def _cuda_error(lib: Any, code: int) -> str:
    import ctypes  # deferred: a plain or live check never needs it

    name = ctypes.c_char_p()
    try:
        lib.cuGetErrorName(code, ctypes.byref(name))
        text = name.value.decode("ascii", "replace") if name.value else "CUDA error"
    except (AttributeError, OSError):
        text = "CUDA error"
    return f"{text} ({code})"


@register_probe(NAME, order=100)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Resolve ``libcuda.so.1`` and, live, ask it for its version (see the module docstring)."""
    resolution = resolve(env, SONAME, search_dirs(loader_facts(env)))
    facts = LibcudaFacts(candidates=[c.path for c in resolution.candidates])
    chosen = resolution.chosen
    if chosen is not None:
        facts.path = chosen.path
        facts.real_path = env.real_path(chosen.path)
        facts.file_version = chosen.version
    if env.live and chosen is not None:  # dlopen would search the same directories and fail
        _query_live(facts)
    facts.is_forward_compat = is_compat_path(facts.path, facts.real_path) if facts.path else None
    return {"libcuda": facts}


def _query_live(facts: LibcudaFacts) -> None:
    import ctypes  # deferred: a plain or live check never needs it

    try:
        lib = ctypes.CDLL(SONAME)
    except OSError:
        return
    loaded = mapped_path("libcuda.so")
    if loaded:
        facts.path = loaded
        facts.real_path = os.path.realpath(loaded)
        facts.file_version = version_from_name(os.path.basename(facts.real_path)) or facts.file_version
    version = ctypes.c_int(0)
    try:
        if lib.cuDriverGetVersion(ctypes.byref(version)) == 0 and version.value > 0:
            facts.driver_api_version = version.value
    except AttributeError:
        pass
    try:
        code = lib.cuInit(0)
    except AttributeError:
        return
    if code != 0:
        facts.init_error = _cuda_error(lib, code)
