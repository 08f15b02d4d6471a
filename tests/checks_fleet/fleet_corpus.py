"""A simulated fleet: N node snapshots built from the committed fake roots, with known outliers.

The one generator behind tests/checks_fleet and bench/fleet.py.  The base
snapshot is a real probe of ``tests/fixtures/fakeroots/proprietary-x86``
(driver 570.124.06, torch, NCCL, the 25.07 release manifest) with the RDMA
section of a probe of ``rdma-roce-bond`` (two mlx5 bond devices), and what
the fake roots cannot show filled in as a live probe on a GPU node would:
eight NVIDIA H20 GPUs through NVML, ``/dev/shm`` of 16 GiB, memlock and
nofile limits, ``NCCL_SOCKET_IFNAME`` and ``NCCL_IB_HCA``.  Each node gets
its own name (``node.name``, source ``NODE_NAME``), collection time and probe
durations, which a fleet check must not mistake for differences.

Realistic size (:func:`realistic_base`): what ``lingjun-check --collect FILE`` writes in an NGC-style
training image, about 236 KB (``json.dumps(indent=2)``, as the writer does) with 520 installed distributions,
each with its ``Requires-Dist`` lines, installer and install time, as the ``distributions`` probe reads them.
``node_snapshots(..., distinct=True)`` makes every snapshot's text differ in what a real fleet's do: besides the
name, collection time and probe durations, the ``/dev/shm`` bytes in use (read by a rule's message, so every
node is checked apart unless rule runs are shared by the facts each rule reads).

Injected outliers (:func:`outlier_names`): three nodes on driver 535.161.08 (CUDA 12.2),
one without RDMA devices, one with a 64 MiB ``/dev/shm``, one with torch 2.6.0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Optional

from lingjun.checks.facts import GpuFacts, LimitsFacts, ShmFacts
from lingjun.checks.inputs.snapshot import redact
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._collect import collect

REPO = Path(__file__).resolve().parents[2]
FAKEROOTS = REPO / "tests" / "fixtures" / "fakeroots"
BASE_DRIVER, OTHER_DRIVER = "570.124.06", "535.161.08"
OTHER_TORCH = "2.6.0"
SMALL_SHM = 64 * 1024 * 1024
ENV = {"PATH": "/usr/bin:/bin", "NCCL_SOCKET_IFNAME": "eth0", "NCCL_IB_HCA": "mlx5"}


def base_snapshot() -> "dict[str, Any]":
    """The base node's snapshot dict (schema lingjun-check/snapshot/1), without a node name."""
    facts = collect(ProbeEnv(root=str(FAKEROOTS / "proprietary-x86"), environ=dict(ENV), timeout=3.0))
    facts.rdma = collect(ProbeEnv(root=str(FAKEROOTS / "rdma-roce-bond"), environ={"PATH": "/usr/bin:/bin"}, timeout=3.0)).rdma
    facts.nvml.driver_version = BASE_DRIVER
    facts.nvml.cuda_driver_version = 12080
    facts.nvml.init_ok = True
    facts.nvml.gpus = [GpuFacts(index=i, name="NVIDIA H20", compute_capability="9.0", memory_total_mib=97871) for i in range(8)]
    facts.shm = ShmFacts(present=True, size_bytes=16 * 1024 ** 3, used_bytes=0, fs_type="tmpfs", host_ipc=False)
    facts.limits = LimitsFacts(memlock_soft=-1, memlock_hard=-1, nofile_soft=1048576, nofile_hard=1048576, cap_ipc_lock=True)
    facts.coverage.not_available = [s for s in facts.coverage.not_available if s not in ("limits", "nvml")]
    return redact(facts).to_dict()


#: a few real distribution names of an NGC PyTorch image; the rest of the 520 are numbered after them
_REAL_NAMES = ("absl-py", "accelerate", "aiohttp", "annotated-types", "apex", "attrs", "black", "certifi", "charset-normalizer",
               "click", "cloudpickle", "contourpy", "cycler", "Cython", "datasets", "dill", "einops", "expecttest", "filelock",
               "flash_attn", "fonttools", "fsspec", "grpcio", "huggingface-hub", "hypothesis", "idna", "Jinja2", "jsonschema",
               "kiwisolver", "lightning-utilities", "Markdown", "MarkupSafe", "matplotlib", "mpmath", "msgpack", "networkx",
               "ninja", "numpy", "nvidia-dali-cuda120", "nvidia-modelopt", "onnx", "opencv", "optree", "packaging", "pandas",
               "pillow", "pip", "platformdirs", "pluggy", "protobuf", "psutil", "pyarrow", "pybind11", "pydantic",
               "pydantic_core", "Pygments", "pyparsing", "pytest", "python-dateutil", "pytorch-triton", "PyYAML", "regex",
               "requests", "safetensors", "scipy", "sentencepiece", "setuptools", "six", "sympy", "tensorboard",
               "tokenizers", "torchvision", "tqdm", "transformer_engine", "transformers", "typing_extensions", "urllib3",
               "wheel", "xxhash", "yarl")


