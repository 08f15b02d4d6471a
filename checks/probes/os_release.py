"""Probe: the container's operating system (``/etc/os-release``, else ``/usr/lib/os-release``) and kernel.

``ID``, ``VERSION_ID`` and ``PRETTY_NAME`` are read with the os-release(5)
quoting rules.  The kernel release and machine come from ``os.uname()`` live,
and from ``/proc/sys/kernel/osrelease`` under a fake root.  The host name is
recorded only with ``--include-ids``.  Fills ``host``.
"""

from __future__ import annotations

import os
import shlex
from typing import Any

from lingjun.checks.facts import HostFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "os"


def parse_os_release(text: str) -> dict[str, str]:
    """KEY=value pairs of an os-release file (quotes removed; malformed lines skipped)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        try:
            parts = shlex.split(value)
        except ValueError:
            continue
        out[key.strip()] = parts[0] if parts else ""
    return out


@register_probe(NAME, order=10)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read os-release and the kernel identity (see the module docstring)."""
    facts = HostFacts()
    for path in ("/etc/os-release", "/usr/lib/os-release"):
        try:
            fields = parse_os_release(env.open_bytes(path, 64 * 1024).decode("utf-8", "replace"))
        except OSError:
            continue
        facts.os_id = fields.get("ID") or None
        facts.os_version_id = fields.get("VERSION_ID") or None
        facts.os_pretty_name = fields.get("PRETTY_NAME") or None
        break
    if env.live:
        uname = os.uname()
        facts.kernel_release, facts.machine = uname.release, uname.machine
        if env.include_ids:
            facts.hostname = uname.nodename
    else:
        try:
            facts.kernel_release = env.open_bytes("/proc/sys/kernel/osrelease", 256).decode("utf-8", "replace").strip() or None
        except OSError:
            pass
    return {"host": facts}
