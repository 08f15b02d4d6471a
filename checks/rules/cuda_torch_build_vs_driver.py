"""cuda.torch-build-vs-driver: the CUDA runtime torch was built with against what the driver supports.

The decision (native, CUDA minor version compatibility, forward compatibility, unsupported) is
:func:`lingjun.checks.core.compat.decide`'s, the same one driver.cuda-compatibility reads; this rule words it for
torch's own CUDA (https://docs.nvidia.com/deploy/cuda-compatibility/).
"""

from __future__ import annotations

from typing import Iterator, NamedTuple, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import GPU_CONSUMER, decide, max_native_cuda, minor_compat_major, parse_cuda
from lingjun.checks.coverage import available, not_shown, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import (
    compat_present,
    driver_cuda,
    driver_fix_text,
    image_cuda,
    kernel_driver,
    release_admits_forward,
)
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._remedies import (
    INSTALL_DOC,
    installed_torch_is_stock,
    torch_is_image_build,
    torch_wheel_remedy,
)
from lingjun.checks.rules._symptoms import with_reported_outcome
from lingjun.checks.rules._symptoms import cuda_reported, failure_disproved, forward_unconfirmed
from lingjun.checks.rules._words import Words

RULE = "cuda.torch-build-vs-driver"
AREA = "cuda"
NONE = Text("", "")

WORDS = Words({
    "not-installed": ("torch is not installed for this interpreter.", "当前解释器中没有安装 torch。"),
    "not-probed": ("torch's CUDA was not compared with the driver: {why}.", "未将 torch 的 CUDA 与驱动比较：{why}。"),
    "cpu-only": ("torch {version} is a CPU-only build; it will not use the GPUs.", "torch {version} 是仅 CPU 的构建，不会使用 GPU。"),
    "not-a-version": ("torch.version.cuda {value!r} is not a CUDA version; comparison skipped.",
                      "torch.version.cuda 的值 {value!r} 无法解析，跳过比较。"),
    "driver-subject": ("the driver's version or the CUDA version it supports", "驱动版本或其支持的 CUDA 版本"),
    "driver-unknown": ("torch's CUDA {built} was not compared with the driver: {why}.", "未将 torch 的 CUDA {built} 与驱动比较：{why}。"),
    "version-unknown": ("(version unknown)", "（版本未知）"),
    "unknown": ("(unknown)", "（未知）"),
    "native": ("torch was built with CUDA {built}; driver {driver} supports CUDA {supported}.",
               "torch 基于 CUDA {built} 构建，驱动 {driver} 支持 CUDA {supported}。"),
    "like-the-image": (
        "torch was built with CUDA {built}; driver {driver} runs it through forward compatibility, the image's "
        "cuda-compat on these data center GPUs (as driver.cuda-compatibility reads it).",
        "torch 基于 CUDA {built} 构建；驱动 {driver} 通过向前兼容（数据中心 GPU 上镜像的 cuda-compat）运行它"
        "（与 driver.cuda-compatibility 的判断一致）。"),
    "minor-version": (
        "torch was built with CUDA {built} but driver {driver} supports CUDA {supported}; it runs through CUDA minor "
        "version compatibility (driver >= {floor}) with a limited feature set, and PTX JIT of newer code fails.",
        "torch 基于 CUDA {built} 构建，而驱动 {driver} 只支持到 CUDA {supported}；依靠 CUDA 次版本兼容（驱动 >= {floor}）"
        "可以运行，但功能受限，新版本 PTX 的即时编译会失败。"),
    # no "install a torch build for CUDA <driver's own>": such builds rarely exist, and this one runs
    "minor-version-remedy": (
        "Upgrade the driver to {up} for full CUDA {major}.{minor} support, or keep this "
        "torch build and accept the limited feature set of CUDA minor version compatibility.",
        "如需完整支持 CUDA {major}.{minor}，请把驱动升级到 {up}；"
        "也可以继续使用这个 torch 构建，接受 CUDA 次版本兼容下受限的功能。"),
    "subject": ("torch's CUDA {built}", "torch 的 CUDA {built}"),
    "forward": ("torch's CUDA {built} runs on driver {driver} through forward compatibility (data center GPU, cuda-compat).",
                "torch 的 CUDA {built} 通过向前兼容在驱动 {driver} 上运行（数据中心 GPU，cuda-compat）。"),
    "cannot-initialise": ("torch's CUDA {built} cannot initialise on driver {driver} (it supports CUDA {supported})",
                          "torch 的 CUDA {built} 无法在驱动 {driver} 上初始化（该驱动支持 CUDA {supported}）"),
    "found": (" (torch reports: driver too old, found version {number})", "（torch 会报告 driver too old, found version {number}）"),
    "consumer-note": (" Forward compatibility (cuda-compat) is not available on GeForce/consumer GPUs.",
                      "GeForce 等消费级 GPU 不支持向前兼容（cuda-compat）。"),
    "unsupported": (
        "Driver {driver} supports CUDA up to {supported}, but torch{version} was built with CUDA {built}; "
        "CUDA will not initialise{found}.{note}",
        "驱动 {driver} 最高只支持 CUDA {supported}，而 torch{version} 基于 CUDA {built} 构建，CUDA 无法初始化{found}。{note}"),
    "unsupported-remedy": ("Upgrade the driver to {up}, or {other}.", "请把驱动升级到 {up}，或{other}。"),
    "major-build": ("CUDA {major}.x", "CUDA {major}.x"),
    "supported-or-older": ("CUDA {supported} or older", "CUDA {supported} 或更早版本"),
    "older": ("an older CUDA", "更早 CUDA 版本"),
    "image-release": ("use an image release built on {build}", "改用基于 {build} 的镜像版本"),
    "install-build": ("install a torch build for {build} (PyTorch's selector: {doc})",
                      "安装对应 {build} 的 torch 构建（PyTorch 安装选择器：{doc}）"),
})


