"""Probe: resource limits of this process (``RLIMIT_MEMLOCK``, ``RLIMIT_NOFILE``) and ``CAP_IPC_LOCK``.

RDMA registers (pins) memory, which counts against ``RLIMIT_MEMLOCK`` unless
the process holds ``CAP_IPC_LOCK``; NCCL and DataLoader workers open many
files and sockets, which count against ``RLIMIT_NOFILE``.  Fills
:class:`~lingjun.checks.facts.LimitsFacts`:

* ``memlock_soft`` / ``memlock_hard``: ``resource.getrlimit(RLIMIT_MEMLOCK)``
  in bytes; ``nofile_soft`` / ``nofile_hard``: ``RLIMIT_NOFILE`` as a count.
  ``RLIM_INFINITY`` becomes -1 (unlimited).  getrlimit(2):
  https://man7.org/linux/man-pages/man2/getrlimit.2.html
* ``cap_ipc_lock``: bit 14 (``CAP_IPC_LOCK``, capabilities(7):
  https://man7.org/linux/man-pages/man7/capabilities.7.html) of the
  hexadecimal ``CapEff:`` line of ``/proc/self/status``.
* ``uid`` (effective, ``Uid:``), ``caps_dropped`` (``CapBnd:`` is 0: the container's securityContext dropped ALL)
  and ``no_new_privs`` (``NoNewPrivs:``) of the same file (proc(5):
  https://man7.org/linux/man-pages/man5/proc_pid_status.5.html): who the check ran as, so a report says when
  that is not who the workload runs as.

Only live (root ``/``): the limits and capabilities are those of the process
that runs the checker, which is the inspected system only when that system
is this one.  With any other ``--root`` the probe returns nothing, so the
``limits`` section is *not available* (rules that need it are skipped with the
reason), and the probe's record says why.  Started inside the container the same way
as the workload (``docker exec``, ``kubectl exec``), the checker inherits the
container's limits; a shell that raised or lowered its own ``ulimit`` first
shows those instead.
"""

from __future__ import annotations

import resource
from typing import Any, Optional

from lingjun.checks.facts import LimitsFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "limits"
#: CAP_IPC_LOCK's bit in the capability sets (include/uapi/linux/capability.h)
CAP_IPC_LOCK = 14

NOT_LIVE = "not known with --root: resource limits and capabilities are this process's, not the inspected system's"


def rlimit_value(value: int) -> int:
    """A ``getrlimit`` value with ``RLIM_INFINITY`` mapped to -1."""
    return -1 if value == resource.RLIM_INFINITY or value < 0 else int(value)


def _status_field(text: str, name: str) -> Optional[str]:
    """The value of the ``name:`` line of ``/proc/<pid>/status`` text (stripped), None when it is missing."""
    for line in text.splitlines():
        if line.startswith(name + ":"):
            return line[len(name) + 1:].strip()
    return None


def identity_from_status(text: str) -> tuple[Optional[int], Optional[bool], Optional[bool]]:
    """``(effective uid, every capability dropped from the bounding set, no_new_privs)`` from ``/proc/<pid>/status``
    text (proc(5): ``Uid:`` real, effective, saved, filesystem; ``CapBnd:`` hexadecimal; ``NoNewPrivs:`` 0 or 1,
    since Linux 4.10); each None when its line is missing or not a number."""
    uid = bounding = no_new = None
    parts = (_status_field(text, "Uid") or "").split()
    if len(parts) >= 2 and parts[1].isdigit() and len(parts[1]) <= 10:
        uid = int(parts[1])
    cap = _status_field(text, "CapBnd")
    if cap is not None and cap and len(cap) <= 16 and all(c in "0123456789abcdefABCDEF" for c in cap):
        bounding = int(cap, 16) == 0
    flag = _status_field(text, "NoNewPrivs")
    if flag in ("0", "1"):
        no_new = flag == "1"
    return uid, bounding, no_new


def cap_from_status(text: str, bit: int = CAP_IPC_LOCK) -> Optional[bool]:
    """Whether ``bit`` is set in the ``CapEff:`` line of ``/proc/<pid>/status`` text; None when the line is missing or bad."""
    for line in text.splitlines():
        if line.startswith("CapEff:"):
            try:
                return bool((int(line.split(":", 1)[1].strip(), 16) >> bit) & 1)
            except ValueError:
                return None
    return None


@register_probe(NAME, order=180)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read this process's limits and effective capabilities, live only (see the module docstring)."""
    facts = LimitsFacts()
    if not env.live:
        record.error = NOT_LIVE
        return {}
    try:
        import resource  # optional: absent on some platforms
    except ImportError:  # pragma: no cover - not on Linux
        record.error = "the resource module is not available"
        return {}
    for attr, limit in (("memlock", "RLIMIT_MEMLOCK"), ("nofile", "RLIMIT_NOFILE")):
        try:
            soft, hard = resource.getrlimit(getattr(resource, limit))
        except (AttributeError, OSError, ValueError):
            continue
        setattr(facts, f"{attr}_soft", rlimit_value(soft))
        setattr(facts, f"{attr}_hard", rlimit_value(hard))
    try:
        status = env.open_bytes("/proc/self/status", 64 * 1024).decode("utf-8", "replace")
    except OSError:
        status = ""
    facts.cap_ipc_lock = cap_from_status(status)
    facts.uid, facts.caps_dropped, facts.no_new_privs = identity_from_status(status)
    return {"limits": facts}
