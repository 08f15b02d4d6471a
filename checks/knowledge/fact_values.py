"""The value of each fact a condition may test (:data:`lingjun.checks.core.condition_facts.FACTS`), or unknown.

:func:`fact_value` reads one fact from the probed facts and, where they do not show it, from what the
user's logs state (:class:`~lingjun.checks.evidence.Evidence`): an NCCL version printed in the log, the
GPU and compute capability named in torch's compatibility warning or vLLM's quantization error.  Some facts only a
log states (the capability a quantization method needs, the library a traceback runs through, the interfaces
NCCL's sockets use, the CUDA_HOME a failing path shows): those are read from the log alone.  The result says where the value
came from, so a finding can say "shown by the log".  Unknown is not absent: a fact the input does not
carry is :data:`UNKNOWN`, never ``0`` or ``False``.

Where the container runs (``place``): ``kubernetes`` when the environment shows the service variables
every pod gets (``KUBERNETES_SERVICE_HOST``,
https://kubernetes.io/docs/concepts/services-networking/service/#environment-variables) or the log is
``kubectl logs --prefix`` output; ``acs`` when it also shows an Alibaba Cloud ACS marker (an
``ALIBABA_CLOUD_`` / ``ACS_`` variable); ``docker`` when the environment was read in full and shows
neither (a container started by ``docker run``); unknown otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

from lingjun.checks.core.compat import GPU_DATACENTER, gpu_class
from lingjun.checks.core.gpu_arch import covers, parse_cc
from lingjun.checks.core.gpu_models import compute_capability_from_name
from lingjun.checks.coverage import OBSERVED, available, driver_observed, env_known, state
from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.torch_build import cpu_build_state
from lingjun.checks.report.findings import Text

__all__ = ["UNKNOWN", "FactValue", "fact_value", "place"]


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


#: the value of a fact the input does not show
UNKNOWN: Any = _Unknown()

_FROM_INPUT = Text("", "")
_FROM_LOG = Text("shown by the log", "日志中显示")


@dataclass(frozen=True)
class FactValue:
    """A fact's value (:data:`UNKNOWN` when not shown) and where it came from (empty: the input's facts;
    "shown by the log": a log line, ``line`` its ``file:number``)."""

    value: Any
    source: Text = _FROM_INPUT
    line: Optional[str] = None

    @property
    def known(self) -> bool:
        """Whether the input shows the fact."""
        return self.value is not UNKNOWN


def _logged(evidence: Optional[Evidence], name: str) -> FactValue:
    stated = evidence.value(name) if evidence is not None else None
    if stated is None:
        return FactValue(UNKNOWN)
    return FactValue(stated.value, _FROM_LOG, stated.line.where())


def _shm_size(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.shm.size_bytes is None or facts.shm.size_bytes < 0:
        return FactValue(UNKNOWN)
    return FactValue(facts.shm.size_bytes)


def _host_ipc(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return FactValue(UNKNOWN if facts.shm.host_ipc is None else facts.shm.host_ipc)


def _memlock(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return FactValue(UNKNOWN if facts.limits.memlock_soft is None else facts.limits.memlock_soft)


def _ipc_lock(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return FactValue(UNKNOWN if facts.limits.cap_ipc_lock is None else facts.limits.cap_ipc_lock)


def _rdma_devices(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.rdma.devices or state(facts, "rdma") == OBSERVED:
        return FactValue(len(facts.rdma.devices))
    logged = _logged(evidence, "nccl.ib_devices")
    return logged


def _uverbs(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.rdma.uverbs_nodes or state(facts, "rdma") == OBSERVED:
        return FactValue(len(facts.rdma.uverbs_nodes))
    return FactValue(UNKNOWN)


def _erdma(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if not facts.rdma.devices:
        return FactValue(UNKNOWN)
    return FactValue(all(d.name.startswith("erdma") for d in facts.rdma.devices))


def _gpu_count(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.gpus:
        return FactValue(len(facts.gpus))
    return FactValue(UNKNOWN)


def _capabilities(facts: Facts, evidence: Optional[Evidence], data: Any) -> tuple[list[tuple[int, int]], FactValue]:
    found = []
    for gpu in facts.gpus:
        cc = parse_cc(gpu.compute_capability) or parse_cc(compute_capability_from_name(gpu.name, getattr(data, "gpus", [])))
        if cc is not None:
            found.append(cc)
    if found:
        return found, FactValue(None)
    logged = _logged(evidence, "gpu.compute_capability")
    cc = parse_cc(logged.value) if logged.known else None
    return ([cc] if cc else []), logged


def _cc_min(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    found, source = _capabilities(facts, evidence, data)
    if not found:
        return FactValue(UNKNOWN)
    low = min(found)
    return FactValue(f"{low[0]}.{low[1]}", source.source, source.line)


def _datacenter(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    named = [g for g in facts.gpus if g.name]
    if not named:
        return FactValue(UNKNOWN)
    table = getattr(data, "gpus", [])
    return FactValue(all(gpu_class(g.name, g.brand, table) == GPU_DATACENTER for g in named))


def _mig(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.mig_devices or any(g.mig_mode for g in facts.gpus):
        return FactValue(True)
    if state(facts, "mig") == OBSERVED and facts.gpus:
        return FactValue(False)
    return FactValue(UNKNOWN)


def _torch_cpu(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    found = cpu_build_state(facts)
    if found is None:
        return _logged(evidence, "torch.cpu_build")  # a log's line may name the installed torch (xFormers' warning)
    return FactValue(found)


def _torch_cuda(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    torch = facts.torch
    if torch is None or not torch.cuda:
        # a build's line may name it (DeepSpeed's "the version torch was compiled with 11.7", cpp_extension's)
        return _logged(evidence, "torch.cuda")
    return FactValue(".".join(torch.cuda.split(".")[:2]))


def _toolkit(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """The toolkit a build uses as its own line reports it (nvcc's version, which DeepSpeed and cpp_extension
    print, or the versioned directory of the nvcc it runs: ``/usr/local/cuda-8.0/bin/nvcc``), else the image's toolkit (``/usr/local/cuda/version.json``), as ``major.minor``."""
    logged = _logged(evidence, "cuda.toolkit")
    if logged.known:
        return logged
    path = _logged(evidence, "cuda.toolkit_path")  # the versioned directory of the nvcc a build runs (cuda-8.0/bin/nvcc)
    if path.known:
        return path
    version = facts.cuda.toolkit_version
    return FactValue(".".join(version.split(".")[:2])) if version else FactValue(UNKNOWN)


