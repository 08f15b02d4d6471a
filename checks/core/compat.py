"""The CUDA / driver compatibility decision, as pure functions over the bundle's ``cuda_drivers`` data.

Given the CUDA toolkit an image (or a wheel) was built with and the kernel
driver of the host, NVIDIA's rules (CUDA Compatibility guide,
https://docs.nvidia.com/deploy/cuda-compatibility/) give one of:

``native``
    the driver is at or above the toolkit's minimum in Table 3 of the CUDA
    Toolkit release notes (or, for 13.x toolkits NVIDIA lists only by branch,
    of the named driver branch);
``minor-version``
    CUDA minor version compatibility: same CUDA major, driver at or above the
    major's floor in Table 2 (R450 for 11.x, R525 for 12.x, R580 for 13.x).
    It runs with a limited feature set; PTX built by the newer toolkit cannot
    be JIT-compiled by the older driver;
``forward``
    forward compatibility through the image's ``cuda-compat`` libraries:
    only on data center GPUs, only on driver branches the release (or the
    CUDA base image's ``NVIDIA_REQUIRE_CUDA``) admits, and only when the
    compat package is in the image;
``unsupported``
    none of the above.

Everything here is defensive: malformed reference rows are skipped, never raised on.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from lingjun.checks.core.gpu_models import model_from_name
from lingjun.checks.core.versions import CudaVersion, DriverVersion, VersionFormatError

__all__ = [
    "CompatDecision",
    "GPU_DATACENTER",
    "GPU_CONSUMER",
    "GPU_WORKSTATION",
    "GPU_UNKNOWN",
    "gpu_class",
    "is_compat_path",
    "parse_driver",
    "parse_cuda",
    "toolkit_min_driver",
    "max_native_cuda",
    "minor_compat_floor",
    "minor_compat_major",
    "forward_admitted",
    "where_zh",
    "decide",
]

GPU_DATACENTER = "datacenter"
GPU_CONSUMER = "consumer"
GPU_WORKSTATION = "workstation"
GPU_UNKNOWN = "unknown"

#: NVML brands (lower-case names of nvmlBrandType_t) of consumer GPUs, where forward compatibility never works
_CONSUMER_BRANDS = {"geforce", "geforce-rtx", "geforce_rtx", "titan", "titan-rtx", "titan_rtx"}
#: NVML brands of data center parts (TESLA; NVIDIA is what recent drivers report for H100/H20-class parts)
_DATACENTER_BRANDS = {"tesla", "nvidia", "grid", "nvidia-vcs", "nvidia_vcs"}
_WORKSTATION_BRANDS = {"quadro", "quadro-rtx", "quadro_rtx", "nvidia-rtx", "nvidia_rtx", "nvs"}


def is_compat_path(*paths: Any) -> bool:
    """Whether any of ``paths`` lies in a forward-compatibility directory.

    A path qualifies when one of its ``/``-separated components (backslashes
    count as ``/``) is ``compat`` or starts with ``cuda-compat``
    (``/usr/local/cuda/compat``, ``.../cuda-12.8/compat/lib``,
    ``/opt/cuda-compat-12-8/libcuda.so.1``).  None, empty strings and any
    non-str argument are skipped; with no qualifying argument the answer is
    False.  Never raises.
    """
    for path in paths:
        if not path or not isinstance(path, str):
            continue
        parts = path.replace("\\", "/").split("/")
        if "compat" in parts or any(p.startswith("cuda-compat") for p in parts):
            return True
    return False


def parse_driver(text: Optional[str]) -> Optional[DriverVersion]:
    """DriverVersion or None (never raises)."""
    if not isinstance(text, str):
        return None
    return _parse_driver(text)


@functools.lru_cache(maxsize=2048)
def _parse_driver(text: str) -> Optional[DriverVersion]:
    """:func:`parse_driver` of a string, remembered: the reference rows are read on every decision
    (DriverVersion is frozen, so a shared value is safe)."""
    try:
        return DriverVersion.parse(text)
    except VersionFormatError:
        return None


def parse_cuda(text: Optional[str]) -> Optional[CudaVersion]:
    """CudaVersion or None (never raises)."""
    if not isinstance(text, str):
        return None
    return _parse_cuda(text)


@functools.lru_cache(maxsize=2048)
def _parse_cuda(text: str) -> Optional[CudaVersion]:
    """:func:`parse_cuda` of a string, remembered (CudaVersion is frozen)."""
    try:
        return CudaVersion.parse(text)
    except VersionFormatError:
        return None


def gpu_class(name: Optional[str], brand: Optional[str], table: Iterable[Any] = ()) -> str:
    """Classify a GPU for forward compatibility: datacenter, consumer, workstation or unknown.

    The NVML brand decides when it names a class; otherwise the product name:
    ``GeForce``/``TITAN`` are consumer; a model of ``table`` (the bundle's GPU table,
    ``releases/reference/gpus.yaml``, see :mod:`lingjun.checks.core.gpu_models`) is data center
    when its row says ``data_center`` (NVIDIA's list puts the RTX PRO Server Editions there,
    https://developer.nvidia.com/cuda-gpus), even with a workstation brand or name; else
    ``Quadro``/``RTX A``/``RTX PRO`` are workstation; a ``Tesla`` name is data center.  A data
    center NVML brand decides last.
    """
    b = (brand or "").strip().lower()
    n = " " + (name or "").strip().lower() + " "
    if b in _CONSUMER_BRANDS or "geforce" in n or " titan" in n:
        return GPU_CONSUMER
    if b in ("tesla",):
        return GPU_DATACENTER
    row = model_from_name(name, table)
    if row is not None and row.get("data_center") is True:
        return GPU_DATACENTER  # NVIDIA lists it as a data center product (RTX PRO 6000 Blackwell Server Edition)
    if b in _WORKSTATION_BRANDS or "quadro" in n or " rtx a" in n or "rtx pro" in n:
        return GPU_WORKSTATION
    if row is not None:
        return GPU_DATACENTER if row.get("data_center") is True else GPU_WORKSTATION
    if " tesla" in n or b in _DATACENTER_BRANDS:
        return GPU_DATACENTER
    return GPU_UNKNOWN


def _rows(ref: Optional[dict], key: str) -> list[dict]:
    rows = (ref or {}).get(key) or []
    return [r for r in rows if isinstance(r, dict)]


def toolkit_min_driver(cuda: CudaVersion, ref: Optional[dict]) -> Optional[DriverVersion]:
    """Minimum Linux driver for a toolkit release (Table 3).

    ``12.8`` (no patch) uses the GA row; ``12.8.1`` the Update 1 row; a patch
    without its own row (12.3.2) the nearest listed row below it, else the
    highest listed row of that ``major.minor``.  For 13.x toolkits listed only
    by driver branch the branch is returned (``DriverVersion("590")``).
    Returns None when the reference has no row for it.
    """
    candidates = []
    for row in _rows(ref, "toolkit_min_driver"):
        row_cuda = parse_cuda(row.get("cuda"))
        toolkit = parse_cuda(row.get("toolkit"))
        minimum = parse_driver(row.get("linux_min_driver"))
        if row_cuda and toolkit and minimum and row_cuda.major_minor == cuda.major_minor:
            candidates.append((toolkit, minimum))
    if candidates:
        candidates.sort(key=lambda c: c[0])
        wanted = cuda.patch or 0
        below = [c for c in candidates if (c[0].patch or 0) <= wanted]
        return (below[-1] if below else candidates[0])[1]
    for row in _rows(ref, "toolkit_branch"):
        row_cuda = parse_cuda(row.get("cuda"))
        if row_cuda and row_cuda.major_minor == cuda.major_minor and isinstance(row.get("branch"), int):
            return DriverVersion.parse(str(row["branch"]))
    return None


def max_native_cuda(driver: DriverVersion, ref: Optional[dict]) -> Optional[CudaVersion]:
    """Newest CUDA ``major.minor`` whose Table-3 minimum (GA row) this driver meets, or None."""
    best: dict[tuple[int, int], DriverVersion] = {}
    for row in _rows(ref, "toolkit_min_driver"):
        row_cuda = parse_cuda(row.get("cuda"))
        minimum = parse_driver(row.get("linux_min_driver"))
        if row_cuda and minimum:
            key = row_cuda.major_minor
            if key not in best or minimum < best[key]:
                best[key] = minimum
    for row in _rows(ref, "toolkit_branch"):
        row_cuda = parse_cuda(row.get("cuda"))
        if row_cuda and isinstance(row.get("branch"), int) and row_cuda.major_minor not in best:
            best[row_cuda.major_minor] = DriverVersion.parse(str(row["branch"]))
    met = [mm for mm, minimum in best.items() if driver.satisfies_minimum(minimum)]
    if not met:
        return None
    major, minor = max(met)
    return CudaVersion(text=f"{major}.{minor}", major=major, minor=minor)


def minor_compat_floor(major: int, ref: Optional[dict]) -> Optional[DriverVersion]:
    """Exact driver floor for CUDA minor version compatibility within ``major`` (Table 2), or None."""
    for row in _rows(ref, "minor_version_compat"):
        if row.get("cuda_major") == major:
            return parse_driver(row.get("min_driver"))
    return None


def minor_compat_major(driver: DriverVersion, ref: Optional[dict]) -> Optional[int]:
    """The newest CUDA major whose every minor release runs on ``driver`` through CUDA minor version compatibility.

    That is the highest ``cuda_major`` of Table 2 (``minor_version_compat``) whose
    ``min_driver`` floor the driver meets: 470.86 >= 450.80.02 gives 11 (any CUDA
    11.x build runs, with the limited feature set where 11.x is newer than the
    driver's own CUDA); None when the driver is below every floor or the
    reference has no such rows.
    """
    majors = []
    for row in _rows(ref, "minor_version_compat"):
        floor = parse_driver(row.get("min_driver"))
        major = row.get("cuda_major")
        if isinstance(major, int) and not isinstance(major, bool) and floor is not None and driver.satisfies_minimum(floor):
            majors.append(major)
    return max(majors) if majors else None


def forward_admitted(
    driver: DriverVersion, image_cuda: CudaVersion, record: Optional[dict], ref: Optional[dict]
) -> tuple[Optional[bool], str]:
    """Whether the driver's branch is admitted for forward compatibility with this image.

    The release record's ``driver.forward_compatibility`` list decides first
    (branch listed and minimum met; ``must_upgrade_branches`` and
    ``branch_resolutions`` say no; a complete list that leaves the branch out
    says no), then, for a cut-off driver text, what the family's neighbouring
    releases state alike (``driver.derived``, ``where`` is ``"family's releases"``),
    then the CUDA base image list of the reference data for the image's CUDA.  Returns ``(answer, where)`` with
    ``answer`` None when neither source says anything.
    """
    drv = (record or {}).get("driver") or {}
    for source in (_record_admission, _family_admission):
        answer = source(drv, driver)
        if answer is not None:
            return answer
    for row in _rows(ref, "forward_compat_images"):
        row_cuda = parse_cuda(row.get("image_cuda"))
        if row_cuda and row_cuda.major_minor == image_cuda.major_minor:
            return driver.branch in (row.get("branches") or []), f"CUDA {row_cuda} base image"
    return None, ""


def _record_admission(drv: dict, driver: DriverVersion) -> Optional[tuple[bool, str]]:
    """What the record's own driver text says of ``driver``'s branch (:func:`forward_admitted`), or None when it
    leaves the branch to what remains (a cut-off text, or no list of forward-compatible branches)."""
    resolutions = {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}
    if resolutions.get(driver.branch) == "must-upgrade":
        return False, "release record"
    for entry in drv.get("forward_compatibility") or []:
        if not isinstance(entry, dict) or entry.get("branch") != driver.branch:
            continue
        minimum = parse_driver(entry.get("minimum"))
        if minimum is None:
            continue
        return driver.satisfies_minimum(minimum), "release record"
    if driver.branch in (drv.get("must_upgrade_branches") or []) and resolutions.get(driver.branch) != "allowed":
        return False, "release record"
    # a cut-off driver text (``text_truncated``) does not name every branch: one it leaves out is decided by what the
    # family's neighbouring releases state alike (``driver.derived``, lingjun.checks.core.family_driver), then by
    # NVIDIA's CUDA base image list; a complete list that leaves the branch out says no
    if drv.get("text_truncated") is not True and drv.get("forward_compatibility"):
        return False, "release record"
    return None


def _family_admission(drv: dict, driver: DriverVersion) -> Optional[tuple[bool, str]]:
    """What the family's neighbouring releases state alike of ``driver``'s branch (``driver.derived``), or None."""
    for entry in drv.get("derived") or []:
        if isinstance(entry, dict) and entry.get("branch") == driver.branch:
            if entry.get("decision") != "forward":
                return False, "family's releases"
            minimum = parse_driver(entry.get("minimum"))
            return (driver.satisfies_minimum(minimum) if minimum is not None else True), "family's releases"
    return None


#: :func:`forward_admitted`'s ``where`` in Chinese (a base image's name is translated word by word)
_WHERE_ZH = {"release record": "发布记录", "family's releases": "该系列相邻版本"}


def where_zh(where: str) -> str:
    """:func:`forward_admitted`'s ``where`` (``release record``, ``family's releases``, ``CUDA 12.8 base image``) in Chinese."""
    return _WHERE_ZH.get(where) or where.replace("base image", "基础镜像")


@dataclass
class CompatDecision:
    """Result of :func:`decide`.

    Attributes:
        mode: ``native``, ``minor-version``, ``forward``, ``forward-unconfirmed`` (forward compatibility is the
            only way and every prerequisite the input shows holds, but the input does not show whether the image
            carries cuda-compat), ``unsupported`` or ``unknown``.
        ok: whether CUDA can initialise in this mode (forward only when every condition holds; False when unconfirmed).
        required: the Table-3 minimum for the image's toolkit (None when not in the data).
        floor: the minor-version-compatibility floor of the image's CUDA major.
        missing: what forward compatibility lacks here (``"data center GPU"``, ``"admitted branch"``, ``"cuda-compat"``).
        gpu_classes: class of each visible GPU.
    """

    mode: str
    ok: bool
    required: Optional[DriverVersion] = None
    floor: Optional[DriverVersion] = None
    missing: list[str] = field(default_factory=list)
    admitted_by: str = ""
    gpu_classes: list[str] = field(default_factory=list)
    #: prerequisites of forward compatibility the input does not show (``"cuda-compat package"``)
    unknown: list[str] = field(default_factory=list)


def decide(
    image_cuda: CudaVersion,
    driver: DriverVersion,
    ref: Optional[dict],
    *,
    gpus: Iterable[Any] = (),
    record: Optional[dict] = None,
    compat_present: Optional[bool] = None,
    compat_in_use: Optional[bool] = None,
    gpu_table: Iterable[Any] = (),
) -> CompatDecision:
    """Decide how (and whether) ``image_cuda`` runs on kernel ``driver``.

    ``gpus`` are objects with ``name`` and ``brand`` attributes
    (:class:`~lingjun.checks.facts.GpuFacts`); ``compat_present`` says
    whether the image carries cuda-compat libraries (None: unknown);
    ``compat_in_use`` whether the ``libcuda.so.1`` the loader resolves is
    the cuda-compat one.  When the compat library is in use and forward
    compatibility holds (data center GPU, admitted branch), the mode is
    ``forward`` even where minor-version compatibility would also apply:
    the compat user-mode driver gives the full feature set.  ``gpu_table`` is the bundle's GPU table
    (:func:`gpu_class` reads model names with it).
    """
    table = list(gpu_table or ())
    classes = [gpu_class(getattr(g, "name", None), getattr(g, "brand", None), table) for g in gpus]
    required = toolkit_min_driver(image_cuda, ref)
    floor = minor_compat_floor(image_cuda.major, ref)
    if _runs_natively(image_cuda, driver, ref, required):
        return CompatDecision("native", True, required, floor, gpu_classes=classes)
    if required is None and floor is None:
        return CompatDecision("unknown", False, None, None, gpu_classes=classes)
    admitted, where = forward_admitted(driver, image_cuda, record, ref)
    missing, unknown = _forward_gaps(classes, admitted, compat_present, compat_in_use)
    if compat_in_use is True and not missing:
        return CompatDecision("forward", True, required, floor, [], where, classes)
    if floor is not None and driver.satisfies_minimum(floor):
        return CompatDecision("minor-version", True, required, floor, gpu_classes=classes)
    # forward compatibility is the only way left
    if missing:
        return CompatDecision("unsupported", False, required, floor, missing, where if admitted else "", classes, unknown)
    mode = "forward-unconfirmed" if unknown else "forward"
    return CompatDecision(mode, not unknown, required, floor, [], where, classes, unknown)


def _runs_natively(image_cuda: CudaVersion, driver: DriverVersion, ref: Optional[dict], required: Optional[DriverVersion]) -> bool:
    """The driver meets the toolkit's Table-3 minimum, or, without a row for the toolkit, its native CUDA covers it."""
    if required is not None:
        return driver.satisfies_minimum(required)
    native = max_native_cuda(driver, ref)
    return native is not None and native.major_minor >= image_cuda.major_minor


def _forward_gaps(classes: list[str], admitted: Optional[bool], compat_present: Optional[bool],
                  compat_in_use: Optional[bool]) -> tuple[list[str], list[str]]:
    """``(missing, unknown)``: the prerequisites of forward compatibility that do not hold here, and those the input
    does not show (:class:`CompatDecision`)."""
    missing: list[str] = []
    if not classes or GPU_UNKNOWN in classes:
        missing.append("data center GPU (not determined)")
    elif any(c != GPU_DATACENTER for c in classes):
        missing.append("data center GPU")
    if admitted is not True:
        missing.append("admitted driver branch")
    unknown: list[str] = []
    if compat_present is False and compat_in_use is not True:
        missing.append("cuda-compat package")
    elif compat_present is None and compat_in_use is not True:
        unknown.append("cuda-compat package")
    return missing, unknown
