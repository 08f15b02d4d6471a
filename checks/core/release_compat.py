"""One release on one driver and one GPU class: the verdict the compatibility finder and ``lingjun-kb which`` show.

This is the checker's own decision (:func:`lingjun.checks.core.compat.decide`,
read together with the release record as the rules ``driver.minimum`` and
``driver.cuda-compatibility`` read it), asked for a node described only by
its driver and the class of its GPUs.  What the image itself would show
inside a container is taken from the record:

* the image's CUDA is the record's ``cuda``;
* the image carries NVIDIA's ``cuda-compat`` package when the record lists
  branches usable through forward compatibility (the release page says so);
  otherwise whether it carries one is not known;
* on a data center GPU the image's ``cuda-compat`` library is the one in use
  when the image carries it (forward compatibility works only there); on any
  other GPU the host driver's library is used.

Verdicts (:data:`VERDICTS`), each with a one-line reason in English and
Simplified Chinese:

``native``
    the driver meets the release's stated minimum and the CUDA toolkit's
    minimum driver (NVIDIA CUDA Toolkit release notes, Table 3);
``forward-compat``
    runs on a data center GPU through the image's ``cuda-compat`` package on
    a branch the release (or the CUDA base image) admits
    (https://docs.nvidia.com/deploy/cuda-compatibility/);
``minor-compat``
    starts, with limits: CUDA minor version compatibility (limited feature
    set, no JIT of newer PTX), or a driver below the release's stated minimum
    that NVIDIA's tables let start (the checker warns);
``unsupported``
    the checker reports an error: CUDA cannot start on this driver and GPU
    (or the image is built for PPU accelerators, not NVIDIA GPUs);
``not-stated``
    the release's data does not say: no driver requirement or CUDA version
    recorded, no reference row for its CUDA, or forward compatibility is the
    only way and the record does not show that the image carries
    ``cuda-compat``.

A driver given as a branch only (``R535``) stands for an up-to-date driver of
that branch: every minimum the data names inside the branch counts as met
(the reasons then name those minimums).

Pure functions over plain dicts (the bundle's ``releases`` and
``cuda_drivers``); standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from lingjun.checks.core.compat import CompatDecision, decide, parse_cuda, parse_driver
from lingjun.checks.core.versions import DriverVersion

__all__ = ["VERDICTS", "ReleaseVerdict", "release_verdict", "branch_thresholds", "effective_driver", "node_gpu"]

#: the verdicts, best first
VERDICTS = ("native", "forward-compat", "minor-compat", "unsupported", "not-stated")

#: a patch level above any real one: a branch-only driver stands for an up-to-date driver of the branch
_TOP = (9999, 9999)

_MISSING_ZH = {
    "data center GPU": "数据中心 GPU",
    "admitted driver branch": "被允许的驱动分支",
    "cuda-compat package": "镜像中的 cuda-compat 包",
}


@dataclass(frozen=True)
class ReleaseVerdict:
    """The verdict of one release for a driver and GPU class.

    Attributes:
        verdict: one of :data:`VERDICTS`.
        en: the reason, one English sentence.
        zh: the reason, one Simplified Chinese sentence.
        mode: the :class:`~lingjun.checks.core.compat.CompatDecision` mode behind it (``""`` when none was taken).
    """

    verdict: str
    en: str
    zh: str
    mode: str = ""


class _Gpu:
    """A GPU as :func:`~lingjun.checks.core.compat.decide` reads it (``name`` and NVML ``brand``)."""

    def __init__(self, data_center: bool) -> None:
        self.name = None
        self.brand = "tesla" if data_center else "geforce"


def node_gpu(data_center: bool) -> Any:
    """A stand-in GPU of the class given, with the ``name``/``brand`` attributes ``decide`` reads."""
    return _Gpu(data_center)


def effective_driver(driver: DriverVersion) -> DriverVersion:
    """``driver`` itself, or for a branch-only driver (``R535``) an up-to-date driver of that branch (``535.9999.9999``)."""
    if not driver.is_branch_only:
        return driver
    return DriverVersion(text=f"{driver.branch}.{_TOP[0]}.{_TOP[1]}", parts=(driver.branch,) + _TOP)


def branch_thresholds(record: Optional[dict], ref: Optional[dict], branch: int) -> list[DriverVersion]:
    """Every full driver version inside ``branch`` at which a verdict can change, ascending, without duplicates.

    They are the minimums the record names (its ``driver.minimum`` and forward
    compatibility minimums) and the reference rows name (Table 3 minimum
    drivers, the minor version compatibility floors) that fall in the branch.
    Between two consecutive thresholds (and below the first) every driver of
    the branch gets the same verdict.
    """
    texts: list[Any] = []
    drv = (record or {}).get("driver") or {}
    if isinstance(drv, dict):
        texts.append(drv.get("minimum"))
        texts.extend(e.get("minimum") for e in drv.get("forward_compatibility") or [] if isinstance(e, dict))
    for row in (ref or {}).get("toolkit_min_driver") or []:
        if isinstance(row, dict):
            texts.append(row.get("linux_min_driver"))
    for row in (ref or {}).get("minor_version_compat") or []:
        if isinstance(row, dict):
            texts.append(row.get("min_driver"))
    found = {v for v in (parse_driver(t) for t in texts) if v is not None and not v.is_branch_only and v.branch == branch}
    return sorted(found)


def _stated(drv: dict, minimum: DriverVersion) -> str:
    stated = drv.get("stated_as")
    return stated if isinstance(stated, str) and stated.strip() else f">= {minimum}"


def _forward_entry(drv: dict, branch: int) -> Optional[DriverVersion]:
    """The record's forward compatibility minimum for ``branch`` unless the record resolves the branch as must-upgrade."""
    resolutions = {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}
    if resolutions.get(branch) == "must-upgrade":
        return None
    for entry in drv.get("forward_compatibility") or []:
        if isinstance(entry, dict) and entry.get("branch") == branch:
            return parse_driver(entry.get("minimum"))
    return None