class _Case(NamedTuple):
    """What one comparison of torch's CUDA with the driver found: the values every outcome words."""

    torch: object
    built: object                # torch's CUDA (CudaVersion)
    kmod: object                 # the kernel driver (DriverVersion) or None
    supported: object            # the CUDA the driver supports natively (CudaVersion) or None
    decision: object             # compat.decide's CompatDecision, None when not known
    observed: str
    driver: Text                 # the driver in words
    sup: Text                    # the supported CUDA in words

    @property
    def expected(self) -> str:
        return f"CUDA <= {self.sup.en}"


def _forward_like_the_image(ctx: CheckContext, kmod, decision, built) -> bool:
    """Whether torch's CUDA ``built`` runs through the same forward compatibility the image's CUDA does: the release
    admits the driver's branch on these data center GPUs with cuda-compat
    (:func:`lingjun.checks.rules._driver_facts.release_admits_forward`, the decision driver.minimum and
    driver.cuda-compatibility read), and ``built`` is no newer than the image's CUDA, whose cuda-compat serves it."""
    cuda, _ = image_cuda(ctx)
    return (cuda is not None and built.major_minor <= cuda.major_minor
            and release_admits_forward(ctx, kmod, decision))


def _torch_absent(ctx: CheckContext) -> Finding:
    if available(ctx.facts, "torch"):
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("not-installed"))
    why = unavailable_reason(ctx.facts, ["torch"])
    return make(ctx, RULE, AREA, Severity.skipped, WORDS("not-probed", why=why))


def _decision(ctx: CheckContext, built, kmod):
    """compat.decide's decision for ``built`` on ``kmod``; None when the driver or the decision is not known."""

    if kmod is None:
        return None
    decision = decide(built, kmod, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record_dict,
                      compat_present=compat_present(ctx.facts), compat_in_use=ctx.facts.libcuda.is_forward_compat)
    return None if decision.mode == "unknown" else decision


def _mode(case: _Case) -> str:
    """The decision's mode; without one, native when the driver's own CUDA covers torch's, else unsupported."""
    if case.decision is not None:
        return case.decision.mode
    supported = case.supported
    return "native" if supported and supported.major_minor >= case.built.major_minor else "unsupported"


def _case(ctx: CheckContext, torch, built) -> "tuple[_Case | None, Optional[Finding]]":
    """The comparison's values, or (None, the skipped finding) when neither the driver nor its CUDA is known."""

    supported, _ = driver_cuda(ctx, max_native_cuda)
    kmod = kernel_driver(ctx.facts)
    observed = f"torch {torch.version} (CUDA {built})" if torch.version else f"torch (CUDA {built})"
    if kmod is None and supported is None:
        why = not_shown(ctx.facts, WORDS("driver-subject"))
        return None, make(ctx, RULE, AREA, Severity.skipped, WORDS("driver-unknown", built=built, why=why), observed=observed)
    driver = Text(str(kmod), str(kmod)) if kmod else WORDS("version-unknown")
    sup = Text(str(supported), str(supported)) if supported else WORDS("unknown")
    return _Case(torch, built, kmod, supported, _decision(ctx, built, kmod), observed, driver, sup), None


