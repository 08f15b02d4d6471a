"""The facts ``lingjun-check`` probes, as plain dataclasses.

A :class:`Facts` object is what the probes produce and what every rule reads.
It is also the snapshot format: ``--collect FILE`` writes
``Facts.to_dict()`` as JSON and ``--from FILE`` reads it back with
:meth:`Facts.from_dict`.  The format is versioned by :data:`SNAPSHOT_SCHEMA`;
unknown keys in a snapshot are ignored and missing keys take their defaults,
so older and newer snapshots stay readable.

Conventions:

* ``None`` means "not known" (the probe did not run, failed, or the thing is
  absent); each probe records why in :attr:`Facts.probe_errors`.
* Versions are strings exactly as read.
* Paths are as seen inside the container (the configurable root is
  stripped before they are stored).
* No secrets, host names or GPU UUIDs are stored unless the user asks
  (``--include-ids``).

Only the standard library is used.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core._dataclass_json import build
from lingjun.checks.core.requirement_name import normalise

SNAPSHOT_SCHEMA = "lingjun-check/snapshot/1"

__all__ = [
    "SNAPSHOT_SCHEMA",
    "MAX_GPUS_PER_POD",
    "Facts",
    "HostFacts",
    "PythonFacts",
    "GpuFacts",
    "NvmlFacts",
    "SmiFacts",
    "LibcudaFacts",
    "DriverFacts",
    "CudaFacts",
    "LibraryFile",
    "WheelFacts",
    "NativeLibraryFacts",
    "TorchBuildFacts",
    "DistributionFacts",
    "InterfaceFacts",
    "LoaderFacts",
    "ManifestFacts",
    "ProbeRecord",
    "LdSoConfFile",
    "MigDeviceFacts",
    "ShmFacts",
    "LimitsFacts",
    "RdmaPortFacts",
    "RdmaDeviceFacts",
    "RdmaFacts",
    "GpuLinkFacts",
    "GpuTopologyFacts",
    "SymptomFacts",
    "CoverageFacts",
    "NodeFacts",
    "CheckOptionsFacts",
    "NODE_SOURCES",
    "normalise_name",
]


@dataclass
class HostFacts:
    """Operating system of the container (``/etc/os-release``) and the kernel."""

    os_id: Optional[str] = None  # "ubuntu"
    os_version_id: Optional[str] = None  # "24.04"
    os_pretty_name: Optional[str] = None
    kernel_release: Optional[str] = None  # uname -r
    machine: Optional[str] = None  # uname -m: "x86_64", "aarch64"
    hostname: Optional[str] = None  # only with --include-ids


@dataclass
class PythonFacts:
    """The interpreter running the checker (or the one named in a snapshot)."""

    version: Optional[str] = None  # "3.12.7"
    version_full: Optional[str] = None  # sys.version first line, e.g. "3.12.7+gc (main, ...)"
    implementation: Optional[str] = None  # "cpython"
    executable: Optional[str] = None
    prefix: Optional[str] = None
    base_prefix: Optional[str] = None
    in_virtualenv: Optional[bool] = None
    site_packages: list[str] = field(default_factory=list)


@dataclass
class GpuFacts:
    """One GPU as NVML (or nvidia-smi) reports it."""

    index: int = 0
    name: Optional[str] = None  # "NVIDIA H20", "NVIDIA GeForce RTX 4090"
    #: NVML brand as a lower-case name: "tesla", "nvidia", "geforce", "geforce-rtx", "quadro", "unknown", ...
    brand: Optional[str] = None
    compute_capability: Optional[str] = None  # "9.0"
    memory_total_mib: Optional[int] = None
    uuid: Optional[str] = None  # only with --include-ids
    pci_bus_id: Optional[str] = None  # only with --include-ids
    #: MIG mode is enabled on this GPU (NVML nvmlDeviceGetMigMode current mode, or nvidia-smi); None when unknown
    mig_mode: Optional[bool] = None


@dataclass
class MigDeviceFacts:
    """A MIG device (GPU instance slice) visible to the container (NVML, ``nvidia-smi -L`` or collect_env's MIG lines)."""

    gpu_index: Optional[int] = None  # the parent GPU's index
    index: Optional[int] = None  # "Device N" within the parent
    profile: Optional[str] = None  # "3g.40gb"
    uuid: Optional[str] = None  # "MIG-..." only with --include-ids


@dataclass
class NvmlFacts:
    """What ``libnvidia-ml.so.1`` says through ctypes."""

    library_path: Optional[str] = None  # resolved path of libnvidia-ml.so.1
    library_version: Optional[str] = None  # nvmlSystemGetNVMLVersion, e.g. "12.570.124.06", or from the file name
    init_ok: Optional[bool] = None
    init_error: Optional[str] = None  # e.g. "Driver/library version mismatch", "Unknown Error"
    driver_version: Optional[str] = None  # nvmlSystemGetDriverVersion
    cuda_driver_version: Optional[int] = None  # nvmlSystemGetCudaDriverVersion_v2, e.g. 12080
    gpus: list[GpuFacts] = field(default_factory=list)


@dataclass
class SmiFacts:
    """What ``nvidia-smi`` printed (fallback when NVML via ctypes is unusable)."""

    available: Optional[bool] = None
    error: Optional[str] = None
    timed_out: bool = False
    driver_version: Optional[str] = None
    cuda_version: Optional[str] = None  # "12.8" from the banner / -q
    gpus: list[GpuFacts] = field(default_factory=list)


@dataclass
class LibcudaFacts:
    """The ``libcuda.so.1`` the dynamic loader resolves."""

    path: Optional[str] = None  # where the loader found it
    real_path: Optional[str] = None  # after following symlinks: ".../libcuda.so.570.124.06"
    file_version: Optional[str] = None  # driver version from the file name: "570.124.06"
    #: the resolved file is a forward-compatibility library (under /usr/local/cuda/compat or a cuda-compat package)
    is_forward_compat: Optional[bool] = None
    driver_api_version: Optional[int] = None  # cuDriverGetVersion: 12080
    init_error: Optional[str] = None  # cuInit result text when it fails, e.g. "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"
    #: every libcuda.so.1 candidate in loader order (LD_LIBRARY_PATH, then ld.so.conf.d order)
    candidates: list[str] = field(default_factory=list)


@dataclass
class DriverFacts:
    """Kernel driver and device nodes."""

    #: version from /proc/driver/nvidia/version (proprietary or open kernel module)
    kernel_module_version: Optional[str] = None
    kernel_module_flavor: Optional[str] = None  # "proprietary" | "open"
    proc_version_error: Optional[str] = None  # e.g. "absent", "permission denied"
    device_nodes: list[str] = field(default_factory=list)  # "/dev/nvidiactl", "/dev/nvidia0", ...
    #: False when the nodes exist but cannot be opened (device cgroup), None when not tried
    device_nodes_accessible: Optional[bool] = None


@dataclass
class CudaFacts:
    """CUDA toolkit in the image and its forward-compatibility package."""

    toolkit_version: Optional[str] = None  # version.json "cuda" -> "version": "12.8.1"
    version_file: Optional[str] = None
    env_cuda_version: Optional[str] = None  # CUDA_VERSION: "12.8.0.038"
    #: CUDA_DRIVER_VERSION in NGC images: the bundled compat user-mode driver, e.g. "570.86.10"
    env_compat_driver_version: Optional[str] = None
    compat_dir: Optional[str] = None  # "/usr/local/cuda/compat" when present
    compat_libcuda_version: Optional[str] = None  # from libcuda.so.<ver> inside compat_dir


@dataclass
class LibraryFile:
    """A shared library file found on disk."""

    path: str
    version: Optional[str] = None  # from the file name or the header next to it
    #: how the loader would reach it: "LD_LIBRARY_PATH", "ld.so.conf", "default", "wheel", "other"
    via: Optional[str] = None


@dataclass
class WheelFacts:
    """A pip distribution that ships a native library (``nvidia-nccl-cu12``)."""

    name: str
    version: Optional[str] = None
    cuda_major: Optional[int] = None  # 12 for nvidia-nccl-cu12
    location: Optional[str] = None


@dataclass
class NativeLibraryFacts:
    """cuDNN or NCCL: headers, library files and wheels.

    ``resolved`` is the file the dynamic loader would pick for the SONAME
    (``libnccl.so.2``, ``libcudnn.so.9``) given ``LD_LIBRARY_PATH`` and the
    ld.so.conf order; ``expected_by_torch`` is the version torch's metadata
    pins (``Requires-Dist: nvidia-nccl-cu12==2.19.3``), when it pins one.
    """

    header_version: Optional[str] = None
    header_path: Optional[str] = None
    files: list[LibraryFile] = field(default_factory=list)
    resolved: Optional[LibraryFile] = None
    wheels: list[WheelFacts] = field(default_factory=list)
    env_version: Optional[str] = None  # NCCL_VERSION / CUDNN_VERSION image env
    expected_by_torch: Optional[str] = None


@dataclass
class TorchBuildFacts:
    """Build facts of the installed torch, read from ``torch/version.py`` without importing torch."""

    version: Optional[str] = None  # __version__: "2.7.1.8+nv25.3"
    cuda: Optional[str] = None  # "12.8" or None for CPU builds
    hip: Optional[str] = None
    git_version: Optional[str] = None
    debug: Optional[bool] = None
    location: Optional[str] = None  # directory holding torch/
    #: compiled CUDA architectures when known (from a collect_env paste or a manifest), e.g. ["sm_80", "sm_90"]
    arch_list: list[str] = field(default_factory=list)
    cudnn_version: Optional[str] = None  # cuDNN torch was built against, when known


@dataclass
class DistributionFacts:
    """An installed Python distribution (from its ``*.dist-info``)."""

    name: str  # as in METADATA
    version: Optional[str] = None  # None when METADATA is broken
    location: Optional[str] = None  # the site-packages directory
    installer: Optional[str] = None  # INSTALLER file: "pip", "uv", "conda", ...
    requires: list[str] = field(default_factory=list)  # Requires-Dist lines
    direct_url: Optional[str] = None  # url from direct_url.json (local builds, VCS)
    error: Optional[str] = None  # what was wrong with the metadata
    #: modification time of the *.dist-info directory (ISO 8601 UTC), i.e. when it was installed; None when unknown
    installed_at: Optional[str] = None


@dataclass
class InterfaceFacts:
    """A network interface from ``/sys/class/net``.

    ``ipv4``/``ipv6`` hold the addresses; a snapshot keeps them only with
    ``--include-ids`` and otherwise keeps just ``has_ipv4``/``has_ipv6``
    (added later: None in older snapshots, where the address lists decide).
    Ask :meth:`carries_ipv4` / :meth:`carries_address`, not the lists.
    """

    name: str
    operstate: Optional[str] = None  # "up", "down", "unknown"
    mtu: Optional[int] = None
    ipv4: list[str] = field(default_factory=list)  # "10.0.0.5/24"
    ipv6: list[str] = field(default_factory=list)
    has_ipv4: Optional[bool] = None  # the interface has an IPv4 address; None: read ipv4
    has_ipv6: Optional[bool] = None  # the interface has an IPv6 address; None: read ipv6

    def carries_ipv4(self) -> bool:
        """Whether the interface has an IPv4 address (from the list, else from ``has_ipv4``)."""
        return bool(self.ipv4) or bool(self.has_ipv4)

    def carries_address(self) -> bool:
        """Whether the interface has any IP address, IPv4 or IPv6."""
        return self.carries_ipv4() or bool(self.ipv6) or bool(self.has_ipv6)


@dataclass
class LdSoConfFile:
    """One ``/etc/ld.so.conf.d/*.conf`` file and the directories it adds, in order."""

    file: Optional[str] = None  # "/etc/ld.so.conf.d/cuda-compat.conf"
    dirs: list[str] = field(default_factory=list)
    error: Optional[str] = None  # the file could not be read: the exception's name


@dataclass
class LoaderFacts:
    """Search order of the dynamic loader."""

    ld_library_path: list[str] = field(default_factory=list)
    #: /etc/ld.so.conf.d/*.conf files in the order ldconfig reads them, each with its directories
    #: (in a snapshot: ``{"file": ..., "dirs": [...]}`` objects)
    ld_so_conf: list[LdSoConfFile] = field(default_factory=list)


@dataclass
class ShmFacts:
    """``/dev/shm`` as the container sees it (``os.statvfs``, ``/proc/self/mountinfo``).

    Sizes are bytes.  ``host_ipc``: the container shares the host's IPC namespace (``/proc/self/ns/ipc`` names
    the initial namespace's fixed inode, :func:`lingjun.checks.probes.shm.host_ipc_from_link`); None when it cannot
    be told (a snapshot taken elsewhere, an unreadable link).
    """

    present: Optional[bool] = None
    size_bytes: Optional[int] = None
    used_bytes: Optional[int] = None
    fs_type: Optional[str] = None  # "tmpfs"
    host_ipc: Optional[bool] = None


@dataclass
class LimitsFacts:
    """Resource limits of the checking process (``getrlimit``) and its effective capabilities (``/proc/self/status``).

    Limits are bytes (memlock) or a count (nofile); -1 means unlimited (``RLIM_INFINITY``).
    """

    memlock_soft: Optional[int] = None
    memlock_hard: Optional[int] = None
    nofile_soft: Optional[int] = None
    nofile_hard: Optional[int] = None
    #: CAP_IPC_LOCK in the effective set (lets a process lock memory beyond RLIMIT_MEMLOCK)
    cap_ipc_lock: Optional[bool] = None
    #: the effective user id the check ran as (0: root; ``Uid:`` of ``/proc/self/status``)
    uid: Optional[int] = None
    #: every capability dropped from the bounding set (``CapBnd: 0``): a pod whose securityContext drops ALL, so
    #: what the check saw of capabilities is its own container's, not the workload's
    caps_dropped: Optional[bool] = None
    #: ``NoNewPrivs: 1`` (allowPrivilegeEscalation: false)
    no_new_privs: Optional[bool] = None


@dataclass
class RdmaPortFacts:
    """One port of an RDMA device (``/sys/class/infiniband/<dev>/ports/<n>``)."""

    port: int = 1
    state: Optional[str] = None  # "ACTIVE", "DOWN", "INIT" (the word after "4: ")
    phys_state: Optional[str] = None  # "LinkUp", "Disabled"
    link_layer: Optional[str] = None  # "InfiniBand", "Ethernet" (RoCE)
    rate: Optional[str] = None  # "200 Gb/sec (4X HDR)"
    #: RoCE GID table entry types by index ("RoCE v2", "IB/RoCE v1", "" for an empty entry); GID values are identifiers
    gid_types: list[str] = field(default_factory=list)
    gids: list[str] = field(default_factory=list)  # only with --include-ids


@dataclass
class RdmaDeviceFacts:
    """An RDMA device: ``mlx5_0``, a RoCE bond ``mlx5_bond_0`` (Lingjun), Alibaba Cloud elastic RDMA ``erdma_0``."""

    name: str
    ports: list[RdmaPortFacts] = field(default_factory=list)
    uverbs: Optional[str] = None  # "uverbs0": its verbs device in sysfs, None when it has none
    node_guid: Optional[str] = None  # only with --include-ids


@dataclass
class RdmaFacts:
    """RDMA devices in sysfs and the ``/dev/infiniband/uverbs*`` nodes the container can use."""

    devices: list[RdmaDeviceFacts] = field(default_factory=list)
    uverbs_nodes: list[str] = field(default_factory=list)  # "/dev/infiniband/uverbs0", ...
    #: False when the nodes exist but cannot be opened, None when not tried
    uverbs_accessible: Optional[bool] = None


@dataclass
class GpuLinkFacts:
    """How two GPUs are connected, as ``nvidia-smi topo -m`` prints it (``gpu_a`` < ``gpu_b``, the matrix's indexes)."""

    gpu_a: int = 0
    gpu_b: int = 0
    #: "NV#" (a bonded set of # NVLinks, e.g. "NV18"), "PIX", "PXB", "PHB", "NODE" or "SYS" (older drivers' "SOC" is
    #: stored as "SYS")
    link: str = ""


@dataclass
class GpuTopologyFacts:
    """The GPU-to-GPU connection matrix of ``nvidia-smi topo -m`` (one entry per pair of GPUs in the matrix)."""

    #: True when the matrix was read, False when nvidia-smi is missing or failed, None when not run
    available: Optional[bool] = None
    error: Optional[str] = None
    #: GPU indexes the matrix lists (``GPU0`` -> 0), in order
    gpus: list[int] = field(default_factory=list)
    links: list[GpuLinkFacts] = field(default_factory=list)


@dataclass
class SymptomFacts:
    """What the environment itself reported: observed outcomes, not predictions.

    A collect_env paste says ``Is CUDA available: True/False``; a report quotes
    error strings (``forward compatibility was attempted on non supported HW``,
    ``driver version is insufficient for CUDA runtime version``).  Rules treat
    these as evidence: a prediction they disprove is withdrawn.
    """

    #: ``torch.cuda.is_available()`` as the input reports it; None when not reported
    cuda_available: Optional[bool] = None
    #: GPUs torch reported (``torch.cuda.device_count()``), when reported
    device_count: Optional[int] = None
    #: error or warning lines the input quotes, as written (at most a few hundred characters each)
    errors: list[str] = field(default_factory=list)


@dataclass
class CoverageFacts:
    """Which sections of the facts the input carries (see :mod:`lingjun.checks.coverage`).

    A section id listed in ``not_available`` is not shown by the input at all;
    one in ``partial`` is shown in part (items listed are observed, absence is
    not known).  Sections in neither list were observed.  ``env_prefixes``:
    when ``env`` is partial, the variable-name prefixes the input lists in full.
    """

    not_available: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)
    env_prefixes: list[str] = field(default_factory=list)


