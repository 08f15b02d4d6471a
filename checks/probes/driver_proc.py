"""Probe: the NVIDIA kernel module version from ``/proc/driver/nvidia/version``.

The first line has one of two shapes (source: the sed expression of
``/opt/nvidia/entrypoint.d/50-gpu-driver-check.sh`` in NGC containers,
https://catalog.ngc.nvidia.com/orgs/nvidia/containers/pytorch)::

    NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Tue Feb 11 ...
    NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.58.02  Release Build  (dvs-builder@...)  ...

aarch64 hosts print ``aarch64`` instead of ``x86_64``; vGPU guests may add
``(VirtualGPU)``.  The version is the first token after ``Kernel Module`` and
an optional ``for <arch>``.  Fills ``driver.kernel_module_version``,
``driver.kernel_module_flavor`` (``"proprietary"``/``"open"``) and
``driver.proc_version_error`` (``"absent"``, ``"permission denied"``,
``"unrecognised format"``...).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv, describe_os_error

NAME = "driver-proc"
PATH = "/proc/driver/nvidia/version"

_NVRM_RE = re.compile(r"^NVRM.*?(Open )?Kernel Module(?: for [A-Za-z0-9_]+| ) *([^() \t]+)")
_VERSION_RE = re.compile(r"^\d{2,4}(?:\.\d{1,4}){0,3}$")


def parse_nvrm(text: str) -> tuple[Optional[str], Optional[str]]:
    """``(version, flavor)`` from the text of ``/proc/driver/nvidia/version``; ``(None, None)`` when not recognised.

    >>> parse_nvrm("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Tue Feb 11 2025")
    ('570.124.06', 'proprietary')
    >>> parse_nvrm("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release Build")
    ('580.95.05', 'open')
    """
    for line in text.splitlines():
        match = _NVRM_RE.match(line.strip())
        if match and _VERSION_RE.match(match.group(2)):
            return match.group(2), ("open" if match.group(1) else "proprietary")
    return None, None


@register_probe(NAME, order=60)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read and parse the kernel module version file (see the module docstring)."""
    try:
        text = env.open_bytes(PATH, 64 * 1024).decode("utf-8", errors="replace")
    except OSError as exc:
        return {"driver.proc_version_error": describe_os_error(exc)}
    version, flavor = parse_nvrm(text)
    if version is None:
        return {"driver.proc_version_error": "unrecognised format"}
    return {"driver.kernel_module_version": version, "driver.kernel_module_flavor": flavor}
