"""Probe: ``nvidia-smi``, the fallback when NVML through ctypes gave nothing.

Runs ``nvidia-smi --query-gpu=driver_version,name,compute_cap,memory.total[,uuid,pci.bus_id] --format=csv,noheader,nounits``
with a hard deadline (the probe timeout, at most :data:`MAX_SECONDS`).  The
child runs in its own session and the whole process group is killed on
timeout, so a wedged driver (or a script that spawned ``sleep``) cannot keep
the checker waiting.  ``[N/A]`` fields become None.  The CUDA version is not
in the query output; it is taken from the banner of a plain ``nvidia-smi``
only when the first call succeeded quickly.  After it, time allowing,
``nvidia-smi -L`` lists the MIG devices (``  MIG 3g.40gb     Device  0: (UUID:
MIG-...)`` under their ``GPU N:`` line, :func:`parse_list`): they fill
``Facts.mig_devices`` (UUID only with ``--include-ids``) and set
``mig_mode = True`` on their parent GPU.  A GPU without MIG lines keeps
``mig_mode = None``: MIG may be enabled with no instance created, and ``-L``
does not say.

Skipped (``available = None``) when NVML already answered with GPUs.  Looked
for on ``PATH`` (inside the root when it is not ``/``): none found is
``available = False``.  One found inside a root other than ``/`` is not run
(``available = None``, the reason in ``error``) unless ``--run-root-programs``
(:attr:`ProbeEnv.may_run_programs`): a folder under inspection must not get
to run a program on the host.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any, Optional

from lingjun.checks.facts import GpuFacts, MigDeviceFacts, ProbeRecord, SmiFacts
from lingjun.checks.probes import nvml
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._mig import parse_mig_line

NAME = "nvidia-smi"
#: the longest any nvidia-smi call may take, seconds
MAX_SECONDS = 3.0

_FIELDS = ["driver_version", "name", "compute_cap", "memory.total"]
_ID_FIELDS = ["uuid", "pci.bus_id"]
_CUDA_RE = re.compile(r"CUDA Version\s*:\s*(\d+\.\d+)")
_LIST_GPU_RE = re.compile(r"^GPU\s+(\d+)\s*:")
#: the most MIG devices kept from one listing
MAX_MIG_DEVICES = 64


def find_executable(env: ProbeEnv, name: str = "nvidia-smi") -> Optional[str]:
    """Host path of ``name`` on ``PATH`` (dirs taken inside the root when not live), or None."""
    for directory in env.environ.get("PATH", "/usr/bin:/bin").split(":"):
        if not directory:
            continue
        host = env.host_path(directory.rstrip("/") + "/" + name)
        if os.path.isfile(host) and os.access(host, os.X_OK):
            return host
    return None


def run_bounded(argv: list[str], seconds: float) -> tuple[Optional[int], str, bool]:
    """Run ``argv``; ``(returncode, stdout, timed_out)``.  The process group is killed at the deadline.

    Raises:
        OSError: when the program cannot be started.
    """
    import signal  # deferred: not every check needs it
    import subprocess  # deferred: not every check needs it

    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        try:
            proc.communicate(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        return None, "", True
    return proc.returncode, out.decode("utf-8", "replace"), False


def _value(text: str) -> Optional[str]:
    text = text.strip()
    return None if not text or text.startswith("[") or text in ("N/A", "Not Supported") else text


def parse_query(text: str, with_ids: bool) -> tuple[Optional[str], list[GpuFacts]]:
    """``(driver_version, gpus)`` from the CSV output of the query above."""
    driver: Optional[str] = None
    gpus: list[GpuFacts] = []
    for index, line in enumerate(l for l in text.splitlines() if l.strip()):
        cols = [c.strip() for c in line.split(",")]
        if len(cols) < len(_FIELDS):
            continue
        driver = driver or _value(cols[0])
        gpu = GpuFacts(index=index, name=_value(cols[1]), compute_capability=_value(cols[2]))
        memory = _value(cols[3])
        if memory:
            try:
                gpu.memory_total_mib = int(float(memory.split()[0]))
            except ValueError:
                pass
        if with_ids and len(cols) >= len(_FIELDS) + 2:
            gpu.uuid, gpu.pci_bus_id = _value(cols[4]), _value(cols[5])
        gpus.append(gpu)
    return driver, gpus


def parse_list(text: str, with_ids: bool) -> list[MigDeviceFacts]:
    """The MIG devices in ``nvidia-smi -L`` output, each under the ``GPU N:`` line above it (``gpu_index`` None when
    no GPU line came first); UUIDs only ``with_ids``; at most :data:`MAX_MIG_DEVICES`."""
    migs: list[MigDeviceFacts] = []
    parent: Optional[int] = None
    for line in text.splitlines():
        gpu = _LIST_GPU_RE.match(line.strip())
        if gpu:
            parent = int(gpu.group(1))
            continue
        mig = parse_mig_line(line)
        if mig and len(migs) < MAX_MIG_DEVICES:
            migs.append(MigDeviceFacts(gpu_index=parent, index=mig[1], profile=mig[0], uuid=mig[2] if with_ids else None))
    return migs


def _run_optional(argv: list[str], seconds: float) -> Optional[str]:
    """stdout of a follow-up call when it succeeds within ``seconds``; None otherwise."""
    if seconds <= 0.5:
        return None
    try:
        code, out, _ = run_bounded(argv, seconds)
    except OSError:
        return None
    return out if code == 0 else None


@register_probe(NAME, order=90)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Ask nvidia-smi when NVML did not answer (see the module docstring)."""
    try:
        if nvml.query(env).gpus:
            return {"nvidia_smi": SmiFacts()}
    except Exception:  # NVML failures are the nvml probe's to report
        pass
    executable = find_executable(env)
    if executable is None:
        return {"nvidia_smi": SmiFacts(available=False, error="not found on PATH")}
    if not env.may_run_programs:  # said in the report's probe list too (ok: nothing failed)
        record.error = "not run: found on PATH inside --root; programs there run only with --run-root-programs"
        return {"nvidia_smi": SmiFacts(available=None, error=record.error)}
    fields = _FIELDS + (_ID_FIELDS if env.include_ids else [])
    argv = [executable, "--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"]
    budget = min(env.timeout, MAX_SECONDS)
    started = time.monotonic()
    try:
        code, out, timed_out = run_bounded(argv, budget)
    except OSError as exc:
        return {"nvidia_smi": SmiFacts(available=False, error=f"cannot run: {exc.strerror or exc}")}
    if timed_out:
        record.timed_out = True
        record.ok = False
        record.error = f"nvidia-smi did not answer within {budget:g} s"
        return {"nvidia_smi": SmiFacts(available=True, timed_out=True, error=record.error)}
    facts = SmiFacts(available=True)
    if code != 0:
        facts.error = (out.strip().splitlines() or [f"exit status {code}"])[0][:200]
        return {"nvidia_smi": facts}
    facts.driver_version, facts.gpus = parse_query(out, env.include_ids)
    result: dict[str, Any] = {"nvidia_smi": facts}
    banner = _run_optional([executable], budget - (time.monotonic() - started))  # the CUDA version first: rules rely on it
    if banner is not None:
        match = _CUDA_RE.search(banner)
        facts.cuda_version = match.group(1) if match else None
    listing = _run_optional([executable, "-L"], budget - (time.monotonic() - started))
    if listing is None:
        record.error = "nvidia-smi -L gave no answer in the time left: MIG devices not known"
    else:
        migs = parse_list(listing, env.include_ids)
        result["mig_devices"] = migs
        parents = {m.gpu_index for m in migs}
        for gpu in facts.gpus:
            if gpu.index in parents:
                gpu.mig_mode = True
    return result