@dataclass
class ManifestFacts:
    """A release manifest an image carries (``/etc/lingjun/release.json``) or ``LINGJUN_RELEASE``."""

    path: Optional[str] = None
    release: Optional[str] = None  # "training-nv-pytorch:25.07"
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class ProbeRecord:
    """How one probe went."""

    name: str
    seconds: float = 0.0
    ok: bool = True
    error: Optional[str] = None
    timed_out: bool = False


#: how a node got its name (:attr:`NodeFacts.source`): ``--node-name``, the ``NODE_NAME`` variable
#: (Kubernetes downward API, ``spec.nodeName``) or the host name (only with ``--include-ids``)
NODE_SOURCES = ("option", "NODE_NAME", "hostname")


@dataclass
class NodeFacts:
    """Which node (machine) the facts describe, for comparing nodes (``lingjun-check fleet``).

    ``name`` is the node name as given (inert: controls escaped, at most 256 characters), None when
    none was given; ``source`` is one of :data:`NODE_SOURCES`, None with no name.  A node name is not
    a fact of the container: rules never read it, and two nodes with the same facts differ only here.
    """

    name: Optional[str] = None
    source: Optional[str] = None
    #: the cluster the node belongs to (``--cluster``, else ``LINGJUN_CLUSTER``; :mod:`lingjun.checks.core.cluster_name`),
    #: None when none was given: node names are unique only within one cluster
    cluster: Optional[str] = None
    #: ``"option"`` or ``"LINGJUN_CLUSTER"``; None without a cluster
    cluster_source: Optional[str] = None