def _must_upgrade(drv: dict, branch: int) -> bool:
    resolutions = {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}
    if resolutions.get(branch) == "allowed":
        return False
    return branch in (drv.get("must_upgrade_branches") or []) or resolutions.get(branch) == "must-upgrade"


def release_verdict(record: Optional[dict], driver: DriverVersion, data_center: bool, ref: Optional[dict]) -> ReleaseVerdict:
    """The verdict of ``record`` (a bundle release dict) on ``driver`` with GPUs of one class.

    Args:
        record: the release record as the bundle holds it (``ReleaseRecord.model_dump(mode="json")``).
        driver: the host driver; a branch-only version stands for an up-to-date driver of that branch.
        data_center: True for NVIDIA data center GPUs (H20, A100, T4 ...), False for any other (GeForce, RTX).
        ref: the bundle's ``cuda_drivers`` (NVIDIA's tables).

    Never raises on odd record or reference data: what cannot be read gives ``not-stated``.
    """
    record = record if isinstance(record, dict) else {}
    drv = record.get("driver")
    b = driver.branch
    if isinstance(drv, dict) and drv.get("vendor") == "ppu":
        return ReleaseVerdict("unsupported", "A PPU image: it runs on PPU accelerators with the PPU driver, not on NVIDIA GPUs.",
                              "PPU 镜像：运行在 PPU 加速卡与 PPU 驱动上，不适用于 NVIDIA GPU。")
    cuda = parse_cuda(record.get("cuda"))
    if cuda is None:
        return ReleaseVerdict("not-stated", "The release's CUDA version is not recorded.", "发布记录中没有该版本的 CUDA 版本。")
    if not isinstance(drv, dict):
        return ReleaseVerdict("not-stated", "The release records no driver requirement.", "发布记录中没有驱动要求。")
    minimum = parse_driver(drv.get("minimum"))
    if minimum is None:
        return ReleaseVerdict("not-stated", "The release records no NVIDIA driver minimum.", "发布记录中没有 NVIDIA 驱动最低版本。")
    stated = _stated(drv, minimum)
    compat_present: Optional[bool] = True if drv.get("forward_compatibility") else None
    installed = effective_driver(driver)
    decision: CompatDecision = decide(cuda, installed, ref, gpus=[node_gpu(data_center)], record=record,
                                      compat_present=compat_present,
                                      compat_in_use=True if (data_center and compat_present) else None)
    mode = decision.mode
    if mode == "unknown":
        return ReleaseVerdict("not-stated", f"No NVIDIA reference row for CUDA {cuda}: the data does not decide.",
                              f"NVIDIA 参考数据中没有 CUDA {cuda} 的驱动要求，无法判断。", mode)
    if mode == "forward":
        return ReleaseVerdict(
            "forward-compat",
            f"R{b} runs CUDA {cuda} on data center GPUs through the image's cuda-compat package (admitted by the {decision.admitted_by}).",
            f"R{b} 可在数据中心 GPU 上通过镜像中的 cuda-compat 包前向兼容运行 CUDA {cuda}（{_where_zh(decision.admitted_by)}允许）。",
            mode)
    if mode == "forward-unconfirmed":
        return ReleaseVerdict(
            "not-stated",
            f"Only forward compatibility could run CUDA {cuda} on R{b} (admitted by the {decision.admitted_by}); "
            f"the release's data does not show that the image carries cuda-compat.",
            f"R{b} 上只能靠前向兼容运行 CUDA {cuda}（{_where_zh(decision.admitted_by)}允许），但发布数据看不出镜像是否带有 cuda-compat。",
            mode)
    if mode == "unsupported":
        need = f"R{decision.required.branch} ({decision.required} or later)" if decision.required else "a newer driver"
        need_zh = f"R{decision.required.branch}（{decision.required} 或更高）" if decision.required else "更新的驱动"
        missing = [m for m in decision.missing if m != "data center GPU (not determined)"]
        floor_en = f"; CUDA {cuda.major}.x minor version compatibility needs {decision.floor} or later" if decision.floor else ""
        floor_zh = f"；CUDA {cuda.major}.x 次版本兼容至少需要 {decision.floor}" if decision.floor else ""
        return ReleaseVerdict(
            "unsupported",
            f"CUDA {cuda} needs driver {need}{floor_en}; no forward compatibility here (missing: {', '.join(missing)}).",
            f"CUDA {cuda} 需要驱动 {need_zh}{floor_zh}；此处也无法前向兼容（缺少：{'、'.join(_MISSING_ZH.get(m, m) for m in missing)}）。",
            mode)
    meets = installed.satisfies_minimum(minimum)
    if mode == "native":
        if meets:
            return ReleaseVerdict("native", f"R{b} meets the release's requirement ({stated}) and runs CUDA {cuda} natively.",
                                  f"R{b} 满足发布要求（{stated}），原生支持 CUDA {cuda}。", mode)
        return ReleaseVerdict(
            "minor-compat",
            f"Below the release's requirement ({stated}): CUDA {cuda} starts (NVIDIA's minimum is {decision.required}), "
            f"but the release was validated only from {minimum} on.",
            f"低于发布要求（{stated}）：CUDA {cuda} 可以启动（NVIDIA 要求 {decision.required}），但该发布只在 {minimum} 及以上验证过。",
            mode)
    # minor-version: CUDA starts with a limited feature set
    limits_en = f"CUDA {cuda.major}.x minor version compatibility (driver >= {decision.floor}) lets it start with a limited feature set"
    limits_zh = f"按 CUDA {cuda.major}.x 次版本兼容（驱动 >= {decision.floor}）可以启动，但功能受限"
    if meets:
        return ReleaseVerdict("minor-compat", f"Meets the release's requirement ({stated}); {limits_en}.",
                              f"满足发布要求（{stated}）；{limits_zh}。", mode)
    forward_min = _forward_entry(drv, b)
    if data_center and forward_min is not None and not installed.satisfies_minimum(forward_min):
        return ReleaseVerdict(
            "minor-compat",
            f"The release admits R{b} on data center GPUs only from {forward_min} on; below that, {limits_en}.",
            f"发布说明只允许数据中心 GPU 使用 {forward_min} 及以上的 R{b}；低于此版本时，{limits_zh}。", mode)
    if _must_upgrade(drv, b):
        why_en, why_zh = f"the release lists R{b} as a branch to upgrade", f"发布说明把 R{b} 列为需要升级的分支"
    elif forward_min is not None:
        why_en, why_zh = (f"the release admits R{b} only on data center GPUs (forward compatibility)",
                          f"发布说明只允许数据中心 GPU 通过前向兼容使用 R{b}")
    else:
        cut = drv.get("text_truncated") is True
        why_en = f"the release does not state R{b}" + (" (its driver text is cut off in our sources)" if cut else "")
        why_zh = f"发布说明没有提到 R{b}" + ("（其驱动说明在来源中不完整）" if cut else "")
    return ReleaseVerdict("minor-compat", f"Below the release's requirement ({stated}) and {why_en}; {limits_en}.",
                          f"低于发布要求（{stated}），且{why_zh}；{limits_zh}。", mode)


def _where_zh(where: str) -> str:
    if where == "release record":
        return "发布记录"
    return where.replace("base image", "基础镜像")

