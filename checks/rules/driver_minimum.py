"""driver.minimum: the kernel driver against the release record's minimum driver.

How a driver below the minimum reads is decided once, in :func:`lingjun.checks.core.release_compat.driver_case`
(the case the compatibility finder and ``lingjun-kb which`` word as well); this rule reads the facts the case
needs (the kernel driver, the image's CUDA, the GPUs' class, whether the input shows the image's cuda-compat in
use) and maps the case to a finding: :data:`SEVERITY` and the words in :data:`WORDS`.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import GPU_DATACENTER, decide, gpu_class, parse_driver
from lingjun.checks.core.release_compat import DriverCase, driver_case, driver_not_captured
from lingjun.checks.core.versions import DriverVersion
from lingjun.checks.coverage import input_name, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.knowledge.release_record import Release
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import (
    DRIVER_VERSION,
    compat_present,
    driver_fix_text,
    driver_predates_gpus,
    driver_upgrade_remedy,
    forward_admission,
    image_cuda,
    kernel_driver,
)
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import with_reported_outcome
from lingjun.checks.rules._words import Words

RULE = "driver.minimum"
AREA = "driver"

WORDS = Words({
    "ppu.stated": ("PPU image: the release needs PPU driver {minimum} or newer ({stated}); the PPU driver's version is not "
                   "read, so it is not compared (NVIDIA driver minimums do not apply).",
                   "PPU 镜像：该发布要求 PPU 驱动 {minimum} 及以上（{stated}）；未读取 PPU 驱动版本，因此未作比较"
                   "（不适用 NVIDIA 驱动最低版本要求）。"),
    "ppu.not-captured": ("PPU image: the release's driver requirement was not recorded from its page (the copy read does "
                         "not show that section); NVIDIA driver minimums do not apply.",
                         "PPU 镜像：未从页面记录该发布的驱动要求（所读页面内容中没有这一部分）；不适用 NVIDIA 驱动最低版本要求。"),
    "ppu.none": ("PPU image: the release record states no driver requirement (not stated on the page read); "
                 "NVIDIA driver minimums do not apply.",
                 "PPU 镜像：发布记录未给出驱动要求（读到的页面未说明）；不适用 NVIDIA 驱动最低版本要求。"),
    "no-minimum": ("The release record states no NVIDIA driver minimum.", "发布记录未给出 NVIDIA 驱动最低版本。"),
    "not-shown": ("Not compared with the minimum {minimum}: {why}.", "未与最低要求 {minimum} 比较：{why}。"),
    "unreadable": ("Kernel driver version unreadable ({raw!r}); cannot compare with the minimum {minimum}.",
                   "无法解析内核驱动版本（{raw!r}），无法与最低要求 {minimum} 比较。"),
    "predates": ("{gpu}: {why}", "{gpu}：{why}"),
    "ok": ("Driver {driver} meets the release minimum ({stated}).", "驱动 {driver} 满足发布要求（{stated}）。"),
    "forward": ("Driver {driver} is below the release minimum ({stated}); on this data center GPU the R{b} branch "
                "is admitted for forward compatibility and the image carries cuda-compat.",
                "驱动 {driver} 低于发布要求（{stated}）；但这是数据中心 GPU，R{b} 分支可通过 cuda-compat 向前兼容运行本镜像。"),
    "forward-unconfirmed": ("Driver {driver} is below the release minimum ({stated}); on this data center GPU the R{b} branch is "
                            "admitted for forward compatibility, but {name} does not show whether the image's cuda-compat package is in place.",
                            "驱动 {driver} 低于发布要求（{stated}）；这是数据中心 GPU，R{b} 分支允许向前兼容，"
                            "但{name}中看不出镜像的 cuda-compat 包是否就位。"),
    "cut-off": ("Driver {driver} is below the release minimum ({stated}); NVIDIA's table gives {required} as the minimum "
                "for CUDA {cuda}, so CUDA will initialise, but the release's recorded driver text is cut off: whether it admits "
                "R{b} is not stated.",
                "驱动 {driver} 低于发布要求（{stated}）；按 NVIDIA 的对照表，CUDA {cuda} 只需 {required}，CUDA 可以初始化，"
                "但记录的驱动说明被截断：是否允许 R{b} 未说明。"),
    "below-release-minimum": ("Driver {driver} is below the release minimum ({stated}), although NVIDIA's table gives {required} as the "
                              "minimum for CUDA {cuda}: CUDA will initialise, but the release was only validated from {minimum} on.",
                              "驱动 {driver} 低于发布要求（{stated}）；不过按 NVIDIA 的对照表，CUDA {cuda} 只需 {required}："
                              "CUDA 可以初始化，但该发布只在 {minimum} 及以上版本验证过。"),
    "forward-admitted": ("Driver {driver} is below the release minimum ({stated}), but {by} R{b}{floor} on data center GPUs such as "
                         "these (forward compatibility){cut}.",
                         "驱动 {driver} 低于发布要求（{stated}），但{by}数据中心 GPU（如本机 GPU）使用 R{b}{floor}（向前兼容）{cut}。"),
    "forward-below-minimum": ("Driver {driver} is below the release minimum ({stated}); {by} R{b} on data center GPUs only from {floor} on.",
                              "驱动 {driver} 低于发布要求（{stated}）；{by}数据中心 GPU 使用 R{b}，但仅限 {floor} 及以上。"),
    "must-upgrade": ("Driver {driver} is below the release minimum ({stated}), and {who} R{b} as a branch to upgrade: "
                     "not supported, although CUDA {major}.x minor version compatibility (driver >= {floor}) would let "
                     "the image start with a limited feature set.",
                     "驱动 {driver} 低于发布要求（{stated}），且{who} R{b} 列为需要升级的分支：不受支持，尽管按 CUDA "
                     "{major}.x 次版本兼容（驱动 >= {floor}）镜像可以受限启动。"),
    "not-admitted": ("Driver {driver} is below the release minimum ({stated}), and the release does not state support for "
                     "R{b}{gpus}{truncated}. By NVIDIA's CUDA {major}.x minor version compatibility (driver >= {floor}) "
                     "the image may start, with a limited feature set.",
                     "驱动 {driver} 低于发布要求（{stated}），发布说明也没有写明支持 R{b}{gpus}{truncated}。按 NVIDIA 的 CUDA {major}.x "
                     "次版本兼容（驱动 >= {floor}），镜像或许可以启动，但功能受限。"),
    "below": ("Driver {driver} is below the release minimum ({stated}){floor}", "驱动 {driver} 低于发布要求（{stated}）{floor}"),
    "remedy.below": ("Upgrade the host driver to {up}, or use an older release built on a CUDA your driver supports.",
                     "请将宿主机驱动升级到 {up}，或改用基于本驱动所支持 CUDA 版本的旧版镜像。"),
    # pieces of the sentences above
    "by.release": ("the release admits", "发布说明允许"),
    "by.family": ("its family's releases {versions} admit", "该系列的 {versions} 允许"),
    "who.release": ("the release lists", "发布说明把"),
    "who.family": ("its family's neighbouring releases list", "该系列相邻版本把"),
    "floor.or-later": (" ({floor} or later)", "（{floor} 或更高）"),
    "cut": ("; this release's own driver text is cut off", "；本版本自身的驱动说明被截断"),
    "on-these-gpus": (" on these GPUs", ""),
    "truncated": (" (its recorded driver text is cut off, so it may name more branches)", "（记录的驱动说明被截断，可能还列有其他分支）"),
    "floor.minor": ("; CUDA {major}.x minor version compatibility needs at least {floor}.", "；CUDA {major}.x 次版本兼容至少需要 {floor}。"),
    "end": (".", "。"),
    "piece-none": ("", ""),
})

#: each case of :func:`~lingjun.checks.core.release_compat.driver_case` below the release's minimum, as a finding;
#: ``no-cuda``, ``no-toolkit-row``, ``below-floor`` (CUDA cannot start, or the data does not say it can) are errors
SEVERITY = {"forward": Severity.info, "forward-admitted": Severity.info, "forward-unconfirmed": Severity.warning,
            "cut-off": Severity.warning, "below-release-minimum": Severity.warning, "forward-below-minimum": Severity.warning,
            "must-upgrade": Severity.error, "compat-not-shown": Severity.warning, "data-center-only": Severity.warning,
            "not-named": Severity.warning}
#: the cases worded by the "not-admitted" sentence: minor version compatibility, the branch not admitted here
_NOT_ADMITTED = ("compat-not-shown", "data-center-only", "not-named")
#: the cases that name NVIDIA's forward compatibility document
_FORWARD = ("forward", "forward-admitted", "forward-unconfirmed", "forward-below-minimum")


@rule(RULE, AREA, "Driver meets the release minimum", "驱动版本满足发布要求", needs_gpu=True, order=30)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok at or above the minimum; below it, the case :func:`~lingjun.checks.core.release_compat.driver_case`
    decides, as :data:`SEVERITY` says: info (forward compatibility admitted), warning (CUDA starts, the release does
    not vouch for it), error otherwise (CUDA cannot start, the release lists the branch to upgrade, or the driver
    cannot drive the GPU at all)."""
    record = ctx.record
    if record is None:
        return
    if is_ppu(record):
        yield _ppu(ctx, record)
        return
    minimum = parse_driver(record.driver.minimum) if record.driver is not None else None
    if minimum is None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-minimum"))
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        yield _not_read(ctx, minimum)
        return
    yield _compared(ctx, record, driver, minimum)