def _toolkit_matches(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """Whether the build's toolkit (:func:`_toolkit`) is of torch's CUDA (``major.minor``); unknown unless both are
    shown. Where a log line shows either, the line is the source."""
    toolkit, torch = _toolkit(facts, evidence, data), _torch_cuda(facts, evidence, data)
    if not (toolkit.known and torch.known):
        return FactValue(UNKNOWN)
    from_log = toolkit if toolkit.source is _FROM_LOG else torch
    return FactValue(str(toolkit.value) == str(torch.value), from_log.source, from_log.line)


def _covers(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    arch_list = list(facts.torch.arch_list) if facts.torch else []
    source = FactValue(None)
    if not arch_list:
        logged = _logged(evidence, "torch.arch_list")
        if logged.known:
            arch_list, source = list(logged.value), logged
    found, cc_source = _capabilities(facts, evidence, data)
    if not arch_list or not found:
        return FactValue(UNKNOWN)
    verdicts = [covers(arch_list, cc) for cc in found]
    if any(v is None for v in verdicts):
        return FactValue(UNKNOWN)
    from_log = source if source.source is _FROM_LOG else cc_source
    return FactValue(all(verdicts), from_log.source, from_log.line)


def _nccl_version(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    logged = _logged(evidence, "nccl.version")
    if logged.known:
        return logged
    nccl = facts.nccl
    version = (nccl.resolved.version if nccl.resolved else None) or nccl.header_version or nccl.env_version
    return FactValue(version or UNKNOWN)


def _vllm_version(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    dist = next((d for d in facts.distributions if d.name.lower() == "vllm" and d.version), None)
    if dist is not None:
        return FactValue(dist.version.split("+")[0])
    return _logged(evidence, "vllm.version")


def _network(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return _logged(evidence, "nccl.network")


def _driver_present(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    if facts.has_nvidia_driver:
        return FactValue(True)
    return FactValue(False) if driver_observed(facts) else FactValue(UNKNOWN)


def _driver_version(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return FactValue(facts.driver_version or UNKNOWN)


def _driver_cuda(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    api = facts.libcuda.driver_api_version or facts.nvml.cuda_driver_version
    if isinstance(api, int) and api > 0:
        return FactValue(f"{api // 1000}.{api % 1000 // 10}")
    if facts.nvidia_smi.cuda_version:
        return FactValue(facts.nvidia_smi.cuda_version)
    return _logged(evidence, "driver.cuda")


def place(facts: Facts, evidence: Optional[Evidence] = None) -> FactValue:
    """Where the container runs: ``kubernetes``, ``acs``, ``docker`` or :data:`UNKNOWN` (see the module docstring)."""
    env = facts.env
    acs = any(name.startswith(("ALIBABA_CLOUD_", "ACS_")) for name in env)
    if "KUBERNETES_SERVICE_HOST" in env or "KUBERNETES_PORT" in env:
        return FactValue("acs" if acs else "kubernetes")
    logged = _logged(evidence, "place")
    if logged.known:
        return FactValue("acs" if acs else logged.value, logged.source, logged.line)
    if facts.origin == "live" or (env_known(facts, "KUBERNETES_SERVICE_HOST") and available(facts, "env")
                                  and state(facts, "env") == OBSERVED):
        return FactValue("docker")
    return FactValue(UNKNOWN)


def _place(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    return place(facts, evidence)


def _socket_virtual(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """True when a line of NCCL's socket interface list (its first line or one a log wrapped) names a container
    bridge, a veth or a link-local address; False when a first line shows the whole list without one; else unknown."""
    logged = _logged(evidence, "nccl.socket_interfaces_virtual")
    if logged.known:
        return logged
    real = _logged(evidence, "nccl.socket_interfaces_all_real")
    return FactValue(False, real.source, real.line) if real.value is True else FactValue(UNKNOWN)


def _graph_file(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """True when the environment sets NCCL_GRAPH_FILE or NCCL's INFO line says it is set; else unknown: NCCL also
    takes it from ``/etc/nccl.conf``, which no input shows, so its absence from the environment proves nothing."""
    if facts.env.get("NCCL_GRAPH_FILE"):
        return FactValue(True)
    return _logged(evidence, "nccl.graph_file_set")


#: the signature of NCCL's NET/IB completion errors (``releases/troubleshooting/nccl-ib-completion-error.yaml``)
_IB_COMPLETION = "nccl-ib-completion-error"
_IB_STATUS = re.compile(r"with (?:error |status=)(\d{1,3})\b")


def _ib_link_layer(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """``roce`` or ``ib``: the link layer of every port NCCL's ``NET/IB : Using ...`` line lists; else unknown."""
    return _logged(evidence, "nccl.ib_link_layer")


def _ib_retry_first(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
    """True when the first error line of its log is NCCL's NET/IB completion with status 12 (retry exceeded): no error
    line comes before it (no signature's but a warning's, no catalog entry's, no error level's), as when the queue pairs
    never reached the peer at all; False when one does, or its status is another; unknown without that line, or when
    other inputs hold error lines too (their order against it is not known)."""
    hit = evidence.hit(_IB_COMPLETION) if evidence is not None else None
    if hit is None:
        return FactValue(UNKNOWN)
    first = hit.first
    warnings = {sig.get("id") for sig in (getattr(data, "signatures", None) or []) if sig.get("severity") == "warning"}
    errors = [h.first for h in evidence.hits if h.signature != _IB_COMPLETION and h.signature not in warnings]
    errors += [c.first for c in evidence.catalog_hits if not c.covered] + list(evidence.error_level)
    same = [line for line in errors if line.source == first.source]
    if any((line.number or 0) < (first.number or 0) for line in same):
        return FactValue(False, _FROM_LOG, first.where())
    if len(same) < len(errors):
        return FactValue(UNKNOWN)
    status = _IB_STATUS.search(first.text)
    return FactValue(status is not None and status.group(1) == "12", _FROM_LOG, first.where())


def _from_log(name: str) -> Callable[[Facts, Optional[Evidence], Any], FactValue]:
    """The reader of a fact only a log states (:mod:`lingjun.checks.knowledge.log_statements`): what a failing line
    or its traceback shows, which no probe of the container can see."""

    def read(facts: Facts, evidence: Optional[Evidence], data: Any) -> FactValue:
        return _logged(evidence, name)

    return read


_READERS: dict[str, Callable[[Facts, Optional[Evidence], Any], FactValue]] = {
    "shm.size_bytes": _shm_size,
    "shm.host_ipc": _host_ipc,
    "nccl.shm_errno": _from_log("nccl.shm_errno"),
    "limits.memlock_soft": _memlock,
    "limits.cap_ipc_lock": _ipc_lock,
    "rdma.devices": _rdma_devices,
    "rdma.uverbs_nodes": _uverbs,
    "rdma.erdma": _erdma,
    "gpu.count": _gpu_count,
    "gpu.compute_capability_min": _cc_min,
    "gpu.datacenter": _datacenter,
    "gpu.mig": _mig,
    "torch.cpu_build": _torch_cpu,
    "torch.cuda": _torch_cuda,
    "torch.covers_gpus": _covers,
    "nccl.version": _nccl_version,
    "nccl.network": _network,
    "vllm.version": _vllm_version,
    "driver.present": _driver_present,
    "driver.version": _driver_version,
    "driver.cuda": _driver_cuda,
    "place": _place,
    "quantization.min_capability": _from_log("quantization.min_capability"),
    "nccl.socket_interfaces_virtual": _socket_virtual,
    "log.in_flashinfer": _from_log("log.in_flashinfer"),
    "log.in_flash_attn": _from_log("log.in_flash_attn"),
    "log.in_vllm_kernels": _from_log("log.in_vllm_kernels"),
    "log.in_torch_compile": _from_log("log.in_torch_compile"),
    "log.in_sgl_kernel": _from_log("log.in_sgl_kernel"),
    "log.in_sglang": _from_log("log.in_sglang"),
    "log.in_transformer_engine": _from_log("log.in_transformer_engine"),
    "tgi.kernels_missing": _from_log("tgi.kernels_missing"),
    "tgi.cuda_unavailable": _from_log("tgi.cuda_unavailable"),
    "tensorrt.engine_other_release": _from_log("tensorrt.engine_other_release"),
    "tensorrt.engine_other_gpu": _from_log("tensorrt.engine_other_gpu"),
    "tensorrt.plan_unreadable": _from_log("tensorrt.plan_unreadable"),
    "cuda.home_is_path_list": _from_log("cuda.home_is_path_list"),
    "kernel.xid_processes": _from_log("kernel.xid_processes"),
    "nccl.graph_file_set": _graph_file,
    "nccl.ib_link_layer": _ib_link_layer,
    "nccl.ib_retry_first_error": _ib_retry_first,
    "nccl.ib_gid_index": _from_log("nccl.ib_gid_index"),
    "nccl.ib_gid_ipv4_mapped": _from_log("nccl.ib_gid_ipv4_mapped"),
    "log.docker_container_shell": _from_log("log.docker_container_shell"),
    "log.gpu_operator": _from_log("log.gpu_operator"),
    "log.openshift": _from_log("log.openshift"),
    "log.slurm": _from_log("log.slurm"),
    "log.repos_unreachable": _from_log("log.repos_unreachable"),
    "nccl.connect_errno": _from_log("nccl.connect_errno"),
    "build.link_searches_cuda": _from_log("build.link_searches_cuda"),
    "cuda.toolkit": _toolkit,
    "cuda.kernel_assertion": _from_log("cuda.kernel_assertion"),
    "log.in_torch": _from_log("log.in_torch"),
    "build.toolkit_matches_torch": _toolkit_matches,
    "cublas.data_type": _from_log("cublas.data_type"),
    "cublas.lt_call": _from_log("cublas.lt_call"),
    "tensorrt.engine_version": _from_log("tensorrt.engine_version"),
}


def fact_value(name: str, facts: Facts, evidence: Optional[Evidence] = None, data: Any = None) -> FactValue:
    """The value of fact ``name`` (``data``: the :class:`~lingjun.checks.knowledge.bundle.KnowledgeData`, for the
    GPU table).

    Raises:
        KeyError: ``name`` is not a fact of :data:`lingjun.checks.core.condition_facts.FACTS`.
    """
    return _READERS[name](facts, evidence, data)


def reader_names() -> frozenset[str]:
    """The facts this module reads (a test holds them equal to the schema's list)."""
    return frozenset(_READERS)
