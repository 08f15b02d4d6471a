"""driver.cuda-compatibility: how the image's CUDA runs on the kernel driver (native, minor version, forward, unsupported)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.compat import where_zh
from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import with_reported_outcome
from lingjun.checks.rules._symptoms import cuda_reported, failure_disproved, forward_unconfirmed

RULE = "driver.cuda-compatibility"
AREA = "driver"

_MISSING_ZH = {
    "data center GPU": "数据中心 GPU",
    "data center GPU (not determined)": "数据中心 GPU（无法确定 GPU 类型）",
    "admitted driver branch": "被允许的驱动分支",
    "cuda-compat package": "镜像中的 cuda-compat 包",
}


@rule(RULE, AREA, "Image CUDA runs on this driver", "镜像 CUDA 与驱动兼容", needs_gpu=True, order=40)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok (native or viable forward compatibility), warning (minor version compatibility), error otherwise."""
    from lingjun.checks.core.compat import decide
    from lingjun.checks.rules._driver_facts import (RELEASE_RECORD, bounded_by_release, compat_present, driver_predates_gpus,
                                                    image_cuda, forward_admission, kernel_driver)

    if is_ppu(ctx.record):
        return
    cuda, cuda_from = image_cuda(ctx)
    if cuda is None:
        from lingjun.checks.coverage import available, unavailable_reason

        if available(ctx.facts, "cuda-toolkit"):
            yield make(ctx, RULE, AREA, Severity.skipped, "The image's CUDA version is unknown (no release record, no toolkit found).",
                       "无法确定镜像的 CUDA 版本（没有发布记录，也未找到 CUDA 工具包）。")
        else:
            reason = unavailable_reason(ctx.facts, ["cuda-toolkit"])
            yield make(ctx, RULE, AREA, Severity.skipped, f"The image's CUDA version is unknown (no release record; {reason.en}).",
                       f"无法确定镜像的 CUDA 版本（没有发布记录；{reason.zh}）。")
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        raw = ctx.facts.driver_version
        if raw is None:  # the driver shows itself by other signs (GPUs, NVML errors) but no version was read
            from lingjun.checks.coverage import not_shown

            from lingjun.checks.rules._driver_facts import DRIVER_VERSION

            why = not_shown(ctx.facts, DRIVER_VERSION)
            yield make(ctx, RULE, AREA, Severity.skipped, f"The image's CUDA {cuda} was not compared with the driver: {why.en}.",
                       f"未将镜像的 CUDA {cuda} 与驱动比较：{why.zh}。")
        else:
            yield make(ctx, RULE, AREA, Severity.info, f"Kernel driver version unreadable ({raw!r}).",
                       f"无法解析内核驱动版本（{raw!r}）。", observed=raw)
        return
    predates = driver_predates_gpus(ctx, driver)
    if predates is not None:  # driver.minimum (or driver.present) reports it as an error
        gpu, en, zh, _ = predates
        yield make(ctx, RULE, AREA, Severity.skipped, f"The image's CUDA {cuda} was not compared with the driver: {gpu}: {en}",
                   f"未将镜像的 CUDA {cuda} 与驱动比较：{gpu}：{zh}")
        return
    d = decide(cuda, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record,
               compat_present=compat_present(ctx.facts),
               compat_in_use=ctx.facts.libcuda.is_forward_compat)
    where = forward_admission(ctx, driver, d)  # the one reading driver.minimum gives too
    if where is not None:
        by_en, by_zh = (("its family's neighbouring releases (this release's own driver text is cut off)", "该系列相邻版本（本版本自身的驱动说明被截断）")
                        if where == "family's releases" else ("the release record", "发布记录"))
        yield make(
            ctx, RULE, AREA, Severity.ok,
            f"CUDA {cuda} runs on driver {driver} through forward compatibility (data center GPU, branch R{driver.branch} "
            f"admitted by {by_en}; the release record says the image carries cuda-compat).",
            f"CUDA {cuda} 通过向前兼容在驱动 {driver} 上运行（数据中心 GPU，R{driver.branch} 分支经{by_zh}允许，发布记录表明镜像含 cuda-compat）。",
            observed=Text(f"CUDA {cuda} ({cuda_from.en}) on driver {driver}", f"驱动 {driver} 上的 CUDA {cuda}（{cuda_from.zh}）"),
            expected=f">= {d.required}" if d.required else None, links=[nvidia_url(ctx, "forward")],
        )
        return
    if cuda_from == RELEASE_RECORD and d.mode != "native":
        d = bounded_by_release(ctx, d)  # the upgrade named is never below the release's own minimum
    observed = Text(f"CUDA {cuda} ({cuda_from.en}) on driver {driver}", f"驱动 {driver} 上的 CUDA {cuda}（{cuda_from.zh}）")
    expected = f">= {d.required}" if d.required else None
    from lingjun.checks.rules._driver_facts import driver_fix_text

    up = driver_fix_text(ctx)  # the one driver every driver remedy of the report names
    if d.mode == "native":
        yield make(ctx, RULE, AREA, Severity.ok, f"Driver {driver} supports CUDA {cuda} natively.",
                   f"驱动 {driver} 原生支持 CUDA {cuda}。", observed=observed, expected=expected)
    elif d.mode == "minor-version":
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"CUDA {cuda} runs on driver {driver} only through CUDA minor version compatibility (floor {d.floor}): "
            f"features that need a newer driver are unavailable, and PTX built by the newer toolkit cannot be JIT-compiled "
            f"(cudaErrorUnsupportedPtxVersion).",
            f"CUDA {cuda} 只能依靠 CUDA 次版本兼容（下限 {d.floor}）在驱动 {driver} 上运行：依赖新驱动的功能不可用，"
            f"新工具包生成的 PTX 也无法被即时编译（cudaErrorUnsupportedPtxVersion）。",
            remedy=(f"Upgrade the host driver to {up.en} for full support.", f"如需完整支持，请将宿主机驱动升级到 {up.zh}。"),
            observed=observed, expected=expected, links=[nvidia_url(ctx, "minor"), nvidia_url(ctx, "toolkit")],
        )
    elif d.mode == "forward":
        yield make(
            ctx, RULE, AREA, Severity.ok,
            f"CUDA {cuda} runs on driver {driver} through forward compatibility (data center GPU, branch R{driver.branch} "
            f"admitted by the {d.admitted_by}, cuda-compat present).",
            f"CUDA {cuda} 通过向前兼容在驱动 {driver} 上运行（数据中心 GPU，R{driver.branch} 分支经{where_zh(d.admitted_by)}允许，镜像含 cuda-compat）。",
            observed=observed, expected=expected, links=[nvidia_url(ctx, "forward")],
        )
    elif d.mode == "forward-unconfirmed":
        yield forward_unconfirmed(ctx, RULE, AREA, Text(f"CUDA {cuda}", f"CUDA {cuda}"), driver, d, observed)
    elif d.mode == "unknown":
        yield make(ctx, RULE, AREA, Severity.info,
                   f"No CUDA/driver reference data for CUDA {cuda}; compatibility with driver {driver} not decided.",
                   f"内置参考数据中没有 CUDA {cuda} 的驱动要求，无法判断与驱动 {driver} 的兼容性。", observed=observed)
    else:
        missing_en = ", ".join(d.missing)
        missing_zh = "、".join(_MISSING_ZH.get(m, m) for m in d.missing)
        floor_en = f" CUDA {cuda.major}.x minor version compatibility needs {d.floor} or later." if d.floor else ""
        floor_zh = f"CUDA {cuda.major}.x 次版本兼容至少需要 {d.floor}。" if d.floor else ""
        need = f"R{d.required.branch} ({d.required} or later)" if d.required else "a newer branch"
        need_zh = f"R{d.required.branch}（{d.required} 或更高）" if d.required else "更新的驱动分支"
        if cuda_reported(ctx) is True:
            yield failure_disproved(ctx, RULE, AREA, Text(f"CUDA {cuda} cannot run on driver {driver} (it needs {need})",
                                                          f"CUDA {cuda} 无法在驱动 {driver} 上运行（需要 {need_zh}）"),
                                    d, observed, expected)
            return
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"CUDA {cuda} cannot run on driver {driver}: it needs driver {need}.{floor_en} "
            f"Forward compatibility is not possible here (missing: {missing_en}).",
            f"CUDA {cuda} 无法在驱动 {driver} 上运行：需要驱动 {need_zh}。{floor_zh}"
            f"此处也无法使用向前兼容（缺少：{missing_zh}）。",
            remedy=(f"Upgrade the host driver to {up.en}, or use a release built on a CUDA version this driver supports.",
                    f"请将宿主机驱动升级到 {up.zh}，或改用基于本驱动所支持 CUDA 版本构建的镜像。"),
            observed=observed, expected=expected,
            links=[nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "minor"), nvidia_url(ctx, "forward")],
        )
