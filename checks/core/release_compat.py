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
    the checker reports an error: CUDA cannot start on this driver and GPU,
    the release lists the branch as one to upgrade (must-upgrade: not
    supported, even where NVIDIA's minor version compatibility would let CUDA
    start, https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html),
    the driver is too old to drive the GPU's architecture at all
    (:func:`driver_predates_gpu`, derived: R470 cannot drive Hopper), or the
    image is built for PPU accelerators, not NVIDIA GPUs;
``not-stated``
    the driver branch is not in the reference data (:func:`unknown_branch`), or
    the release's data does not say: no driver requirement or CUDA version
    recorded, no reference row for its CUDA, forward compatibility is the
    only way and the record does not show that the image carries
    ``cuda-compat``, or CUDA runs natively on a branch below the release's
    minimum that the release's cut-off driver text (``text_truncated``) does
    not name: only the release's word is missing, and that is unknown, not absent.

A cut-off driver text (``text_truncated``) does not name every branch, so a
branch it leaves out is decided by the evidence that remains, each piece
named in the reason and in :attr:`ReleaseVerdict.derived_from`: the
release's CUDA with NVIDIA's forward-compatibility table (the CUDA base
image's branches) and minor version compatibility table, the image's
cuda-compat (the record's own forward-compatible branches show it), and what
the family's neighbouring releases state alike
(:func:`lingjun.checks.core.family_driver.driver_view`, which the callers
apply to the record).  On a data center GPU whose image carries cuda-compat
an admitted branch is then ``forward-compat`` ("from NVIDIA's
forward-compatibility table for CUDA 12.8 and what 25.06 and 25.08 state
...; 25.07's own driver text is cut off"), never weaker.  Otherwise a
cut-off driver text changes only the ``not-stated`` case above: below the CUDA major's
minor version compatibility floor CUDA cannot start whatever the text says
(``unsupported``, unless forward compatibility could apply), and between the
floor and the toolkit's own minimum CUDA starts with limits (``minor-compat``),
both from NVIDIA's tables alone.  No verdict is ``native`` below the
release's stated minimum; :attr:`ReleaseVerdict.release_minimum` carries the
minimum so a page can say "release needs >= N".

A driver given as a branch only (``R535``) stands for an up-to-date driver of
that branch: every minimum the data names inside the branch counts as met
(the reasons then name those minimums).

Pure functions over plain dicts (the bundle's ``releases`` and
``cuda_drivers``); standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from lingjun.checks.core.compat import (CompatDecision, decide, max_native_cuda, parse_cuda, parse_driver, toolkit_min_driver,
                                        where_zh)
from lingjun.checks.core.family_driver import cut_off, derived_entry
from lingjun.checks.core.gpu_arch import architecture, min_cuda_for_cc, parse_cc, sm_name
from lingjun.checks.core.versions import CudaVersion, DriverVersion

__all__ = ["VERDICTS", "KEYS", "WORDS", "ReleaseVerdict", "release_verdict", "DriverCase", "driver_case", "branch_named", "must_upgrade", "branch_thresholds", "effective_driver", "node_gpu",
           "driver_predates_gpu", "release_cuda_predates_gpu", "unknown_branch"]

#: the verdicts, best first
VERDICTS = ("native", "forward-compat", "minor-compat", "unsupported", "not-stated")

#: the cases behind a verdict (:attr:`ReleaseVerdict.key`):
#: ``ppu``; ``unknown-branch`` (a branch the reference data does not hold); ``predates-gpu`` (the driver cannot drive
#: the GPU's architecture at all); ``cuda-predates-gpu`` (the release's CUDA cannot build for the GPU's architecture); ``no-cuda``, ``no-driver``, ``no-minimum``, ``no-toolkit-row`` (the data does not decide);
#: ``forward``, ``forward-unconfirmed``; ``below-floor`` (CUDA cannot start); ``native``;
#: ``below-release-minimum`` (CUDA starts, the release asks for more); ``cut-off`` (CUDA runs natively, the
#: release asks for more and its driver text is cut off); ``minor`` (minor version compatibility at or above the
#: release's minimum); ``forward-below-minimum``, ``data-center-only``, ``not-named``, ``compat-not-shown`` (minor
#: version compatibility below the release's minimum, and why the release does not admit the branch: the last, its
#: family admits it through cuda-compat but the cut-off record does not show the package); ``must-upgrade`` (the
#: release, or for a cut-off text its family, lists the branch as one to upgrade: unsupported)
KEYS = ("ppu", "unknown-branch", "predates-gpu", "cuda-predates-gpu", "no-cuda", "no-driver", "no-minimum", "no-toolkit-row", "forward", "forward-unconfirmed", "below-floor",
        "native", "below-release-minimum", "cut-off", "minor", "forward-below-minimum", "must-upgrade",
        "data-center-only", "not-named", "compat-not-shown")

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
        key: which case decided, for pages that label a cell (:data:`KEYS`).
        release_minimum: the release's stated minimum (``"575"``) when the driver is below it, else None.
        derived_from: when the release's own driver text is cut off and does not name the branch, the evidence the
            verdict comes from instead, each piece named in English (``("NVIDIA's forward-compatibility table for
            CUDA 12.8", "25.06 and 25.08")``); empty for a verdict the release's own text (or no driver text) gives.
    """

    verdict: str
    en: str
    zh: str
    mode: str = ""
    key: str = ""
    release_minimum: Optional[str] = None
    derived_from: tuple[str, ...] = ()

    @property
    def derived(self) -> bool:
        """True when the verdict comes from the evidence that remains, not from the release's own driver text."""
        return bool(self.derived_from)


#: the words of a verdict derived from the evidence that remains when a release's driver text is cut off
#: (:func:`_evidence`), and of a must-upgrade branch; ``(en, zh)`` templates
WORDS: dict[str, tuple[str, str]] = {
    "from.nvidia": ("NVIDIA's forward-compatibility table for CUDA {table}", "NVIDIA 的 CUDA {table} 向前兼容表"),
    "from.family.forward": ("what {versions} state{s} (R{b} from {minimum} on)", "{versions} 的说明（R{b} 自 {minimum} 起）"),
    "from.family.forward-any": ("what {versions} state{s} (R{b})", "{versions} 的说明（R{b}）"),
    "from.family.must-upgrade": ("what {versions} state{s} (R{b} is a branch to upgrade)", "{versions} 的说明（R{b} 需要升级）"),
    "from.minor": ("NVIDIA's minor version compatibility table", "NVIDIA 的次版本兼容表"),
    "and": (" and ", "与"),
    "cut": ("{version}'s own driver text is cut off", "{version} 自身的驱动说明被截断"),
    "forward": ("R{b} runs CUDA {cuda} on data center GPUs through the image's cuda-compat package (forward compatibility), "
                "from {evidence}; {cut}.",
                "R{b} 可在数据中心 GPU 上通过镜像中的 cuda-compat 包向前兼容运行 CUDA {cuda}，依据{evidence}；{cut}。"),
    "forward-below-minimum": ("{versions} admit{s} R{b} on data center GPUs only from {minimum} on ({cut}); below that, {limits}.",
                              "{versions} 只允许数据中心 GPU 使用 {minimum} 及以上的 R{b}（{cut}）；低于此版本时，{limits}。"),
    "compat-not-shown": ("Below the release's requirement ({stated}); {versions} admit{s} R{b} on data center GPUs through "
                         "cuda-compat ({minimum} or later), but {cut} and does not show that the image carries cuda-compat; "
                         "{limits}.",
                         "低于发布要求（{stated}）；{versions} 允许数据中心 GPU 通过 cuda-compat 使用 R{b}（{minimum} 或更高），"
                         "但{cut}，看不出镜像是否带有 cuda-compat；{limits}。"),
    "data-center-only.derived": ("Below the release's requirement ({stated}), and {versions} admit{s} R{b} only on data center GPUs "
                                 "(forward compatibility; {cut}); {limits}.",
                                 "低于发布要求（{stated}），且 {versions} 只允许数据中心 GPU 通过向前兼容使用 R{b}（{cut}）；{limits}。"),
    "must-upgrade": ("Not supported: below the release's requirement ({stated}), and the release lists R{b} as a branch to "
                     "upgrade, although {limits}.",
                     "不支持：低于发布要求（{stated}），且发布说明把 R{b} 列为需要升级的分支，尽管{limits}。"),
    "must-upgrade.derived": ("Not supported: below the release's requirement ({stated}), and {versions} list{s} R{b} as a branch "
                             "to upgrade ({cut}), although {limits}.",
                             "不支持：低于发布要求（{stated}），且 {versions} 把 R{b} 列为需要升级的分支（{cut}），尽管{limits}。"),
}


def _versions(names: Any, lang: str) -> str:
    """``25.06 and 25.08`` / ``25.06、25.08``."""
    names = [str(n) for n in names or []]
    if lang == "zh":
        return "、".join(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _s(names: Any) -> str:
    """The English verb's ``s`` for one release named (``25.09 states``), none for several (``25.06 and 25.08 state``)."""
    return "s" if len(list(names or [])) == 1 else ""


def _nvidia_row(ref: Optional[dict], cuda: CudaVersion, branch: int) -> Optional[str]:
    """The CUDA version of NVIDIA's base-image row for ``cuda`` when it admits ``branch`` (as forward_admitted reads it)."""
    for row in (ref or {}).get("forward_compat_images") or []:
        row_cuda = parse_cuda(row.get("image_cuda")) if isinstance(row, dict) else None
        if row_cuda and row_cuda.major_minor == cuda.major_minor:
            return str(row_cuda) if branch in (row.get("branches") or []) else None
    return None


def _evidence(drv: dict, ref: Optional[dict], cuda: CudaVersion, branch: int) -> tuple[tuple[str, ...], str, str]:
    """What admits ``branch`` for forward compatibility when the record's own text does not name it:
    ``(names, en, zh)``; the names in English for :attr:`ReleaseVerdict.derived_from`."""
    pieces: list[tuple[str, str, str]] = []
    table = _nvidia_row(ref, cuda, branch)
    if table is not None:
        en, zh = WORDS["from.nvidia"]
        pieces.append((en.format(table=table), en.format(table=table), zh.format(table=table)))
    entry = derived_entry(drv, branch)
    if entry is not None:
        key = "from.family.forward" if entry.get("minimum") else "from.family.forward-any"
        en, zh = WORDS[key]
        fill = {"b": branch, "minimum": entry.get("minimum")}
        pieces.append((_versions(entry.get("from"), "en"), en.format(versions=_versions(entry.get("from"), "en"), s=_s(entry.get("from")), **fill),
                       zh.format(versions=_versions(entry.get("from"), "zh"), **fill)))
    return (tuple(p[0] for p in pieces), WORDS["and"][0].join(p[1] for p in pieces), WORDS["and"][1].join(p[2] for p in pieces))


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

    They are the minimums the record names (its ``driver.minimum``, forward
    compatibility minimums and those its family states for a cut-off text,
    ``driver.derived``) and the reference rows name (Table 3 minimum
    drivers, the minor version compatibility floors) that fall in the branch.
    Between two consecutive thresholds (and below the first) every driver of
    the branch gets the same verdict.
    """
    drv = (record or {}).get("driver") or {}
    texts: list[Any] = [drv.get("minimum")] if isinstance(drv, dict) else []
    if isinstance(drv, dict):
        texts += _field(drv.get("forward_compatibility"), "minimum") + _field(drv.get("derived"), "minimum")
    texts += _field((ref or {}).get("toolkit_min_driver"), "linux_min_driver") + _field((ref or {}).get("minor_version_compat"), "min_driver")
    found = {v for v in (parse_driver(t) for t in texts) if v is not None and not v.is_branch_only and v.branch == branch}
    return sorted(found)


def _field(rows: Any, name: str) -> list[Any]:
    """``row[name]`` of every dict among ``rows`` (None or a list)."""
    return [row.get(name) for row in rows or [] if isinstance(row, dict)]


def _stated(drv: dict, minimum: DriverVersion) -> str:
    stated = drv.get("stated_as")
    return stated if isinstance(stated, str) and stated.strip() else f">= {minimum}"


def branch_named(drv: dict, branch: int) -> bool:
    """Whether the record's driver text names ``branch`` (forward compatible or must-upgrade)."""
    listed = {e.get("branch") for e in drv.get("forward_compatibility") or [] if isinstance(e, dict)}
    return branch in listed or branch in (drv.get("must_upgrade_branches") or [])


def must_upgrade(drv: dict, branch: int) -> bool:
    """Whether the record's driver text (``drv``), or for a cut-off text what its family states (``derived``), lists
    ``branch`` as one to upgrade (a ``branch_resolutions`` entry ``allowed`` says no)."""
    resolutions = {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}
    if resolutions.get(branch) == "allowed":
        return False
    if branch in (drv.get("must_upgrade_branches") or []) or resolutions.get(branch) == "must-upgrade":
        return True
    entry = derived_entry(drv, branch)
    return entry is not None and entry.get("decision") == "must-upgrade"


def driver_predates_gpu(driver: DriverVersion, compute_capability: object, ref: Optional[dict]) -> Optional[tuple[str, str, str]]:
    """Whether ``driver`` is too old to drive a GPU of ``compute_capability`` at all: ``(en, zh, minimum driver)`` or None.

    Derived, not a table NVIDIA prints: a driver supports a GPU architecture
    only if its native CUDA version (:func:`~lingjun.checks.core.compat.max_native_cuda`,
    Table 3 of the CUDA Toolkit release notes and the CUDA compatibility
    guide, https://docs.nvidia.com/deploy/cuda-compatibility/) is at least the
    CUDA version that introduced the architecture
    (:func:`~lingjun.checks.core.gpu_arch.min_cuda_for_cc`, from the CUDA
    Toolkit release notes per architecture: sm_90 with 11.8, sm_100/sm_120
    with 12.8).  R470 (CUDA 11.4) cannot drive Hopper; R535 (12.2) cannot
    drive Blackwell.  A branch-only driver stands for an up-to-date driver of
    the branch.

    Returns None when it can drive the GPU or when the data does not decide
    (no compute capability, an architecture without a known first CUDA, no
    Table 3 rows).  The reasons name the branch, never the exact driver.
    """
    cc = compute_capability if isinstance(compute_capability, tuple) else parse_cc(compute_capability)
    first = min_cuda_for_cc(cc) if cc else None
    if first is None:
        return None
    first_cuda = CudaVersion(text=f"{first[0]}.{first[1]}", major=first[0], minor=first[1])
    needed = toolkit_min_driver(first_cuda, ref)
    if needed is None:
        return None
    native = max_native_cuda(effective_driver(driver), ref)
    if native is not None and native.major_minor >= first:
        return None
    arch = (architecture(cc) or sm_name(cc)).capitalize()
    b = driver.branch
    return (f"R{b} predates {arch} GPUs: {sm_name(cc)} needs a driver for CUDA {first_cuda} or later ({needed} or later).",
            f"R{b} 早于 {arch} 架构 GPU：{sm_name(cc)} 需要支持 CUDA {first_cuda} 或更高版本的驱动（{needed} 或更高）。",
            str(needed))


def release_cuda_predates_gpu(cuda: object, compute_capability: object) -> Optional[tuple[str, str]]:
    """Whether a release built on CUDA ``cuda`` (``"12.4"``) is too old for a GPU of ``compute_capability``: ``(en,
    zh)`` or None.

    A CUDA toolkit compiles for the architectures that existed when it was released: the first CUDA per architecture
    is :func:`~lingjun.checks.core.gpu_arch.min_cuda_for_cc` (sm_90 with 11.8, sm_100 and sm_120 with 12.8, from the
    CUDA Toolkit release notes, https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/). An image built on an older
    CUDA holds no kernels its toolkit could not build (torch, vLLM and the other builds of the image), so the
    ``cuda.compute-capability`` rule finds the same GPU unsupported. None when the data does not decide (no CUDA
    version, no compute capability, an architecture without a known first CUDA)."""
    version = parse_cuda(cuda) if not isinstance(cuda, CudaVersion) else cuda
    cc = compute_capability if isinstance(compute_capability, tuple) else parse_cc(compute_capability)
    first = min_cuda_for_cc(cc) if cc else None
    if version is None or first is None or version.major_minor >= first:
        return None
    arch = (architecture(cc) or sm_name(cc)).capitalize()
    need = f"{first[0]}.{first[1]}"
    return (f"Built on CUDA {version.major}.{version.minor}, which predates {arch} GPUs: {sm_name(cc)} needs CUDA {need} "
            f"or later, so the image's builds hold no kernels for it; use a release built on CUDA {need} or later.",
            f"基于 CUDA {version.major}.{version.minor} 构建，早于 {arch} 架构 GPU：{sm_name(cc)} 需要 CUDA {need} 或更高版本，"
            f"镜像中的构建不含适用于它的内核；请改用基于 CUDA {need} 或更高版本构建的发布。")


def unknown_branch(branch: object) -> ReleaseVerdict:
    """The verdict for a driver branch the reference data does not hold (``R999``): not stated, for every release.

    ``branch`` is the branch number (or a placeholder the finder page's script fills in).
    """
    return ReleaseVerdict("not-stated", f"R{branch} is not in the reference data: no verdict.",
                          f"参考数据中没有 R{branch}，无法给出结论。", key="unknown-branch")


def driver_not_captured(record: object) -> bool:
    """True when ``record`` (a bundle release dict) names ``driver`` in ``not_captured`` and records no driver:
    the page's driver section was not seen, so its requirement is not known (never "the page states none")."""
    return (isinstance(record, dict) and not isinstance(record.get("driver"), dict)
            and "driver" in (record.get("not_captured") or []))


@dataclass(frozen=True)
class DriverCase:
    """How a release's NVIDIA driver requirement reads for one driver: the case and the values behind it.

    :func:`driver_case` decides it; :func:`release_verdict` words it for the finder and ``lingjun-kb which``, and the
    rule ``driver.minimum`` maps it to a finding, so the two never decide apart.

    Attributes:
        key: the case, one of :data:`KEYS` (``no-cuda`` ... ``not-named``), or ``forward-admitted`` (checker only:
            the input does not show the image's cuda-compat libcuda in use, and the release admits the branch on
            these data center GPUs, ``admitted_by``).
        decision: :func:`~lingjun.checks.core.compat.decide`'s answer (None for ``no-cuda``).
        below: whether the driver is below the release's ``driver.minimum``.
        derive: the release's driver text is cut off and does not name the branch (the verdict comes from what remains).
        admitted: the record (or, its text cut off, its family) admits the branch for forward compatibility
            (an entry, with or without a minimum; a branch resolved must-upgrade is not admitted).
        forward_minimum: that entry's minimum (None without one).
        forward_family: the family's ``driver.derived`` entry the admission comes from, when the record's own text
            has none for the branch.
        family: the ``driver.derived`` entry of the branch when ``derive`` (:func:`~lingjun.checks.core.family_driver.derived_entry`).
        admitted_by: who admits the branch in the ``forward-admitted`` case (``"release record"``).
    """

    key: str
    decision: Optional[CompatDecision]
    below: bool
    derive: bool = False
    admitted: bool = False
    forward_minimum: Optional[DriverVersion] = None
    forward_family: Optional[dict] = None
    family: Optional[dict] = None
    admitted_by: Optional[str] = None


def _resolutions(drv: dict) -> dict:
    return {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}


def _admission(drv: dict, branch: int) -> tuple[bool, Optional[DriverVersion], Optional[dict]]:
    """``(admitted, minimum, family entry)``: the record's forward compatibility entry for ``branch``, else its
    family's (``driver.derived``, decision ``forward``); a branch resolved must-upgrade is not admitted."""
    if _resolutions(drv).get(branch) == "must-upgrade":
        return False, None, None
    for entry in drv.get("forward_compatibility") or []:
        if isinstance(entry, dict) and entry.get("branch") == branch:
            return True, parse_driver(entry.get("minimum")), None
    entry = derived_entry(drv, branch)
    if entry is not None and entry.get("decision") == "forward":
        return True, parse_driver(entry.get("minimum")), entry
    return False, None, None


def _native_key(drv: dict, branch: int, below: bool) -> str:
    if not below:
        return "native"
    # CUDA runs natively; only the release's word is missing, and its driver text is cut off: unknown, not absent
    return "cut-off" if drv.get("text_truncated") is True and not branch_named(drv, branch) else "below-release-minimum"


def _minor_key(drv: dict, branch: int, below: bool, data_center: bool, admission: tuple, family: Optional[dict],
               driver: DriverVersion, admitted_by: Optional[str]) -> str:
    """The case of a driver that runs the release's CUDA through minor version compatibility."""
    _, forward_min, _ = admission
    if not below:
        return "minor"
    if admitted_by is not None:
        return "forward-admitted"
    if data_center and forward_min is not None and not driver.satisfies_minimum(forward_min):
        return "forward-below-minimum"
    if must_upgrade(drv, branch):
        # the release (or, its text cut off, its family's neighbours) says this branch must be upgraded: not
        # supported, although NVIDIA's minor version compatibility would let CUDA start
        return "must-upgrade"
    if forward_min is not None and family is not None:
        return "compat-not-shown" if data_center else "data-center-only"
    return "data-center-only" if forward_min is not None else "not-named"


#: :func:`decide`'s modes that settle the case alone
_MODE_KEYS = {"unknown": "no-toolkit-row", "forward": "forward", "forward-unconfirmed": "forward-unconfirmed",
              "unsupported": "below-floor"}


def driver_case(record: dict, driver: DriverVersion, decision: Optional[CompatDecision], data_center: bool,
                admitted_by: Optional[str] = None) -> DriverCase:
    """The case of ``record`` (a release dict whose ``driver`` states an NVIDIA ``minimum``) on ``driver``.

    Args:
        record: the release record (or the rule's view of it, with ``driver.derived``).
        driver: the host driver (a full version; :func:`effective_driver` for a branch-only one).
        decision: :func:`~lingjun.checks.core.compat.decide` for the image's CUDA on ``driver``; None when the image's
            CUDA is not known (``no-cuda``).
        data_center: every GPU is an NVIDIA data center GPU.
        admitted_by: the checker's word that the release admits the branch for forward compatibility although the
            input does not show the image's cuda-compat libcuda in use
            (:func:`lingjun.checks.rules._driver_facts.forward_admission`); ``release_verdict`` never passes it.

    Returns a :class:`DriverCase`; never raises on odd record data.
    """
    drv = record.get("driver") if isinstance(record.get("driver"), dict) else {}
    b = driver.branch
    minimum = parse_driver(drv.get("minimum"))
    below = minimum is not None and not driver.satisfies_minimum(minimum)
    derive = cut_off(record) and not branch_named(drv, b) and b not in _resolutions(drv)
    admission = _admission(drv, b)
    values = {"below": below, "derive": derive, "admitted": admission[0], "forward_minimum": admission[1],
              "forward_family": admission[2], "family": derived_entry(drv, b) if derive else None}
    if decision is None:
        return DriverCase("no-cuda", None, **values)
    mode = decision.mode
    if mode in _MODE_KEYS:
        return DriverCase(_MODE_KEYS[mode], decision, **values)
    if mode == "native":
        return DriverCase(_native_key(drv, b, below), decision, **values)
    key = _minor_key(drv, b, below, data_center, admission, values["family"], driver, admitted_by)
    return DriverCase(key, decision, admitted_by=admitted_by if key == "forward-admitted" else None, **values)


def _early_verdict(record: dict, driver: DriverVersion, ref: Optional[dict], compute_capability: object,
                   known_branches: Optional[Any]) -> Optional[ReleaseVerdict]:
    """The verdicts the driver and the record give before NVIDIA's tables are read: PPU image, unknown branch, a
    driver that predates the GPU, no CUDA, no driver requirement, no NVIDIA minimum; None otherwise."""
    drv = record.get("driver")
    # a PPU image: its driver is the PPU driver, or it states none but a PPU SDK (training-xpu-pytorch 2026-10-20)
    if (drv.get("vendor") == "ppu") if isinstance(drv, dict) and drv.get("vendor") else bool(record.get("ppu_sdk")):
        return ReleaseVerdict("unsupported", "A PPU image: it runs on PPU accelerators with the PPU driver, not on NVIDIA GPUs.",
                              "PPU 镜像：运行在 PPU 加速卡与 PPU 驱动上，不适用于 NVIDIA GPU。", key="ppu")
    if known_branches is not None and driver.branch not in known_branches:
        return unknown_branch(driver.branch)
    predates = driver_predates_gpu(driver, compute_capability, ref)
    if predates is not None:
        return ReleaseVerdict("unsupported", predates[0], predates[1], key="predates-gpu")
    too_old = release_cuda_predates_gpu(record.get("cuda"), compute_capability)
    if too_old is not None:
        return ReleaseVerdict("unsupported", too_old[0], too_old[1], key="cuda-predates-gpu")
    if parse_cuda(record.get("cuda")) is None:
        return ReleaseVerdict("not-stated", "The release's CUDA version is not recorded.", "发布记录中没有该版本的 CUDA 版本。", key="no-cuda")
    if not isinstance(drv, dict):
        if driver_not_captured(record):
            return ReleaseVerdict("not-stated", "The release's driver requirement was not recorded from its page (the copy "
                                  "read does not show that section).", "未从页面记录该发布的驱动要求（所读页面内容中没有这一部分）。",
                                  key="no-driver")
        return ReleaseVerdict("not-stated", "The release records no driver requirement.", "发布记录中没有驱动要求。", key="no-driver")
    if parse_driver(drv.get("minimum")) is None:
        return ReleaseVerdict("not-stated", "The release records no NVIDIA driver minimum.", "发布记录中没有 NVIDIA 驱动最低版本。", key="no-minimum")
    return None


@dataclass(frozen=True)
class _Say:
    """What a verdict's words are filled with (:func:`release_verdict`)."""

    case: DriverCase
    b: int
    cuda: CudaVersion
    minimum: DriverVersion
    stated: str
    below: Optional[str]
    cut: dict
    limits_en: str
    limits_zh: str

    def verdict(self, verdict: str, en: str, zh: str, derived_from: tuple[str, ...] = ()) -> ReleaseVerdict:
        return ReleaseVerdict(verdict, en, zh, self.case.decision.mode, self.case.key, self.below, derived_from)


def _say_forward(s: _Say, drv: dict, ref: Optional[dict]) -> ReleaseVerdict:
    d = s.case.decision
    if s.case.derive:
        names, ev_en, ev_zh = _evidence(drv, ref, s.cuda, s.b)
        return s.verdict("forward-compat", WORDS["forward"][0].format(b=s.b, cuda=s.cuda, evidence=ev_en, cut=s.cut["en"]),
                         WORDS["forward"][1].format(b=s.b, cuda=s.cuda, evidence=ev_zh, cut=s.cut["zh"]),
                         names + ("the image's cuda-compat",))
    return s.verdict(
        "forward-compat",
        f"R{s.b} runs CUDA {s.cuda} on data center GPUs through the image's cuda-compat package (admitted by the {d.admitted_by}).",
        f"R{s.b} 可在数据中心 GPU 上通过镜像中的 cuda-compat 包向前兼容运行 CUDA {s.cuda}（{where_zh(d.admitted_by)}允许）。")


def _say_forward_unconfirmed(s: _Say) -> ReleaseVerdict:
    d = s.case.decision
    return s.verdict(
        "not-stated",
        f"Only forward compatibility could run CUDA {s.cuda} on R{s.b} (admitted by the {d.admitted_by}); "
        f"the release's data does not show that the image carries cuda-compat.",
        f"R{s.b} 上只能靠向前兼容运行 CUDA {s.cuda}（{where_zh(d.admitted_by)}允许），但发布数据看不出镜像是否带有 cuda-compat。")


def _say_below_floor(s: _Say) -> ReleaseVerdict:
    d, cuda = s.case.decision, s.cuda
    need = f"R{d.required.branch} ({d.required} or later)" if d.required else "a newer driver"
    need_zh = f"R{d.required.branch}（{d.required} 或更高）" if d.required else "更新的驱动"
    missing = [m for m in d.missing if m != "data center GPU (not determined)"]
    floor_en = f"; CUDA {cuda.major}.x minor version compatibility needs {d.floor} or later" if d.floor else ""
    floor_zh = f"；CUDA {cuda.major}.x 次版本兼容至少需要 {d.floor}" if d.floor else ""
    return s.verdict(
        "unsupported",
        f"CUDA {cuda} needs driver {need}{floor_en}; no forward compatibility here (missing: {', '.join(missing)}).",
        f"CUDA {cuda} 需要驱动 {need_zh}{floor_zh}；此处也无法向前兼容（缺少：{'、'.join(_MISSING_ZH.get(m, m) for m in missing)}）。")


def _say_native(s: _Say) -> ReleaseVerdict:
    b, cuda, stated, required = s.b, s.cuda, s.stated, s.case.decision.required
    if s.case.key == "native":
        return s.verdict("native", f"R{b} meets the release's requirement ({stated}) and runs CUDA {cuda} natively.",
                         f"R{b} 满足发布要求（{stated}），原生支持 CUDA {cuda}。")
    if s.case.key == "cut-off":
        return s.verdict(
            "not-stated",
            f"CUDA {cuda} runs natively on R{b} (NVIDIA's minimum is {required}), but the release asks for "
            f"{stated} and its recorded driver text is cut off, so whether it admits R{b} is not stated.",
            f"CUDA {cuda} 可在 R{b} 上原生运行（NVIDIA 要求 {required}），但该发布要求 {stated}，"
            f"且记录的驱动说明被截断，是否允许 R{b} 未说明。")
    return s.verdict(
        "minor-compat",
        f"Below the release's requirement ({stated}): CUDA {cuda} starts (NVIDIA's minimum is {required}), "
        f"but the release was validated only from {s.minimum} on.",
        f"低于发布要求（{stated}）：CUDA {cuda} 可以启动（NVIDIA 要求 {required}），但该发布只在 {s.minimum} 及以上验证过。")


def _say_forward_below_minimum(s: _Say) -> ReleaseVerdict:
    b, forward_min = s.b, s.case.forward_minimum
    if s.case.family is not None:
        versions = s.case.family.get("from")
        en, zh = WORDS["forward-below-minimum"]
        return s.verdict("minor-compat",
                         en.format(versions=_versions(versions, "en"), s=_s(versions), b=b, minimum=forward_min, cut=s.cut["en"],
                                   limits=s.limits_en),
                         zh.format(versions=_versions(versions, "zh"), b=b, minimum=forward_min, cut=s.cut["zh"], limits=s.limits_zh),
                         (_versions(versions, "en"), "NVIDIA's minor version compatibility table"))
    return s.verdict("minor-compat", f"The release admits R{b} on data center GPUs only from {forward_min} on; below that, {s.limits_en}.",
                     f"发布说明只允许数据中心 GPU 使用 {forward_min} 及以上的 R{b}；低于此版本时，{s.limits_zh}。")


def _say_must_upgrade(s: _Say) -> ReleaseVerdict:
    would_en = s.limits_en.replace("lets it start", "would let it start")
    if s.case.family is not None:
        versions = s.case.family.get("from")
        en, zh = WORDS["must-upgrade.derived"]
        return s.verdict("unsupported",
                         en.format(stated=s.stated, versions=_versions(versions, "en"), s=_s(versions), b=s.b, cut=s.cut["en"], limits=would_en),
                         zh.format(stated=s.stated, versions=_versions(versions, "zh"), b=s.b, cut=s.cut["zh"], limits=s.limits_zh),
                         (_versions(versions, "en"),))
    en, zh = WORDS["must-upgrade"]
    return s.verdict("unsupported", en.format(stated=s.stated, b=s.b, limits=would_en), zh.format(stated=s.stated, b=s.b, limits=s.limits_zh))


def _say_not_admitted(s: _Say, drv: dict) -> ReleaseVerdict:
    """``compat-not-shown``, ``data-center-only``, ``not-named``: minor version compatibility below the release's minimum."""
    b, case = s.b, s.case
    if case.forward_minimum is not None and case.family is not None:
        versions = case.family.get("from")
        en, zh = WORDS["compat-not-shown" if case.key == "compat-not-shown" else "data-center-only.derived"]
        fill = {"stated": s.stated, "b": b, "minimum": case.forward_minimum}
        return s.verdict("minor-compat", en.format(versions=_versions(versions, "en"), s=_s(versions), cut=s.cut["en"], limits=s.limits_en, **fill),
                         zh.format(versions=_versions(versions, "zh"), cut=s.cut["zh"], limits=s.limits_zh, **fill),
                         (_versions(versions, "en"), "NVIDIA's minor version compatibility table"))
    if case.key == "data-center-only":
        why_en, why_zh = (f"the release admits R{b} only on data center GPUs (forward compatibility)",
                          f"发布说明只允许数据中心 GPU 通过向前兼容使用 R{b}")
    else:
        truncated = drv.get("text_truncated") is True
        why_en = f"the release does not state R{b}" + (" (its recorded driver text is cut off)" if truncated else "")
        why_zh = f"发布说明没有提到 R{b}" + ("（记录的驱动说明被截断）" if truncated else "")
    return s.verdict("minor-compat", f"Below the release's requirement ({s.stated}) and {why_en}; {s.limits_en}.",
                     f"低于发布要求（{s.stated}），且{why_zh}；{s.limits_zh}。",
                     ("NVIDIA's minor version compatibility table",) if case.derive else ())


def _word_case(s: _Say, drv: dict, ref: Optional[dict]) -> ReleaseVerdict:
    """:func:`release_verdict`'s words for a case of :func:`driver_case`."""
    key = s.case.key
    if key == "no-toolkit-row":  # the data does not decide: no release minimum to name
        return ReleaseVerdict("not-stated", f"No NVIDIA reference row for CUDA {s.cuda}: the data does not decide.",
                              f"NVIDIA 参考数据中没有 CUDA {s.cuda} 的驱动要求，无法判断。", s.case.decision.mode, key)
    if key == "minor":
        return s.verdict("minor-compat", f"Meets the release's requirement ({s.stated}); {s.limits_en}.",
                         f"满足发布要求（{s.stated}）；{s.limits_zh}。")
    sayers = {"forward": lambda: _say_forward(s, drv, ref), "forward-unconfirmed": lambda: _say_forward_unconfirmed(s),
              "below-floor": lambda: _say_below_floor(s), "native": lambda: _say_native(s), "cut-off": lambda: _say_native(s),
              "below-release-minimum": lambda: _say_native(s), "forward-below-minimum": lambda: _say_forward_below_minimum(s),
              "must-upgrade": lambda: _say_must_upgrade(s)}
    return sayers[key]() if key in sayers else _say_not_admitted(s, drv)


def release_verdict(record: Optional[dict], driver: DriverVersion, data_center: bool, ref: Optional[dict],
                    compute_capability: object = None, known_branches: Optional[Any] = None) -> ReleaseVerdict:
    """The verdict of ``record`` (a bundle release dict) on ``driver`` with GPUs of one class.

    Args:
        record: the release record as the bundle holds it (``ReleaseRecord.model_dump(mode="json")``); a PPU image
            (PPU driver, or no driver but a ``ppu_sdk``) is ``unsupported`` on NVIDIA GPUs whatever the driver.
        driver: the host driver; a branch-only version stands for an up-to-date driver of that branch.
        data_center: True for NVIDIA data center GPUs (H20, A100, T4 ...), False for any other (GeForce, RTX).
        ref: the bundle's ``cuda_drivers`` (NVIDIA's tables).
        compute_capability: the GPU's compute capability (``"9.0"``), when known: a driver too old to drive its
            architecture gives ``unsupported`` (:func:`driver_predates_gpu`) for every NVIDIA release.
        known_branches: the driver branches the reference data holds, when given: any other branch gives
            ``not-stated`` (:func:`unknown_branch`) for every release.

    The case is :func:`driver_case`'s (the one ``driver.minimum`` maps); this function words it.
    Never raises on odd record or reference data: what cannot be read gives ``not-stated``.
    """
    record = record if isinstance(record, dict) else {}
    early = _early_verdict(record, driver, ref, compute_capability, known_branches)
    if early is not None:
        return early
    drv = record["driver"]
    cuda = parse_cuda(record.get("cuda"))
    minimum = parse_driver(drv.get("minimum"))
    compat_present: Optional[bool] = True if drv.get("forward_compatibility") else None
    installed = effective_driver(driver)
    decision: CompatDecision = decide(cuda, installed, ref, gpus=[node_gpu(data_center)], record=record,
                                      compat_present=compat_present,
                                      compat_in_use=True if (data_center and compat_present) else None)
    case = driver_case(record, installed, decision, data_center)
    version = str(record.get("version") or "the release")
    floor = decision.floor
    say = _Say(case, driver.branch, cuda, minimum, _stated(drv, minimum), str(drv.get("minimum")) if case.below else None,
               {"en": WORDS["cut"][0].format(version=version), "zh": WORDS["cut"][1].format(version=version)},
               f"CUDA {cuda.major}.x minor version compatibility (driver >= {floor}) lets it start with a limited feature set",
               f"按 CUDA {cuda.major}.x 次版本兼容（驱动 >= {floor}）可以启动，但功能受限")
    return _word_case(say, drv, ref)
