"""Probe: ``/dev/shm`` (size, use, file system type) and whether the container shares the host's IPC namespace.

NCCL's shared-memory transport and PyTorch's DataLoader workers put their
buffers in ``/dev/shm``; Docker and Kubernetes give a container 64 MiB there
unless told otherwise.  Fills :class:`~lingjun.checks.facts.ShmFacts`:

* ``present``: ``/dev/shm`` is a directory (False: observed absent).  With
  ``--root`` a folder without ``dev/shm`` gives None: the container runtime
  mounts ``/dev/shm`` when the container starts.
* ``size_bytes`` / ``used_bytes``: ``os.statvfs`` of the directory
  (``f_blocks * f_frsize`` and ``(f_blocks - f_bfree) * f_frsize``).  With
  ``--root`` the directory under the root is measured, and only when it is a
  mount point of its own (a container's ``/proc/<pid>/root``, a test's tmpfs):
  a plain folder in an unpacked image tells nothing about the size the
  container will get, so the sizes stay None (not known).
* ``fs_type``: the file system of the mount that holds ``/dev/shm`` in
  ``/proc/self/mountinfo`` (the last, i.e. topmost, entry with the longest
  mount point that contains it; ``"tmpfs"`` normally).  With ``--root``:
  this process's mount table entry *at* the measured directory (it is
  measured on this host, so this host's table describes it), else the
  ``/proc/self/mountinfo`` the root carries (a fake root's); None when
  neither names it.
* ``host_ipc``: live only.  The kernel gives the initial (host) IPC namespace
  the fixed inode number ``0xEFFFFFFF`` (``PROC_IPC_INIT_INO`` in
  ``include/linux/proc_ns.h``, https://github.com/torvalds/linux/blob/master/include/linux/proc_ns.h),
  so ``/proc/self/ns/ipc`` reading ``ipc:[4026531839]`` means the container
  shares the host's IPC namespace (``docker --ipc=host``, ``hostIPC: true``)
  and any other number means it does not.  (Comparing with ``/proc/1/ns/ipc``
  would tell only where pid 1 is the host's init, i.e. with ``hostPID``; inside
  a PID namespace pid 1 is the container's own init and always matches.)  None
  when the link cannot be read (gVisor, a restricted ``/proc``) or with
  ``--root`` (a folder does not show which namespace its processes run in).

Every call is a single system call on a local path: the probe is bounded by
the collector's deadline like every other one.
"""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord, ShmFacts
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "shm"
SHM = "/dev/shm"
#: inode number of the initial IPC namespace (PROC_IPC_INIT_INO, include/linux/proc_ns.h)
PROC_IPC_INIT_INO = 0xEFFFFFFF

_NS_RE = re.compile(r"^ipc:\[(\d+)\]$")
_OCTAL_RE = re.compile(r"\\([0-7]{3})")


def _unescape(field: str) -> str:
    return _OCTAL_RE.sub(lambda m: chr(int(m.group(1), 8)), field)


def parse_mountinfo(text: str) -> list[tuple[str, str]]:
    """``[(mount_point, fs_type)]`` in file order from ``/proc/<pid>/mountinfo`` text; malformed lines are skipped.

    Format (proc(5)): ``id parent major:minor root mount_point options [optional...] - fs_type source super_options``;
    octal escapes (``\\040`` for a space) in the mount point are decoded.
    """
    mounts: list[tuple[str, str]] = []
    for line in text.splitlines():
        left, sep, right = line.partition(" - ")
        cols = left.split()
        if not sep or len(cols) < 6 or not right.split():
            continue
        mounts.append((_unescape(cols[4]), right.split()[0]))
    return mounts


def fs_type_of(mounts: list[tuple[str, str]], path: str, exact: bool = False) -> Optional[str]:
    """File system type of the mount holding ``path``: the topmost entry with the longest mount point containing it.

    ``exact``: only a mount *at* ``path`` counts.  None when no entry matches.
    """
    best: Optional[tuple[int, str]] = None
    for point, fs_type in mounts:  # later entries are mounted over earlier ones: ">=" keeps the last
        if point == path or (not exact and (point == "/" or path.startswith(point.rstrip("/") + "/"))):
            if best is None or len(point) >= best[0]:
                best = (len(point), fs_type)
    return best[1] if best else None


def host_ipc_from_link(link: Optional[str]) -> Optional[bool]:
    """Whether the IPC namespace link text of ``/proc/self/ns/ipc`` (``"ipc:[4026531839]"``) is the host's namespace.

    None when ``link`` is None (unreadable) or not an ipc namespace link.
    """
    match = _NS_RE.match(link or "")
    if not match:
        return None
    return int(match.group(1)) == PROC_IPC_INIT_INO


def _readlink(path: str) -> Optional[str]:
    try:
        return os.readlink(path)
    except OSError:
        return None


def _read(env: ProbeEnv, path: str) -> Optional[str]:
    try:
        return env.open_bytes(path, 4 * 1024 * 1024).decode("utf-8", "replace")
    except OSError:
        return None


@register_probe(NAME, order=170)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Measure ``/dev/shm`` and tell the IPC namespace (see the module docstring)."""
    facts = ShmFacts()
    host = env.host_path(SHM)
    facts.present = os.path.isdir(host) or (None if not env.live else False)
    if facts.present and (env.live or os.path.ismount(host)):
        try:
            st = os.statvfs(host)
        except OSError as exc:
            record.error = f"statvfs {SHM}: {exc.strerror or exc}"
        else:
            facts.size_bytes = st.f_blocks * st.f_frsize
            facts.used_bytes = (st.f_blocks - st.f_bfree) * st.f_frsize
    if facts.present:
        if env.live:
            facts.fs_type = fs_type_of(parse_mountinfo(_read(env, "/proc/self/mountinfo") or ""), SHM)
        else:
            try:  # the directory is measured on this host: this host's mount at it first
                with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
                    mine = fh.read(4 * 1024 * 1024)
            except OSError:
                mine = ""
            facts.fs_type = fs_type_of(parse_mountinfo(mine), os.path.realpath(host), exact=True)
            if facts.fs_type is None:  # else a mount table the root carries
                facts.fs_type = fs_type_of(parse_mountinfo(_read(env, "/proc/self/mountinfo") or ""), SHM)
    if env.live:
        facts.host_ipc = host_ipc_from_link(_readlink("/proc/self/ns/ipc"))
    return {"shm": facts}
