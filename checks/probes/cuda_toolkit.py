"""Probe: the CUDA toolkit in the image and its forward-compatibility package.

Sources, in order (the files a CUDA toolkit installs; ``compat`` as in
https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html):

* ``/usr/local/cuda/version.json``: ``{"cuda": {"version": "12.8.1"}, ...}`` (CUDA >= 11.1);
* ``/usr/local/cuda/version.txt``: ``CUDA Version 11.0.207`` (older toolkits);
* ``/usr/local/cuda/include/cuda.h``: ``#define CUDA_VERSION 12080`` (major.minor
  only; toolkits assembled from pip wheels carry no version file);
* env ``CUDA_VERSION`` (``12.8.0.038`` in NGC framework images) and
  ``CUDA_DRIVER_VERSION`` (the bundled compat user-mode driver, ``570.86.10``);
* ``/usr/local/cuda/compat`` (also ``compat/lib`` and ``compat/lib.real``):
  the version in the name of the ``libcuda.so.<version>`` found there.

Fills ``cuda``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Optional

from lingjun.checks.facts import CudaFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.loader import version_from_name

NAME = "cuda-toolkit"
CUDA_HOME = "/usr/local/cuda"

_HEADER_RE = re.compile(r"^\s*#\s*define\s+CUDA_VERSION\s+([0-9]{1,18})(?![0-9])", re.MULTILINE)
_TXT_RE = re.compile(r"CUDA Version\s+(\d+\.\d+(?:\.\d+)*)")


def _toolkit(env: ProbeEnv) -> tuple[Optional[str], Optional[str]]:
    path = CUDA_HOME + "/version.json"
    try:
        data = json.loads(env.open_bytes(path, 256 * 1024).decode("utf-8", "replace"))
        version = data.get("cuda", {}).get("version") if isinstance(data, dict) else None
        if isinstance(version, str) and version.strip():
            return version.strip(), path
    except (OSError, ValueError, AttributeError):
        pass
    path = CUDA_HOME + "/version.txt"
    try:
        match = _TXT_RE.search(env.open_bytes(path, 4096).decode("utf-8", "replace"))
        if match:
            return match.group(1), path
    except OSError:
        pass
    path = CUDA_HOME + "/include/cuda.h"
    try:
        match = _HEADER_RE.search(env.open_bytes(path, 64 * 1024).decode("utf-8", "replace"))  # defined near the top
        if match and int(match.group(1)) >= 1000:
            major, rest = divmod(int(match.group(1)), 1000)
            return f"{major}.{rest // 10}", path
    except OSError:
        pass
    return None, None


def _compat(env: ProbeEnv) -> tuple[Optional[str], Optional[str]]:
    compat = CUDA_HOME + "/compat"
    if not env.isdir(compat):
        return None, None
    for directory in (compat, compat + "/lib", compat + "/lib.real"):
        versions = [version_from_name(n) for n in env.listdir(directory) if n.startswith("libcuda.so.")]
        versions = [v for v in versions if v]
        if versions:
            return compat, versions[0]
        if env.exists(directory + "/libcuda.so.1"):
            real = env.real_path(directory + "/libcuda.so.1")
            version = version_from_name(real.rsplit("/", 1)[-1])
            if version:
                return compat, version
    return compat, None


@register_probe(NAME, order=110)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read the toolkit version files, env and compat directory (see the module docstring)."""
    version, version_file = _toolkit(env)
    compat_dir, compat_version = _compat(env)
    return {
        "cuda": CudaFacts(
            toolkit_version=version,
            version_file=version_file,
            env_cuda_version=env.environ.get("CUDA_VERSION") or None,
            env_compat_driver_version=env.environ.get("CUDA_DRIVER_VERSION") or None,
            compat_dir=compat_dir,
            compat_libcuda_version=compat_version,
        )
    }