def _ppu(ctx: CheckContext, record: Release) -> Finding:
    """A PPU image: the PPU driver's version is not among the facts read, so a minimum is stated, not compared."""
    ppu = record.driver
    if ppu is not None and ppu.minimum:
        stated = ppu.stated_as or f">= {ppu.minimum}"
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("ppu.stated", minimum=ppu.minimum, stated=stated),
                    expected=f">= {ppu.minimum}")
    key = "ppu.not-captured" if driver_not_captured(record.raw) else "ppu.none"
    return make(ctx, RULE, AREA, Severity.skipped, WORDS(key))


def _not_read(ctx: CheckContext, minimum: DriverVersion) -> Finding:
    """No kernel driver version to compare: none read (skipped, saying why), or one that does not parse (info)."""
    raw = ctx.facts.driver_version
    if raw is None:  # the driver shows itself by other signs (GPUs, NVML errors) but no version was read
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("not-shown", minimum=minimum, why=not_shown(ctx.facts, DRIVER_VERSION)),
                    expected=f">= {minimum}")
    return make(ctx, RULE, AREA, Severity.info, WORDS("unreadable", raw=raw, minimum=minimum), observed=raw, expected=f">= {minimum}")


def _compared(ctx: CheckContext, record: Release, driver: DriverVersion, minimum: DriverVersion) -> Finding:
    """The driver compared with the release's minimum: a GPU it cannot drive, ok, or the case below the minimum."""
    stated = (record.driver.stated_as if record.driver is not None else None) or f">= {minimum}"
    predates = driver_predates_gpus(ctx, driver)
    if predates is not None:
        gpu, en, zh, needed = predates
        return make(ctx, RULE, AREA, Severity.error, WORDS("predates", gpu=gpu, why=Text(en, zh)), remedy=driver_upgrade_remedy(ctx),
                    observed=str(driver), expected=f">= {needed}", links=[nvidia_url(ctx, "toolkit")])
    if driver.satisfies_minimum(minimum):
        return make(ctx, RULE, AREA, Severity.ok, WORDS("ok", driver=driver, stated=stated), observed=str(driver),
                    expected=f">= {minimum}")
    return _below(ctx, record, _case(ctx, record, driver), driver, minimum, stated)


