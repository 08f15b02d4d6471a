"""cuda.torch-build-vs-driver: the CUDA runtime torch was built with against what the driver supports."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import with_reported_outcome
from lingjun.checks.rules._symptoms import cuda_reported, failure_disproved, forward_unconfirmed

RULE = "cuda.torch-build-vs-driver"
AREA = "cuda"


def _forward_like_the_image(ctx: CheckContext, kmod, decision, built) -> bool:
    """Whether torch's CUDA ``built`` runs through the same forward compatibility the image's CUDA does: the release
    admits the driver's branch on these data center GPUs with cuda-compat
    (:func:`lingjun.checks.rules._driver_facts.release_admits_forward`, the decision driver.minimum and
    driver.cuda-compatibility read), and ``built`` is no newer than the image's CUDA, whose cuda-compat serves it."""
    from lingjun.checks.rules._driver_facts import image_cuda, release_admits_forward

    cuda, _ = image_cuda(ctx)
    return (cuda is not None and built.major_minor <= cuda.major_minor
            and release_admits_forward(ctx, kmod, decision))


@rule(RULE, AREA, "torch's CUDA runs on this driver", "torch 的 CUDA 版本与驱动兼容", needs_gpu=True, order=100)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok when the driver supports torch's CUDA; warning under CUDA minor version compatibility; error otherwise
    (the "driver on your system is too old (found version NNNNN)" failure)."""
    from lingjun.checks.core.compat import GPU_CONSUMER, decide, max_native_cuda, minor_compat_major, parse_cuda
    from lingjun.checks.rules._driver_facts import compat_present, driver_cuda, kernel_driver

    if is_ppu(ctx.record):
        return
    torch = ctx.facts.torch
    if torch is not None and not torch.version and not torch.cuda:
        return
    if torch is None:
        from lingjun.checks.coverage import available, unavailable_reason

        if available(ctx.facts, "torch"):
            yield make(ctx, RULE, AREA, Severity.skipped, "torch is not installed for this interpreter.",
                       "当前解释器中没有安装 torch。")
        else:
            why = unavailable_reason(ctx.facts, ["torch"])
            yield make(ctx, RULE, AREA, Severity.skipped, f"torch's CUDA was not compared with the driver: {why.en}.",
                       f"未将 torch 的 CUDA 与驱动比较：{why.zh}。")
        return
    if torch.cuda is None:
        if torch.hip:
            return
        yield make(ctx, RULE, AREA, Severity.info, f"torch {torch.version} is a CPU-only build; it will not use the GPUs.",
                   f"torch {torch.version} 是仅 CPU 的构建，不会使用 GPU。", observed=torch.version)
        return
    built = parse_cuda(torch.cuda)
    if built is None:
        yield make(ctx, RULE, AREA, Severity.info, f"torch.version.cuda {torch.cuda!r} is not a CUDA version; comparison skipped.",
                   f"torch.version.cuda 的值 {torch.cuda!r} 无法解析，跳过比较。", observed=torch.cuda)
        return
    supported, src = driver_cuda(ctx, max_native_cuda)
    kmod = kernel_driver(ctx.facts)
    observed = f"torch {torch.version} (CUDA {built})" if torch.version else f"torch (CUDA {built})"
    drv_text = str(kmod) if kmod else "(version unknown)"
    drv_zh = str(kmod) if kmod else "（版本未知）"
    if kmod is None and supported is None:
        from lingjun.checks.coverage import not_shown

        why = not_shown(ctx.facts, Text("the driver's version or the CUDA version it supports", "驱动版本或其支持的 CUDA 版本"))
        yield make(ctx, RULE, AREA, Severity.skipped, f"torch's CUDA {built} was not compared with the driver: {why.en}.",
                   f"未将 torch 的 CUDA {built} 与驱动比较：{why.zh}。", observed=observed)
        return
    decision = decide(built, kmod, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record,
                      compat_present=compat_present(ctx.facts),
               compat_in_use=ctx.facts.libcuda.is_forward_compat) if kmod else None
    if decision is not None and decision.mode == "unknown":
        decision = None
    if decision is None:
        mode = "native" if supported and supported.major_minor >= built.major_minor else "unsupported"
    else:
        mode = decision.mode
    from lingjun.checks.rules._driver_facts import driver_fix_text

    up = driver_fix_text(ctx)  # the one driver every driver remedy of the report names
    sup_text = str(supported) if supported else "(unknown)"
    sup_zh = str(supported) if supported else "（未知）"
    if mode == "native":
        yield make(ctx, RULE, AREA, Severity.ok, f"torch was built with CUDA {built}; driver {drv_text} supports CUDA {sup_text}.",
                   f"torch 基于 CUDA {built} 构建，驱动 {drv_zh} 支持 CUDA {sup_zh}。", observed=observed,
                   expected=f"CUDA <= {sup_text}")
        return
    if mode == "minor-version" and kmod is not None and _forward_like_the_image(ctx, kmod, decision, built):
        yield make(ctx, RULE, AREA, Severity.ok,
                   f"torch was built with CUDA {built}; driver {drv_text} runs it through forward compatibility, the image's "
                   f"cuda-compat on these data center GPUs (as driver.cuda-compatibility reads it).",
                   f"torch 基于 CUDA {built} 构建；驱动 {drv_zh} 通过向前兼容（数据中心 GPU 上镜像的 cuda-compat）运行它"
                   f"（与 driver.cuda-compatibility 的判断一致）。",
                   observed=observed, expected=f"CUDA <= {sup_text}")
        return
    if mode == "minor-version":
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"torch was built with CUDA {built} but driver {drv_text} supports CUDA {sup_text}; it runs through CUDA minor "
            f"version compatibility (driver >= {decision.floor}) with a limited feature set, and PTX JIT of newer code fails.",
            f"torch 基于 CUDA {built} 构建，而驱动 {drv_zh} 只支持到 CUDA {sup_zh}；依靠 CUDA 次版本兼容（驱动 >= {decision.floor}）"
            f"可以运行，但功能受限，新版本 PTX 的即时编译会失败。",
            # no "install a torch build for CUDA <driver's own>": such builds rarely exist, and this one runs
            remedy=(f"Upgrade the driver to {up.en} for full CUDA {built.major}.{built.minor} support, or keep this "
                    f"torch build and accept the limited feature set of CUDA minor version compatibility.",
                    f"如需完整支持 CUDA {built.major}.{built.minor}，请把驱动升级到 {up.zh}；"
                    f"也可以继续使用这个 torch 构建，接受 CUDA 次版本兼容下受限的功能。"),
            observed=observed, expected=f"CUDA <= {sup_text}", links=[nvidia_url(ctx, "minor")],
        )
        return
    if mode == "forward-unconfirmed":
        yield forward_unconfirmed(ctx, RULE, AREA, Text(f"torch's CUDA {built}", f"torch 的 CUDA {built}"), kmod, decision, observed)
        return
    if mode == "forward":
        yield make(ctx, RULE, AREA, Severity.ok,
                   f"torch's CUDA {built} runs on driver {drv_text} through forward compatibility (data center GPU, cuda-compat).",
                   f"torch 的 CUDA {built} 通过向前兼容在驱动 {drv_zh} 上运行（数据中心 GPU，cuda-compat）。",
                   observed=observed, links=[nvidia_url(ctx, "forward")])
        return
    found = f" (torch reports: driver too old, found version {supported.major * 1000 + supported.minor * 10})" if supported else ""
    found_zh = f"（torch 会报告 driver too old, found version {supported.major * 1000 + supported.minor * 10}）" if supported else ""
    need = decision.required if decision else None
    consumer = any(c == GPU_CONSUMER for c in (decision.gpu_classes if decision else []))
    note_en = " Forward compatibility (cuda-compat) is not available on GeForce/consumer GPUs." if consumer else ""
    note_zh = "GeForce 等消费级 GPU 不支持向前兼容（cuda-compat）。" if consumer else ""
    if cuda_reported(ctx) is True:
        yield failure_disproved(ctx, RULE, AREA,
                                Text(f"torch's CUDA {built} cannot initialise on driver {drv_text} (it supports CUDA {sup_text})",
                                     f"torch 的 CUDA {built} 无法在驱动 {drv_zh} 上初始化（该驱动支持 CUDA {sup_zh}）"),
                                decision, observed, f"CUDA <= {sup_text}")
        return
    upgrade_en = f"Upgrade the driver to {up.en}"
    upgrade_zh = f"请把驱动升级到 {up.zh}"
    # the builds this driver runs: a whole CUDA major through minor version compatibility (Table 2 floors),
    # else what it supports natively
    runnable = minor_compat_major(kmod, ctx.data.cuda_drivers) if kmod else None
    at_most = None
    if runnable is not None and runnable < built.major:
        build_en = build_zh = f"CUDA {runnable}.x"
        at_most = (runnable, 99)
    elif supported is not None:
        build_en, build_zh = f"CUDA {sup_text} or older", f"CUDA {sup_zh} 或更早版本"
        at_most = supported.major_minor
    else:
        build_en, build_zh = "an older CUDA", "更早 CUDA 版本"
    from lingjun.checks.rules._remedies import INSTALL_DOC, installed_torch_is_stock, torch_is_image_build, torch_wheel_remedy

    wheel = torch_wheel_remedy(ctx, torch.version, at_most) if at_most else None
    if wheel is not None:  # a real wheel of PyTorch's index, picked from the torch-wheels table
        other_en, other_zh = wheel.en, wheel.zh
    elif torch_is_image_build(ctx) or (torch.version and not installed_torch_is_stock(torch.version)):
        # the image's own torch (or a vendor's, NGC's 2.9.0a0+50eac81) is never told to be replaced
        other_en = f"use an image release built on {build_en}"
        other_zh = f"改用基于 {build_zh} 的镜像版本"
    else:
        other_en = f"install a torch build for {build_en} (PyTorch's selector: {INSTALL_DOC})"
        other_zh = f"安装对应 {build_zh} 的 torch 构建（PyTorch 安装选择器：{INSTALL_DOC}）"
    yield make(
        ctx, RULE, AREA, Severity.error,
        f"Driver {drv_text} supports CUDA up to {sup_text}, but torch{' ' + torch.version if torch.version else ''} was built with CUDA {built}; "
        f"CUDA will not initialise{found}.{note_en}",
        f"驱动 {drv_zh} 最高只支持 CUDA {sup_zh}，而 torch{' ' + torch.version if torch.version else ''} 基于 CUDA {built} 构建，CUDA 无法初始化{found_zh}。{note_zh}",
        remedy=(f"{upgrade_en}, or {other_en}.", f"{upgrade_zh}，或{other_zh}。"),
        observed=observed, expected=f"CUDA <= {sup_text}", links=[nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "forward")],
    )