def realistic_base(count: int = 520) -> "dict[str, Any]":
    """:func:`base_snapshot` with ``count`` installed distributions in all (the base's own kept), shaped as the probe
    writes them: ``Requires-Dist`` lines with specifiers and markers, installer ``pip``, an install time."""
    base = base_snapshot()
    own = list(base["distributions"])
    site = "/usr/local/lib/python3.12/dist-packages"
    extra = []
    for i in range(count - len(own)):
        name = _REAL_NAMES[i] if i < len(_REAL_NAMES) else f"{_REAL_NAMES[i % len(_REAL_NAMES)]}-ext{i // len(_REAL_NAMES)}"
        requires = [f"{_REAL_NAMES[(i * 7 + k) % len(_REAL_NAMES)]}>={1 + k % 3}.{(i + k) % 20}.0"
                    + ('; python_version >= "3.9"' if k % 2 else "; extra == \"test\"" if k % 3 == 0 else "")
                    for k in range(i % 8)]
        extra.append({"name": name, "version": f"{i % 7}.{i % 31}.{i % 11}", "location": site, "installer": "pip",
                      "requires": requires, "direct_url": None, "error": None,
                      "installed_at": f"2025-07-{1 + i % 28:02d}T0{i % 10}:1{i % 6}:2{i % 10}Z"})
    base["distributions"] = own + extra
    return base


def node_name(index: int) -> str:
    """The name of node ``index``: ``gpu-node-0000`` ..."""
    return f"gpu-node-{index:04d}"


def outlier_indexes(count: int) -> "dict[str, list[int]]":
    """Which node indexes carry which injected difference, for a fleet of ``count`` (at least 12) nodes."""
    return {"driver": [count // 7, count // 3, count // 2 + 1], "no_rdma": [count // 5], "shm": [2 * count // 3], "torch": [count - 2]}


def outlier_names(count: int) -> "dict[str, list[str]]":
    """:func:`outlier_indexes` as node names."""
    return {kind: [node_name(i) for i in indexes] for kind, indexes in outlier_indexes(count).items()}


def _other_driver(data: "dict[str, Any]") -> "dict[str, Any]":
    out = dict(data)
    for section in ("driver", "nvml", "nvidia_smi", "libcuda"):
        out[section] = json.loads(json.dumps(data[section]).replace(BASE_DRIVER, OTHER_DRIVER))
    out["nvml"]["cuda_driver_version"] = 12020  # R535 supports CUDA 12.2
    return out


def _no_rdma(data: "dict[str, Any]") -> "dict[str, Any]":
    out = dict(data)
    out["rdma"] = {"devices": [], "uverbs_nodes": [], "uverbs_accessible": None}
    return out


def _small_shm(data: "dict[str, Any]") -> "dict[str, Any]":
    out = dict(data)
    out["shm"] = dict(data["shm"], size_bytes=SMALL_SHM)
    return out


def _other_torch(data: "dict[str, Any]") -> "dict[str, Any]":
    out = dict(data)
    out["torch"] = dict(data["torch"], version=OTHER_TORCH)
    out["distributions"] = [dict(d, version=OTHER_TORCH) if d.get("name") == "torch" else d for d in data["distributions"]]
    return out


_CHANGE = {"driver": _other_driver, "no_rdma": _no_rdma, "shm": _small_shm, "torch": _other_torch}


def node_snapshots(count: int, base: Optional["dict[str, Any]"] = None, extra_distributions: int = 0,
                   distinct: bool = False) -> "list[dict[str, Any]]":
    """``count`` snapshot dicts: the base (``base`` or :func:`base_snapshot`) per node, named, with the outliers.
    ``distinct``: each node has its own ``shm.used_bytes`` (``4096 * index``), so no two texts are alike.

    ``extra_distributions`` adds that many synthetic installed distributions to every node (a
    realistic image has a few hundred), to measure with snapshots of a realistic size.
    """
    base = copy.deepcopy(base) if base is not None else base_snapshot()
    if extra_distributions:
        base["distributions"] = list(base["distributions"]) + [
            {"name": f"synthetic-pkg-{i}", "version": f"1.{i % 50}.0", "location": "/usr/local/lib/python3.12/dist-packages",
             "installer": "pip", "requires": [], "direct_url": None, "error": None, "installed_at": None}
            for i in range(extra_distributions)]
    changed = {kind: _CHANGE[kind](base) for kind in _CHANGE}
    which = {i: kind for kind, indexes in outlier_indexes(count).items() for i in indexes}
    out = []
    for i in range(count):
        data = dict(changed[which[i]] if i in which else base)
        data["collected_at"] = f"2026-11-30T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z"
        data["probes"] = [dict(p, seconds=round(0.001 * ((i + k) % 17), 3)) for k, p in enumerate(base["probes"])]
        if distinct:
            data["shm"] = dict(data["shm"], used_bytes=4096 * i)
        data["node"] = {"name": node_name(i), "source": "NODE_NAME"}
        data.pop("check_options", None)
        data["check_options"] = base.get("check_options", {})  # --collect writes it after "node"
        out.append(data)
    return out


def kubectl_log_lines(snapshots: "list[dict[str, Any]]") -> "list[str]":
    """The lines ``kubectl logs --prefix --timestamps`` prints for pods that ran ``lingjun-check --collect -``:
    per pod its snapshot line, then a line of the text report (on stderr, merged into the log)."""
    lines = []
    for i, data in enumerate(snapshots):
        prefix = f"[pod/lingjun-check-{i}-x7k2p/check] 2026-11-30T10:00:{i % 60:02d}.123456789Z "
        lines.append(prefix + json.dumps(data, separators=(",", ":")))
        lines.append(prefix + "lingjun-check 0.1.0  (facts: live)")
    return lines


def write_files(folder: Path, snapshots: "list[dict[str, Any]]") -> "list[Path]":
    """One ``<node>.json`` file per snapshot in ``folder``; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for data in snapshots:
        path = folder / f"{data['node']['name']}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(path)
    return paths