def _case(ctx: CheckContext, record: Release, driver: DriverVersion) -> DriverCase:
    """:func:`~lingjun.checks.core.release_compat.driver_case` for the facts: the image's CUDA, the GPUs' class, and
    whether the input shows the image's cuda-compat libcuda in use (:func:`forward_admission` when it does not)."""
    cuda, _ = image_cuda(ctx)
    decision = decide(cuda, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=record.raw,
                      compat_present=compat_present(ctx.facts),
                      compat_in_use=ctx.facts.libcuda.is_forward_compat) if cuda else None
    classes = [gpu_class(g.name, g.brand, ctx.data.gpus) for g in ctx.facts.gpus]
    datacenter = bool(classes) and all(c == GPU_DATACENTER for c in classes)
    return driver_case(record.raw, driver, decision, datacenter, admitted_by=forward_admission(ctx, driver, decision))


def _below(ctx: CheckContext, record: Release, case: DriverCase, driver: DriverVersion, minimum: DriverVersion,
           stated: str) -> Finding:
    """The finding for ``case``, a driver below the release's minimum (:data:`SEVERITY`)."""
    severity = SEVERITY.get(case.key, Severity.error)
    links = [nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "minor")] + ([nvidia_url(ctx, "forward")] if case.key in _FORWARD else [])
    expected = f">= {case.forward_minimum}" if case.key == "forward-below-minimum" else f">= {minimum}"
    remedy = None if severity is Severity.info else driver_upgrade_remedy(ctx)
    if case.key not in SEVERITY:
        remedy = WORDS("remedy.below", up=driver_fix_text(ctx))
    cuda, _ = image_cuda(ctx)
    words = _words(ctx, record, case, {"driver": driver, "stated": stated, "b": driver.branch, "minimum": minimum, "cuda": cuda})
    return make(ctx, RULE, AREA, severity, words, remedy=remedy, observed=str(driver), expected=expected, links=links)


