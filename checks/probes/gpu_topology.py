"""Probe: how the GPUs are connected, from the matrix ``nvidia-smi topo -m`` prints.

``nvidia-smi topo -m`` prints one row and one column per GPU (and per NIC), each cell the path between
the two devices: ``X`` (itself), ``NV#`` (a bonded set of # NVLinks), ``PIX`` (at most one PCIe bridge),
``PXB`` (several PCIe bridges, no host bridge), ``PHB`` (through a PCIe host bridge, typically the CPU),
``NODE`` (between host bridges within one NUMA node) and ``SYS`` (across the SMP interconnect between NUMA
nodes, QPI/UPI); drivers before R384 printed ``SOC`` for ``SYS``.  :func:`parse_matrix` reads the first matrix
of the output into :class:`~lingjun.checks.facts.GpuTopologyFacts`: the GPU indexes and, per pair of GPUs,
its link (NIC columns and the affinity columns are not kept).  It splits on any whitespace (tabs, or the
spaces a pasted copy has), stops at the first line after the matrix that is not one of its rows (the
legend, a second ``topo -p2p`` matrix) and keeps a cell only when it is one of the words above.

Runs like the ``nvidia-smi`` probe: looked for on ``PATH`` (inside the root when it is not ``/``), none
found is ``available = False``; one found inside a root other than ``/`` is not run unless
``--run-root-programs``; the call has a hard deadline (the probe timeout, at most :data:`MAX_SECONDS`) and its
process group is killed at the deadline, so a wedged driver cannot keep the checker waiting.  Unlike that
probe it runs when NVML answered too: NVML's topology calls are not wrapped here.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.checks.facts import GpuLinkFacts, GpuTopologyFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.nvidia_smi import find_executable, run_bounded

NAME = "gpu-topology"
#: the longest the call may take, seconds
MAX_SECONDS = 3.0
#: the most GPUs read from one matrix (a matrix wider than this is cut, the rest named in the probe's record)
MAX_GPUS = 64
#: the most characters of output read
MAX_CHARS = 256 * 1024

_DEVICE_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]*\d$")
_GPU_RE = re.compile(r"^GPU(\d+)$")
_LINK_RE = re.compile(r"^(X|NV\d{1,3}|PIX|PXB|PHB|NODE|SYS|SOC)$")


def _header(tokens: list[str]) -> Optional[list[str]]:
    """The device column names of a header line (``GPU0 GPU1 NIC0 CPU Affinity ...`` -> the first three), or None
    when the line is not a matrix header (its first name is not ``GPU0``)."""
    names: list[str] = []
    for token in tokens:
        if not _DEVICE_RE.match(token):
            break
        names.append(token)
    return names if names and names[0] == "GPU0" else None


def parse_matrix(text: str) -> tuple[list[int], list[GpuLinkFacts], bool]:
    """``(gpus, links, cut)`` from ``nvidia-smi topo -m`` output: the GPU indexes of the first matrix, one link per
    pair of GPUs (``gpu_a`` < ``gpu_b``, the first cell read for the pair; ``SOC`` stored as ``SYS``), and whether
    GPUs past :data:`MAX_GPUS` were left out.  Empty lists when the text holds no matrix; never raises for a str."""
    columns: Optional[list[str]] = None
    links: dict[tuple[int, int], str] = {}
    gpus: list[int] = []
    cut = False
    for line in text[:MAX_CHARS].splitlines():
        tokens = line.split()
        if columns is None:
            columns = _header(tokens)
            continue
        if not tokens or tokens[0] not in columns:
            break  # the legend, a blank line or a second matrix: the first matrix is over
        row = _GPU_RE.match(tokens[0])
        if row is None:
            continue  # a NIC row
        a = int(row.group(1))
        if a in gpus:
            continue
        if len(gpus) >= MAX_GPUS:
            cut = True
            continue
        gpus.append(a)
        for name, cell in zip(columns, tokens[1:]):
            column = _GPU_RE.match(name)
            if column is None or not _LINK_RE.match(cell):
                continue
            b = int(column.group(1))
            if b == a or cell == "X":
                continue
            key = (min(a, b), max(a, b))
            links.setdefault(key, "SYS" if cell == "SOC" else cell)
    known = set(gpus)
    kept = [GpuLinkFacts(gpu_a=a, gpu_b=b, link=link) for (a, b), link in sorted(links.items()) if a in known and b in known]
    return gpus, kept, cut


@register_probe(NAME, order=200)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read ``nvidia-smi topo -m`` (see the module docstring)."""
    executable = find_executable(env)
    if executable is None:
        return {"gpu_topology": GpuTopologyFacts(available=False, error="nvidia-smi not found on PATH")}
    if not env.may_run_programs:
        record.error = "not run: nvidia-smi found on PATH inside --root; programs there run only with --run-root-programs"
        return {"gpu_topology": GpuTopologyFacts(available=None, error=record.error)}
    budget = min(env.timeout, MAX_SECONDS)
    try:
        code, out, timed_out = run_bounded([executable, "topo", "-m"], budget)
    except OSError as exc:
        return {"gpu_topology": GpuTopologyFacts(available=False, error=f"cannot run nvidia-smi: {exc.strerror or exc}")}
    if timed_out:
        record.timed_out = True
        record.ok = False
        record.error = f"nvidia-smi topo -m did not answer within {budget:g} s"
        return {"gpu_topology": GpuTopologyFacts(available=None, error=record.error)}
    if code != 0:
        first = (out.strip().splitlines() or [f"exit status {code}"])[0][:200]
        return {"gpu_topology": GpuTopologyFacts(available=False, error=first)}
    gpus, links, cut = parse_matrix(out)
    if not gpus:
        return {"gpu_topology": GpuTopologyFacts(available=False, error="nvidia-smi topo -m printed no GPU matrix")}
    if cut:
        record.error = f"read the links of the first {MAX_GPUS} GPUs of the matrix"
    return {"gpu_topology": GpuTopologyFacts(available=True, gpus=gpus, links=links)}