def _runs(ctx: CheckContext, case: _Case, mode: str) -> Optional[Finding]:
    """The finding when torch's CUDA runs on this driver (natively, through minor version or forward
    compatibility, or forward compatibility not confirmed); None when it does not."""
    built, driver = case.built, case.driver
    if mode == "native":
        return make(ctx, RULE, AREA, Severity.ok, WORDS("native", built=built, driver=driver, supported=case.sup),
                    observed=case.observed, expected=case.expected)
    if mode == "minor-version" and case.kmod is not None and _forward_like_the_image(ctx, case.kmod, case.decision, built):
        return make(ctx, RULE, AREA, Severity.ok, WORDS("like-the-image", built=built, driver=driver),
                    observed=case.observed, expected=case.expected)
    if mode == "minor-version":
        up = driver_fix_text(ctx)  # the one driver every driver remedy of the report names
        return make(ctx, RULE, AREA, Severity.warning,
                    WORDS("minor-version", built=built, driver=driver, supported=case.sup, floor=case.decision.floor),
                    remedy=WORDS("minor-version-remedy", up=up, major=built.major, minor=built.minor),
                    observed=case.observed, expected=case.expected, links=[nvidia_url(ctx, "minor")])
    if mode == "forward-unconfirmed":
        return forward_unconfirmed(ctx, RULE, AREA, WORDS("subject", built=built), case.kmod, case.decision, case.observed)
    if mode == "forward":
        return make(ctx, RULE, AREA, Severity.ok, WORDS("forward", built=built, driver=driver),
                    observed=case.observed, links=[nvidia_url(ctx, "forward")])
    return None


def _other_build(ctx: CheckContext, case: _Case) -> Text:
    """The second half of the remedy: a real wheel of PyTorch's index (from the torch-wheels table), another image
    release, or a torch build for a CUDA this driver runs."""

    torch, built, supported = case.torch, case.built, case.supported
    # the builds this driver runs: a whole CUDA major through minor version compatibility (Table 2 floors),
    # else what it supports natively
    runnable = minor_compat_major(case.kmod, ctx.data.cuda_drivers) if case.kmod else None
    at_most = None
    if runnable is not None and runnable < built.major:
        build = WORDS("major-build", major=runnable)
        at_most = (runnable, 99)
    elif supported is not None:
        build = WORDS("supported-or-older", supported=case.sup)
        at_most = supported.major_minor
    else:
        build = WORDS("older")
    wheel = torch_wheel_remedy(ctx, torch.version, at_most) if at_most else None
    if wheel is not None:
        return Text(wheel.en, wheel.zh)
    if torch_is_image_build(ctx) or (torch.version and not installed_torch_is_stock(torch.version)):
        # the image's own torch (or a vendor's, NGC's 2.9.0a0+50eac81) is never told to be replaced
        return WORDS("image-release", build=build)
    return WORDS("install-build", build=build, doc=INSTALL_DOC)


def _unsupported(ctx: CheckContext, case: _Case) -> Finding:
    """The error (the "driver on your system is too old (found version NNNNN)" failure), or its prediction
    disproved when the input reports CUDA available."""

    built, supported, decision = case.built, case.supported, case.decision
    if cuda_reported(ctx) is True:
        return failure_disproved(ctx, RULE, AREA, WORDS("cannot-initialise", built=built, driver=case.driver, supported=case.sup),
                                 decision, case.observed, case.expected)
    found = WORDS("found", number=supported.major * 1000 + supported.minor * 10) if supported else NONE
    consumer = any(c == GPU_CONSUMER for c in (decision.gpu_classes if decision else []))
    version = f" {case.torch.version}" if case.torch.version else ""
    return make(ctx, RULE, AREA, Severity.error,
                WORDS("unsupported", driver=case.driver, supported=case.sup, version=version, built=built, found=found,
                      note=WORDS("consumer-note") if consumer else NONE),
                remedy=WORDS("unsupported-remedy", up=driver_fix_text(ctx), other=_other_build(ctx, case)),
                observed=case.observed, expected=case.expected, links=[nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "forward")])


@rule(RULE, AREA, "torch's CUDA runs on this driver", "torch 的 CUDA 版本与驱动兼容", needs_gpu=True, order=100)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok when the driver supports torch's CUDA; warning under CUDA minor version compatibility; error otherwise
    (the "driver on your system is too old (found version NNNNN)" failure)."""
    torch = ctx.facts.torch
    if is_ppu(ctx.record) or (torch is not None and not torch.version and not torch.cuda):
        return
    if torch is None:
        yield _torch_absent(ctx)
        return
    if torch.cuda is None:
        if not torch.hip:
            yield make(ctx, RULE, AREA, Severity.info, WORDS("cpu-only", version=torch.version), observed=torch.version)
        return
    built = parse_cuda(torch.cuda)
    if built is None:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("not-a-version", value=torch.cuda), observed=torch.cuda)
        return
    case, skipped = _case(ctx, torch, built)
    if case is None:
        yield skipped
        return
    mode = _mode(case)
    yield _runs(ctx, case, mode) or _unsupported(ctx, case)
