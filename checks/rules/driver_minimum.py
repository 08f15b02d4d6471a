"""driver.minimum: the kernel driver against the release record's minimum driver."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._remedies import remedy_pair
from lingjun.checks.rules._symptoms import with_reported_outcome

RULE = "driver.minimum"
AREA = "driver"


@rule(RULE, AREA, "Driver meets the release minimum", "驱动版本满足发布要求", needs_gpu=True, order=30)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok at or above the minimum; below it: info (forward compatibility admitted), warning (CUDA minor
    version compatibility), error otherwise."""
    from lingjun.checks.core.compat import decide, parse_driver
    from lingjun.checks.core.release_compat import driver_not_captured
    from lingjun.checks.rules._driver_facts import (compat_present, driver_fix_text, driver_upgrade_remedy, driver_predates_gpus, image_cuda,
                                                    kernel_driver, release_admits_forward)

    record = ctx.record
    if record is None:
        return
    if is_ppu(record):
        ppu = record.get("driver") or {}
        if ppu.get("minimum"):  # the PPU driver's version is not among the facts read: stated, not compared
            stated = ppu.get("stated_as") or f">= {ppu['minimum']}"
            yield make(ctx, RULE, AREA, Severity.skipped,
                       f"PPU image: the release needs PPU driver {ppu['minimum']} or newer ({stated}); the PPU driver's "
                       f"version is not read, so it is not compared (NVIDIA driver minimums do not apply).",
                       f"PPU 镜像：该发布要求 PPU 驱动 {ppu['minimum']} 及以上（{stated}）；未读取 PPU 驱动版本，因此未作比较"
                       f"（不适用 NVIDIA 驱动最低版本要求）。", expected=f">= {ppu['minimum']}")
        elif driver_not_captured(record):
            yield make(ctx, RULE, AREA, Severity.skipped,
                       "PPU image: the release's driver requirement was not recorded from its page (the copy read does "
                       "not show that section); NVIDIA driver minimums do not apply.",
                       "PPU 镜像：未从页面记录该发布的驱动要求（所读页面内容中没有这一部分）；不适用 NVIDIA 驱动最低版本要求。")
        else:
            yield make(ctx, RULE, AREA, Severity.skipped,
                       "PPU image: the release record states no driver requirement (not stated on the page read); "
                       "NVIDIA driver minimums do not apply.",
                       "PPU 镜像：发布记录未给出驱动要求（读到的页面未说明）；不适用 NVIDIA 驱动最低版本要求。")
        return
    req = record.get("driver") or {}
    minimum = parse_driver(req.get("minimum"))
    if minimum is None:
        yield make(ctx, RULE, AREA, Severity.skipped, "The release record states no NVIDIA driver minimum.",
                   "发布记录未给出 NVIDIA 驱动最低版本。")
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        raw = ctx.facts.driver_version
        if raw is None:  # the driver shows itself by other signs (GPUs, NVML errors) but no version was read
            from lingjun.checks.coverage import not_shown

            from lingjun.checks.rules._driver_facts import DRIVER_VERSION

            why = not_shown(ctx.facts, DRIVER_VERSION)
            yield make(ctx, RULE, AREA, Severity.skipped,
                       f"Not compared with the minimum {minimum}: {why.en}.",
                       f"未与最低要求 {minimum} 比较：{why.zh}。", expected=f">= {minimum}")
        else:
            yield make(ctx, RULE, AREA, Severity.info,
                       f"Kernel driver version unreadable ({raw!r}); cannot compare with the minimum {minimum}.",
                       f"无法解析内核驱动版本（{raw!r}），无法与最低要求 {minimum} 比较。",
                       observed=raw, expected=f">= {minimum}")
        return
    stated = req.get("stated_as") or f">= {minimum}"
    up = driver_fix_text(ctx)  # the one driver every driver remedy of the report names
    upgrade = remedy_pair(driver_upgrade_remedy(ctx))
    predates = driver_predates_gpus(ctx, driver)
    if predates is not None:
        gpu, en, zh, needed = predates
        yield make(ctx, RULE, AREA, Severity.error, f"{gpu}: {en}", f"{gpu}：{zh}",
                   remedy=upgrade,
                   observed=str(driver), expected=f">= {needed}", links=[nvidia_url(ctx, "toolkit")])
        return
    if driver.satisfies_minimum(minimum):
        yield make(ctx, RULE, AREA, Severity.ok, f"Driver {driver} meets the release minimum ({stated}).",
                   f"驱动 {driver} 满足发布要求（{stated}）。", observed=str(driver), expected=f">= {minimum}")
        return
    cuda, _ = image_cuda(ctx)
    decision = decide(cuda, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=record,
                      compat_present=compat_present(ctx.facts),
               compat_in_use=ctx.facts.libcuda.is_forward_compat) if cuda else None
    links = [nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "minor")]
    if decision is not None and decision.mode == "forward":
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Driver {driver} is below the release minimum ({stated}); on this data center GPU the R{driver.branch} branch "
            f"is admitted for forward compatibility and the image carries cuda-compat.",
            f"驱动 {driver} 低于发布要求（{stated}）；但这是数据中心 GPU，R{driver.branch} 分支可通过 cuda-compat 向前兼容运行本镜像。",
            observed=str(driver), expected=f">= {minimum}", links=links + [nvidia_url(ctx, "forward")],
        )
        return
    if decision is not None and decision.mode == "forward-unconfirmed":
        from lingjun.checks.coverage import input_name

        name = input_name(ctx.facts)
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"Driver {driver} is below the release minimum ({stated}); on this data center GPU the R{driver.branch} branch is "
            f"admitted for forward compatibility, but {name.en} does not show whether the image's cuda-compat package is in place.",
            f"驱动 {driver} 低于发布要求（{stated}）；这是数据中心 GPU，R{driver.branch} 分支允许向前兼容，"
            f"但{name.zh}中看不出镜像的 cuda-compat 包是否就位。",
            remedy=upgrade,
            observed=str(driver), expected=f">= {minimum}", links=links + [nvidia_url(ctx, "forward")],
        )
        return
    from lingjun.checks.core.release_compat import branch_named

    if decision is not None and decision.mode == "native" and req.get("text_truncated") is True and not branch_named(req, driver.branch):
        # CUDA runs natively; only the release's word on this branch is missing, and its text is cut off
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"Driver {driver} is below the release minimum ({stated}); NVIDIA's table gives {decision.required} as the minimum "
            f"for CUDA {cuda}, so CUDA will initialise, but the release's recorded driver text is cut off: whether it admits "
            f"R{driver.branch} is not stated.",
            f"驱动 {driver} 低于发布要求（{stated}）；按 NVIDIA 的对照表，CUDA {cuda} 只需 {decision.required}，CUDA 可以初始化，"
            f"但记录的驱动说明被截断：是否允许 R{driver.branch} 未说明。",
            remedy=upgrade,
            observed=str(driver), expected=f">= {minimum}", links=links,
        )
        return
    if decision is not None and decision.mode == "native":
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"Driver {driver} is below the release minimum ({stated}), although NVIDIA's table gives {decision.required} as the "
            f"minimum for CUDA {cuda}: CUDA will initialise, but the release was only validated from {minimum} on.",
            f"驱动 {driver} 低于发布要求（{stated}）；不过按 NVIDIA 的对照表，CUDA {cuda} 只需 {decision.required}："
            f"CUDA 可以初始化，但该发布只在 {minimum} 及以上版本验证过。",
            remedy=upgrade,
            observed=str(driver), expected=f">= {minimum}", links=links,
        )
        return
    from lingjun.checks.core.compat import GPU_DATACENTER, gpu_class

    # a branch the record resolves as must-upgrade (listed both ways on the page) is not admitted
    resolved = {r.get("branch") for r in req.get("branch_resolutions") or [] if isinstance(r, dict) and r.get("decision") == "must-upgrade"}
    admitted = [r for r in req.get("forward_compatibility") or []
                if isinstance(r, dict) and r.get("branch") == driver.branch and driver.branch not in resolved]
    # the record's driver text cut off: what its family's neighbouring releases state alike (driver.derived,
    # lingjun.checks.core.family_driver), as the finder and `lingjun-kb which` read it
    family = [] if admitted else [r for r in req.get("derived") or [] if isinstance(r, dict) and r.get("decision") == "forward"
                                  and r.get("branch") == driver.branch and driver.branch not in resolved]
    admitted = admitted or family
    by_en = (f"its family's releases {' and '.join(str(v) for v in family[0].get('from') or [])} admit" if family
             else "the release admits")
    by_zh = (f"该系列的 {'、'.join(str(v) for v in family[0].get('from') or [])} 允许" if family else "发布说明允许")
    classes = [gpu_class(g.name, g.brand, ctx.data.gpus) for g in ctx.facts.gpus]
    datacenter = bool(classes) and all(c == GPU_DATACENTER for c in classes)
    if admitted and decision is not None and decision.mode in ("minor-version", "forward-unconfirmed") and datacenter:
        floor = parse_driver(admitted[0].get("minimum"))
        if release_admits_forward(ctx, driver, decision):
            yield make(
                ctx, RULE, AREA, Severity.info,
                f"Driver {driver} is below the release minimum ({stated}), but {by_en} R{driver.branch}"
                f"{f' ({floor} or later)' if floor else ''} on data center GPUs such as these (forward compatibility)"
                f"{'; this release' + chr(39) + 's own driver text is cut off' if family else ''}.",
                f"驱动 {driver} 低于发布要求（{stated}），但{by_zh}数据中心 GPU（如本机 GPU）使用 R{driver.branch}"
                f"{f'（{floor} 或更高）' if floor else ''}（向前兼容）{'；本版本自身的驱动说明被截断' if family else ''}。",
                observed=str(driver), expected=f">= {minimum}", links=links + [nvidia_url(ctx, "forward")],
            )
            return
        if floor is not None and not driver.satisfies_minimum(floor):
            yield make(
                ctx, RULE, AREA, Severity.warning,
                f"Driver {driver} is below the release minimum ({stated}); {by_en} R{driver.branch} on data center "
                f"GPUs only from {floor} on.",
                f"驱动 {driver} 低于发布要求（{stated}）；{by_zh}数据中心 GPU 使用 R{driver.branch}，但仅限 {floor} 及以上。",
                remedy=upgrade,
                observed=str(driver), expected=f">= {floor}", links=links + [nvidia_url(ctx, "forward")],
            )
            return
        # admitted, but the input shows the host's libcuda in use or no cuda-compat: minor version compatibility below
    from lingjun.checks.core.release_compat import must_upgrade

    if decision is not None and decision.mode == "minor-version" and must_upgrade(req, driver.branch):
        # the release (or, its driver text cut off, its family's neighbours) says this branch must be upgraded
        derived = driver.branch not in (req.get("must_upgrade_branches") or []) and driver.branch not in resolved
        who_en = "its family's neighbouring releases list" if derived else "the release lists"
        who_zh = "该系列相邻版本把" if derived else "发布说明把"
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"Driver {driver} is below the release minimum ({stated}), and {who_en} R{driver.branch} as a branch to upgrade: "
            f"not supported, although CUDA {cuda.major}.x minor version compatibility (driver >= {decision.floor}) would let "
            f"the image start with a limited feature set.",
            f"驱动 {driver} 低于发布要求（{stated}），且{who_zh} R{driver.branch} 列为需要升级的分支：不受支持，尽管按 CUDA "
            f"{cuda.major}.x 次版本兼容（驱动 >= {decision.floor}）镜像可以受限启动。",
            remedy=upgrade, observed=str(driver), expected=f">= {minimum}", links=links,
        )
        return
    truncated = bool((req or {}).get("text_truncated"))
    truncated_en = " (its recorded driver text is cut off, so it may name more branches)" if truncated else ""
    truncated_zh = "（记录的驱动说明被截断，可能还列有其他分支）" if truncated else ""
    if decision is not None and decision.mode == "minor-version":
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"Driver {driver} is below the release minimum ({stated}), and the release does not state support for "
            f"R{driver.branch}{' on these GPUs' if admitted else ''}{truncated_en}. By NVIDIA's CUDA {cuda.major}.x minor version compatibility (driver >= {decision.floor}) "
            f"the image may start, with a limited feature set.",
            f"驱动 {driver} 低于发布要求（{stated}），发布说明也没有写明支持 R{driver.branch}{truncated_zh}。按 NVIDIA 的 CUDA {cuda.major}.x "
            f"次版本兼容（驱动 >= {decision.floor}），镜像或许可以启动，但功能受限。",
            remedy=upgrade,
            observed=str(driver), expected=f">= {minimum}", links=links,
        )
        return
    yield make(
        ctx, RULE, AREA, Severity.error,
        f"Driver {driver} is below the release minimum ({stated})"
        + (f"; CUDA {cuda.major}.x minor version compatibility needs at least {decision.floor}." if decision and decision.floor else "."),
        f"驱动 {driver} 低于发布要求（{stated}）"
        + (f"；CUDA {cuda.major}.x 次版本兼容至少需要 {decision.floor}。" if decision and decision.floor else "。"),
        remedy=(f"Upgrade the host driver to {up.en}, or use an older release built on a CUDA your driver supports.",
                f"请将宿主机驱动升级到 {up.zh}，或改用基于本驱动所支持 CUDA 版本的旧版镜像。"),
        observed=str(driver), expected=f">= {minimum}", links=links,
    )