def _words(ctx: CheckContext, record: Release, case: DriverCase, values: dict) -> Text:
    """The sentence of ``case``, filled with ``values`` (driver, stated, b, minimum, cuda) and the case's own."""
    decision, key = case.decision, case.key
    if key in ("forward", "forward-unconfirmed", "cut-off", "below-release-minimum"):
        return WORDS(key, name=input_name(ctx.facts), required=decision.required, **values)
    if key in ("forward-admitted", "forward-below-minimum"):
        return WORDS(key, by=_admitted_by(case), floor=_floor_piece(case), cut=WORDS("cut" if case.forward_family else "piece-none"),
                     **values)
    major = values["cuda"].major if values["cuda"] else None
    if key == "must-upgrade":
        return WORDS(key, who=WORDS("who.family" if _family_says_upgrade(record, values["b"]) else "who.release"), major=major,
                     floor=decision.floor, **values)
    if key in _NOT_ADMITTED:
        truncated = record.driver is not None and record.driver.text_truncated
        return WORDS("not-admitted", gpus=WORDS("on-these-gpus" if case.admitted else "piece-none"),
                     truncated=WORDS("truncated" if truncated else "piece-none"), major=major, floor=decision.floor, **values)
    floor = WORDS("floor.minor", major=major, floor=decision.floor) if decision and decision.floor else WORDS("end")
    return WORDS("below", driver=values["driver"], stated=values["stated"], floor=floor)


def _admitted_by(case: DriverCase) -> Text:
    """"the release admits", or "its family's releases 25.06 and 25.08 admit" when the admission is the family's."""
    if case.forward_family is None:
        return WORDS("by.release")
    names = [str(v) for v in case.forward_family.get("from") or []]
    return WORDS("by.family", versions=Text(" and ".join(names), "、".join(names)))


def _floor_piece(case: DriverCase) -> Text:
    """" (535.86 or later)" for the ``forward-admitted`` sentence (the ``forward-below-minimum`` one names the floor
    itself)."""
    if case.key == "forward-below-minimum":
        return case.forward_minimum
    return WORDS("floor.or-later", floor=case.forward_minimum) if case.forward_minimum else WORDS("piece-none")


def _family_says_upgrade(record: Release, branch: int) -> bool:
    """Whether the must-upgrade word for ``branch`` is the family's (``driver.derived``): the record's own text
    neither lists the branch to upgrade nor resolves it so."""
    req = record.driver
    if req is None:
        return True
    resolved = {r.branch for r in req.branch_resolutions if r.decision == "must-upgrade"}
    return branch not in req.must_upgrade_branches and branch not in resolved