#: the most GPUs ``--gpus-per-pod`` takes: a pod runs on one node, and the largest GPU nodes hold 16 (an HGX or
#: PPU node) with room to spare; a larger number is a typo, refused (given) or dropped (recorded in a snapshot)
MAX_GPUS_PER_POD = 64


@dataclass
class CheckOptionsFacts:
    """The options of the run that wrote a snapshot that change its findings or exit code, so that a snapshot
    re-checks as its own run did (``--from``, ``lingjun-check fleet``).

    ``require_gpu`` and ``strict`` are the flags (None: not recorded, a snapshot written before this key);
    ``gpus_per_pod`` is ``--gpus-per-pod`` (None: not given); ``release`` is ``--release`` as given (an image tag or
    FAMILY:YY.MM); ``model`` is ``--model``.  Like the node name, these are not facts of the container: rules read
    them as options (:class:`~lingjun.checks.context.CheckOptions`), never as facts.
    """

    require_gpu: Optional[bool] = None
    strict: Optional[bool] = None
    gpus_per_pod: Optional[int] = None
    release: Optional[str] = None
    model: Optional[str] = None


@dataclass
class Facts:
    """Everything the probes found.  See the module docstring for conventions."""

    schema: str = SNAPSHOT_SCHEMA
    collected_at: Optional[str] = None  # ISO 8601 UTC
    #: where the facts came from: "live", "snapshot", "collect_env", "log" (a log read alone: no facts but its own)
    origin: str = "live"
    host: HostFacts = field(default_factory=HostFacts)
    python: PythonFacts = field(default_factory=PythonFacts)
    driver: DriverFacts = field(default_factory=DriverFacts)
    nvml: NvmlFacts = field(default_factory=NvmlFacts)
    nvidia_smi: SmiFacts = field(default_factory=SmiFacts)
    libcuda: LibcudaFacts = field(default_factory=LibcudaFacts)
    cuda: CudaFacts = field(default_factory=CudaFacts)
    cudnn: NativeLibraryFacts = field(default_factory=NativeLibraryFacts)
    nccl: NativeLibraryFacts = field(default_factory=NativeLibraryFacts)
    torch: Optional[TorchBuildFacts] = None
    distributions: list[DistributionFacts] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # allow-listed variables only
    network: list[InterfaceFacts] = field(default_factory=list)
    loader: LoaderFacts = field(default_factory=LoaderFacts)
    manifest: Optional[ManifestFacts] = None
    probes: list[ProbeRecord] = field(default_factory=list)
    #: MIG devices visible to the container
    mig_devices: list[MigDeviceFacts] = field(default_factory=list)
    shm: ShmFacts = field(default_factory=ShmFacts)
    limits: LimitsFacts = field(default_factory=LimitsFacts)
    rdma: RdmaFacts = field(default_factory=RdmaFacts)
    #: how the GPUs are connected (``nvidia-smi topo -m``); added within snapshot/1, absent in older snapshots
    gpu_topology: GpuTopologyFacts = field(default_factory=GpuTopologyFacts)
    #: outcomes the input itself reports (collect_env's "Is CUDA available", quoted errors)
    symptoms: SymptomFacts = field(default_factory=SymptomFacts)
    #: which sections the input carries; empty lists: everything observed (a live probe)
    coverage: CoverageFacts = field(default_factory=CoverageFacts)
    #: the node the facts describe (``--node-name``, ``NODE_NAME``); added within snapshot/1, absent in older snapshots
    node: NodeFacts = field(default_factory=NodeFacts)
    #: the options of the run that wrote the snapshot (``--require-gpu`` ...); added within snapshot/1, absent in older snapshots
    check_options: CheckOptionsFacts = field(default_factory=CheckOptionsFacts)

    # -- convenience views used by many rules ---------------------------------

    @property
    def gpus(self) -> list[GpuFacts]:
        """GPUs from NVML, else from nvidia-smi."""
        return self.nvml.gpus or self.nvidia_smi.gpus

    @property
    def driver_version(self) -> Optional[str]:
        """Kernel driver version: /proc first, then NVML, then nvidia-smi."""
        return self.driver.kernel_module_version or self.nvml.driver_version or self.nvidia_smi.driver_version

    @property
    def has_nvidia_driver(self) -> bool:
        """True when any sign of an NVIDIA driver is present in the container.

        Signs: a driver version, device nodes, a libcuda or NVML library (path, version,
        or an initialisation error, which needs the library to be loaded), a positive
        ``cuDriverGetVersion``, nvidia-smi's CUDA version, or any GPU listed.  A
        snapshot or a collect_env paste often carries only some of them (a paste has
        GPU names but no /proc; "found version 11000" gives only the driver API version).
        """
        api = self.libcuda.driver_api_version
        return bool(
            self.driver_version
            or self.driver.device_nodes
            or self.libcuda.path
            or self.libcuda.real_path
            or self.libcuda.init_error
            or (isinstance(api, int) and not isinstance(api, bool) and api > 0)
            or self.nvml.library_path
            or self.nvml.library_version
            or self.nvml.init_error
            or self.nvidia_smi.cuda_version
            or self.nvml.gpus
            or self.nvidia_smi.gpus
        )

    def distribution(self, name: str) -> Optional[DistributionFacts]:
        """The installed distribution called ``name`` (PEP 503 normalised match; the first of duplicates), or None.

        Looks ``name`` up in an index by normalised name, built on the first call and built again when
        ``distributions`` is another list object, has another length or another first or last item, or
        when the entry found is no longer in its place or no longer has the name.  Rules look up about a
        hundred names; scanning every distribution for each took minutes for 300,000 of them.  The list
        counts as read-only once looked up (rules never change facts): to change it, assign a new list,
        append or remove items; an item renamed or replaced in the middle of the list, with the length
        kept, is seen only when a lookup finds the old item.
        """
        wanted = normalise_name(name)
        found = self._distribution_index().get(wanted)
        if found is not None:
            position, dist = found
            dists = self.distributions
            if dists[position] is not dist or normalise_name(dist.name) != wanted:  # replaced or renamed since
                self.__dict__.pop("_dist_index", None)
                found = self._distribution_index().get(wanted)
        return found[1] if found is not None else None

    def _distribution_index(self) -> "dict[str, tuple[int, DistributionFacts]]":
        """``{normalised name: (position, first distribution of that name)}`` for ``distributions`` (cached)."""
        dists = self.distributions
        cached = self.__dict__.get("_dist_index")
        ends = (dists[0], dists[-1]) if dists else (None, None)
        if cached is not None and cached[0] is dists and cached[1] == len(dists) and cached[3][0] is ends[0] \
                and cached[3][1] is ends[1]:
            return cached[2]
        index: dict[str, tuple[int, DistributionFacts]] = {}
        for position, dist in enumerate(dists):
            if isinstance(dist.name, str):
                index.setdefault(normalise_name(dist.name), (position, dist))
        # not a dataclass field: to_dict, equality and repr do not see it
        self.__dict__["_dist_index"] = (dists, len(dists), index, ends)
        return index

    # -- (de)serialisation -----------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the snapshot format)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Facts":
        """Build facts from a snapshot dict; unknown keys are ignored.

        Raises:
            ValueError: when ``data`` is not a mapping or has a value of the wrong type.
        """
        if not isinstance(data, dict):
            raise ValueError("snapshot must be a JSON object")
        return build(cls, data, "snapshot")


def normalise_name(name: str) -> str:
    """A distribution name normalised as PEP 503 does (``Flash_Attn`` -> ``flash-attn``).

    Delegates to the memoised :func:`lingjun.checks.core.requirement_name.normalise`: :meth:`Facts.distribution`
    and release identification normalise every installed distribution name,
    often more than once.  Never raises for a str.
    """
    return normalise(name)
