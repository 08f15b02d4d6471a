"""The facts that must agree between the nodes of one job, read from a node's snapshot or report.

Each fact (:data:`FACTS`) has an id, a label in both languages and, for one
node, a value that is one of:

* a JSON scalar (a version string, a count, a size in bytes, true/false): observed;
* ``None``: observed absent (no driver, no RDMA device, the variable is not set);
* :data:`UNKNOWN`: the input does not show it (a report carries only a summary;
  a snapshot without the section).  Unknown is never absent: such a node is
  neither counted with the majority nor as an outlier.

Values from a snapshot are read from the checked :class:`~lingjun.checks.facts.Facts`
(:func:`facts_values`); from a report only from its ``facts`` summary and release
(:func:`report_values`).  ``NCCL_*`` variables are facts named ``env.<NAME>``,
one per variable set on any node.  Sources of the meaning of the facts: the
NCCL environment variables <https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html>,
``getrlimit(2)`` <https://man7.org/linux/man-pages/man2/getrlimit.2.html>,
``capabilities(7)`` (CAP_IPC_LOCK) <https://man7.org/linux/man-pages/man7/capabilities.7.html>.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional

from lingjun.checks.coverage import available, driver_observed, env_known
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Text

__all__ = ["UNKNOWN", "FactSpec", "FACTS", "ENV_PREFIX", "fact_label", "absent_label", "facts_values", "nccl_env_shown", "report_values", "display"]


class _Unknown:
    """The value of a fact the input does not show (a singleton, not JSON)."""

    _instance: "Optional[_Unknown]" = None

    def __new__(cls) -> "_Unknown":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
#: fact ids of NCCL variables start with this
ENV_PREFIX = "env."


@dataclass(frozen=True)
class FactSpec:
    """A compared fact: ``id``, ``label`` and what an observed absence is called (``absent``); ``unit`` "bytes" or ""."""

    id: str
    label: Text
    absent: Text
    unit: str = ""


_NONE = Text("none", "无")
FACTS = (
    FactSpec("driver.version", Text("NVIDIA driver version", "NVIDIA 驱动版本"), Text("no driver", "无驱动")),
    FactSpec("driver.branch", Text("NVIDIA driver branch", "NVIDIA 驱动分支"), Text("no driver", "无驱动")),
    FactSpec("driver.cuda", Text("CUDA version the driver supports", "驱动支持的 CUDA 版本"), Text("no driver", "无驱动")),
    FactSpec("gpu.model", Text("GPU model", "GPU 型号"), Text("no GPU", "无 GPU")),
    FactSpec("gpu.count", Text("GPU count", "GPU 数量"), _NONE),
    FactSpec("torch.version", Text("torch version", "torch 版本"), Text("not installed", "未安装")),
    FactSpec("nccl.version", Text("NCCL / ACCL-N library version", "NCCL / ACCL-N 库版本"), Text("no library", "无此库")),
    FactSpec("release", Text("release identified", "识别出的发布版本"), Text("none identified", "未识别")),
    FactSpec("rdma.devices", Text("RDMA devices", "RDMA 设备数"), _NONE),
    FactSpec("rdma.active_ports", Text("RDMA ports ACTIVE", "处于 ACTIVE 的 RDMA 端口数"), _NONE),
    FactSpec("rdma.verbs_devices", Text("RDMA devices with their verbs node in /dev/infiniband", "在 /dev/infiniband 中有 verbs 节点的 RDMA 设备数"), _NONE),
    FactSpec("shm.size", Text("/dev/shm size", "/dev/shm 大小"), Text("no /dev/shm", "无 /dev/shm"), unit="bytes"),
    FactSpec("limits.memlock", Text("memlock limit (soft)", "memlock 限制（软）"), _NONE, unit="bytes"),
    FactSpec("limits.nofile", Text("open files limit (soft)", "打开文件数限制（软）"), _NONE),
    FactSpec("limits.cap_ipc_lock", Text("CAP_IPC_LOCK", "CAP_IPC_LOCK 权能"), _NONE),
)
_BY_ID = {spec.id: spec for spec in FACTS}
_NOT_SET = Text("not set", "未设置")


def fact_label(fact_id: str) -> Text:
    """The label of a fact id (``env.NCCL_IB_HCA`` is labelled with the variable's name)."""
    if fact_id.startswith(ENV_PREFIX):
        name = fact_id[len(ENV_PREFIX):]
        return Text(name, name)
    return _BY_ID[fact_id].label


def absent_label(fact_id: str) -> Text:
    """What an observed absence of the fact is called ("no driver", "not set")."""
    return _NOT_SET if fact_id.startswith(ENV_PREFIX) else _BY_ID[fact_id].absent


def display(fact_id: str, value: Any, lang: str) -> str:
    """``value`` of the fact as shown to a reader: sizes in MiB/GiB, -1 as unlimited, true/false as yes/no, None as absent."""
    if value is None:
        return absent_label(fact_id).get(lang)
    if isinstance(value, bool):
        return Text("yes", "是").get(lang) if value else Text("no", "否").get(lang)
    spec = _BY_ID.get(fact_id)
    if isinstance(value, int) and value == -1 and fact_id.startswith("limits."):
        return Text("unlimited", "无限制").get(lang)
    if spec is not None and spec.unit == "bytes" and isinstance(value, int):
        return _size(value)
    return str(value)


def _size(value: int) -> str:
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= factor and value % (factor // 1024 or 1) == 0:
            shown = value / factor
            return f"{shown:g} {unit}" if shown == int(shown) else f"{shown:.1f} {unit}"
    return f"{value} B"


def _cuda_text(code: Any) -> Optional[str]:
    """12080 -> "12.8" (cuDriverGetVersion / NVML's encoding: 1000 * major + 10 * minor)."""
    if isinstance(code, int) and not isinstance(code, bool) and code > 0:
        return f"{code // 1000}.{(code % 1000) // 10}"
    return None


def facts_values(facts: Facts, release_ref: Optional[str]) -> "dict[str, Any]":
    """``{fact id: value}`` of a node checked from a snapshot (see the module docstring)."""
    out: dict[str, Any] = {}
    has_driver = facts.has_nvidia_driver
    driver_absent = not has_driver and driver_observed(facts)
    version = facts.driver_version
    if version:
        out["driver.version"], out["driver.branch"] = version, version.split(".")[0]
    else:
        out["driver.version"] = out["driver.branch"] = None if driver_absent else UNKNOWN
    cuda = _cuda_text(facts.nvml.cuda_driver_version) or _cuda_text(facts.libcuda.driver_api_version) or facts.nvidia_smi.cuda_version
    out["driver.cuda"] = cuda if cuda else (None if driver_absent else UNKNOWN)
    gpus = facts.gpus
    if gpus:
        names = sorted({g.name for g in gpus if g.name})
        out["gpu.model"] = " + ".join(names) if names else UNKNOWN
        out["gpu.count"] = len(gpus)
    elif driver_absent:
        out["gpu.model"], out["gpu.count"] = None, 0
    else:
        out["gpu.model"] = out["gpu.count"] = UNKNOWN
    if facts.torch is not None and facts.torch.version:
        out["torch.version"] = facts.torch.version
    else:
        dist = facts.distribution("torch") if available(facts, "distributions") else None
        if dist is not None and dist.version:
            out["torch.version"] = dist.version
        elif available(facts, "torch") and facts.torch is None and available(facts, "distributions") and dist is None:
            out["torch.version"] = None
        else:
            out["torch.version"] = UNKNOWN
    nccl = facts.nccl
    nccl_version = (nccl.resolved.version if nccl.resolved else None) or nccl.header_version or nccl.env_version
    if nccl_version:
        out["nccl.version"] = nccl_version
    else:
        out["nccl.version"] = None if available(facts, "nccl") and not nccl.files and not nccl.resolved else UNKNOWN
    # a release not identified is "none identified" only when the image's manifest was observed (present or absent)
    out["release"] = release_ref if release_ref is not None or available(facts, "manifest") else UNKNOWN
    if available(facts, "rdma"):
        rdma = facts.rdma
        out["rdma.devices"] = len(rdma.devices)
        out["rdma.active_ports"] = sum(1 for d in rdma.devices for p in d.ports if (p.state or "").upper() == "ACTIVE")
        nodes = {os.path.basename(n) for n in rdma.uverbs_nodes}
        usable = sum(1 for d in rdma.devices if d.uverbs and d.uverbs in nodes)
        # an inaccessible /dev/infiniband (permission denied) leaves no device usable
        out["rdma.verbs_devices"] = 0 if rdma.uverbs_accessible is False else usable
    else:
        out["rdma.devices"] = out["rdma.active_ports"] = out["rdma.verbs_devices"] = UNKNOWN
    shm = facts.shm
    if available(facts, "shm") and shm.present is False:
        out["shm.size"] = None
    else:
        out["shm.size"] = shm.size_bytes if available(facts, "shm") and shm.size_bytes is not None else UNKNOWN
    limits_known = available(facts, "limits")
    limits = facts.limits
    for fact_id, value in (("limits.memlock", limits.memlock_soft), ("limits.nofile", limits.nofile_soft),
                           ("limits.cap_ipc_lock", limits.cap_ipc_lock)):
        out[fact_id] = value if limits_known and value is not None else UNKNOWN
    if available(facts, "env"):
        for name, value in facts.env.items():
            if name.startswith("NCCL_"):
                out[ENV_PREFIX + name] = value
    return out


def nccl_env_shown(facts: Facts) -> bool:
    """Whether the input shows every ``NCCL_*`` variable (the environment observed in full, or in part with the
    ``NCCL_`` prefix listed in full): then a variable it lacks is *not set*, else *not known*."""
    return env_known(facts, "NCCL_") if "NCCL_" not in facts.env else True


def report_values(report: dict) -> "dict[str, Any]":
    """``{fact id: value}`` of a node known from a JSON report: its release, and what its facts summary shows
    (driver version, GPUs, torch, NCCL); every other fact, and every value of the wrong type (a release that is not
    an object, a GPU list holding something else than objects), is :data:`UNKNOWN`."""
    out: dict[str, Any] = {spec.id: UNKNOWN for spec in FACTS}
    summary = report.get("facts") if isinstance(report.get("facts"), dict) else {}
    version = summary.get("driver_version")
    if isinstance(version, str) and version:
        out["driver.version"], out["driver.branch"] = version, version.split(".")[0]
    libcuda = summary.get("libcuda") if isinstance(summary.get("libcuda"), dict) else {}
    cuda = _cuda_text(libcuda.get("driver_api_version"))
    if cuda:
        out["driver.cuda"] = cuda
    gpus = summary.get("gpus")
    if isinstance(gpus, list) and gpus and all(isinstance(g, dict) for g in gpus):  # [null] shows no GPU: not known
        names = sorted({g.get("name") for g in gpus if isinstance(g.get("name"), str) and g.get("name")})
        if names:
            out["gpu.model"] = " + ".join(names)
        out["gpu.count"] = len(gpus)
    torch = summary.get("torch")
    if isinstance(torch, dict) and isinstance(torch.get("version"), str):
        out["torch.version"] = torch["version"]
    if isinstance(summary.get("nccl"), str) and summary["nccl"]:
        out["nccl.version"] = summary["nccl"]
    release = report.get("release")
    if isinstance(release, dict) and "ref" in release:  # "ref": null is a report that identified no release
        ref = release["ref"]
        if ref is None:
            out["release"] = None
        elif isinstance(ref, str) and ref:
            variant = release.get("variant")
            candidates = release.get("variant_candidates")
            out["release"] = release_fact(ref, variant if isinstance(variant, str) else None,
                                          [c for c in candidates if isinstance(c, str)] if isinstance(candidates, list) else [])
    return out


def release_fact(ref: str, variant: Optional[str], candidates: "list[str]") -> str:
    """The ``release`` fact of a node: the image, not only the release, so nodes on the vLLM and on the SGLang
    image of one release differ (``inference-nv-pytorch:25.04#vllm``); a variant not known is said so
    (``inference-nv-pytorch:25.04 (variant unknown: vllm or sglang)``); ``ref`` alone for a one-image release."""
    if variant:
        return f"{ref}#{variant}"
    if candidates:
        return f"{ref} (variant unknown: {' or '.join(candidates)})"
    return ref
