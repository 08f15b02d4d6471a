"""driver.cuda-compatibility: how the image's CUDA runs on the kernel driver (native, minor version, forward, unsupported)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.compat import decide, where_zh
from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import available, not_shown, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import (
    DRIVER_VERSION,
    RELEASE_RECORD,
    bounded_by_release,
    compat_present,
    driver_fix_text,
    driver_predates_gpus,
    forward_admission,
    image_cuda,
    kernel_driver,
)
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import with_reported_outcome
from lingjun.checks.rules._symptoms import cuda_reported, failure_disproved, forward_unconfirmed
from lingjun.checks.rules._words import Words

RULE = "driver.cuda-compatibility"
AREA = "driver"

_MISSING_ZH = {
    "data center GPU": "数据中心 GPU",
    "data center GPU (not determined)": "数据中心 GPU（无法确定 GPU 类型）",
    "admitted driver branch": "被允许的驱动分支",
    "cuda-compat package": "镜像中的 cuda-compat 包",
}

WORDS = Words({
    "no-cuda": ("The image's CUDA version is unknown (no release record, no toolkit found).",
                "无法确定镜像的 CUDA 版本（没有发布记录，也未找到 CUDA 工具包）。"),
    "no-cuda.unavailable": ("The image's CUDA version is unknown (no release record; {reason}).",
                            "无法确定镜像的 CUDA 版本（没有发布记录；{reason}）。"),
    "not-shown": ("The image's CUDA {cuda} was not compared with the driver: {why}.", "未将镜像的 CUDA {cuda} 与驱动比较：{why}。"),
    "unreadable": ("Kernel driver version unreadable ({raw!r}).", "无法解析内核驱动版本（{raw!r}）。"),
    "predates": ("The image's CUDA {cuda} was not compared with the driver: {gpu}: {why}", "未将镜像的 CUDA {cuda} 与驱动比较：{gpu}：{why}"),
    "observed": ("CUDA {cuda} ({source}) on driver {driver}", "驱动 {driver} 上的 CUDA {cuda}（{source}）"),
    "admitted": ("CUDA {cuda} runs on driver {driver} through forward compatibility (data center GPU, branch R{b} "
                 "admitted by {by}; the release record says the image carries cuda-compat).",
                 "CUDA {cuda} 通过向前兼容在驱动 {driver} 上运行（数据中心 GPU，R{b} 分支经{by}允许，发布记录表明镜像含 cuda-compat）。"),
    "by.family": ("its family's neighbouring releases (this release's own driver text is cut off)", "该系列相邻版本（本版本自身的驱动说明被截断）"),
    "by.record": ("the release record", "发布记录"),
    "native": ("Driver {driver} supports CUDA {cuda} natively.", "驱动 {driver} 原生支持 CUDA {cuda}。"),
    "minor-version": ("CUDA {cuda} runs on driver {driver} only through CUDA minor version compatibility (floor {floor}): "
                      "features that need a newer driver are unavailable, and PTX built by the newer toolkit cannot be JIT-compiled "
                      "(cudaErrorUnsupportedPtxVersion).",
                      "CUDA {cuda} 只能依靠 CUDA 次版本兼容（下限 {floor}）在驱动 {driver} 上运行：依赖新驱动的功能不可用，"
                      "新工具包生成的 PTX 也无法被即时编译（cudaErrorUnsupportedPtxVersion）。"),
    "remedy.minor-version": ("Upgrade the host driver to {up} for full support.", "如需完整支持，请将宿主机驱动升级到 {up}。"),
    "forward": ("CUDA {cuda} runs on driver {driver} through forward compatibility (data center GPU, branch R{b} "
                "admitted by the {where}, cuda-compat present).",
                "CUDA {cuda} 通过向前兼容在驱动 {driver} 上运行（数据中心 GPU，R{b} 分支经{where}允许，镜像含 cuda-compat）。"),
    "subject": ("CUDA {cuda}", "CUDA {cuda}"),
    "unknown": ("No CUDA/driver reference data for CUDA {cuda}; compatibility with driver {driver} not decided.",
                "内置参考数据中没有 CUDA {cuda} 的驱动要求，无法判断与驱动 {driver} 的兼容性。"),
    "need": ("R{b} ({required} or later)", "R{b}（{required} 或更高）"),
    "need.newer": ("a newer branch", "更新的驱动分支"),
    "floor": (" CUDA {major}.x minor version compatibility needs {floor} or later.", "CUDA {major}.x 次版本兼容至少需要 {floor}。"),
    "piece-none": ("", ""),
    "cannot-run": ("CUDA {cuda} cannot run on driver {driver} (it needs {need})", "CUDA {cuda} 无法在驱动 {driver} 上运行（需要 {need}）"),
    "unsupported": ("CUDA {cuda} cannot run on driver {driver}: it needs driver {need}.{floor} "
                    "Forward compatibility is not possible here (missing: {missing}).",
                    "CUDA {cuda} 无法在驱动 {driver} 上运行：需要驱动 {need}。{floor}"
                    "此处也无法使用向前兼容（缺少：{missing}）。"),
    "remedy.unsupported": ("Upgrade the host driver to {up}, or use a release built on a CUDA version this driver supports.",
                           "请将宿主机驱动升级到 {up}，或改用基于本驱动所支持 CUDA 版本构建的镜像。"),
})


@rule(RULE, AREA, "Image CUDA runs on this driver", "镜像 CUDA 与驱动兼容", needs_gpu=True, order=40)
@with_reported_outcome
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok (native or viable forward compatibility), warning (minor version compatibility), error otherwise."""

    if is_ppu(ctx.record):
        return
    cuda, cuda_from = image_cuda(ctx)
    if cuda is None:
        yield _no_cuda(ctx)
        return
    driver = kernel_driver(ctx.facts)
    if driver is None:
        yield _not_read(ctx, cuda)
        return
    predates = driver_predates_gpus(ctx, driver)
    if predates is not None:  # driver.minimum (or driver.present) reports it as an error
        gpu, en, zh, _ = predates
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("predates", cuda=cuda, gpu=gpu, why=Text(en, zh)))
        return
    d = decide(cuda, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record_dict,
               compat_present=compat_present(ctx.facts),
               compat_in_use=ctx.facts.libcuda.is_forward_compat)
    yield _decided(ctx, cuda, cuda_from, driver, d)


def _no_cuda(ctx: CheckContext) -> Finding:
    """The image's CUDA is not known: no release record, and no toolkit found (or the input does not show one)."""
    if available(ctx.facts, "cuda-toolkit"):
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("no-cuda"))
    return make(ctx, RULE, AREA, Severity.skipped, WORDS("no-cuda.unavailable", reason=unavailable_reason(ctx.facts, ["cuda-toolkit"])))


def _not_read(ctx: CheckContext, cuda) -> Finding:
    """No kernel driver version to compare: none read (skipped, saying why), or one that does not parse (info)."""
    raw = ctx.facts.driver_version
    if raw is None:  # the driver shows itself by other signs (GPUs, NVML errors) but no version was read
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("not-shown", cuda=cuda, why=not_shown(ctx.facts, DRIVER_VERSION)))
    return make(ctx, RULE, AREA, Severity.info, WORDS("unreadable", raw=raw), observed=raw)


def _decided(ctx: CheckContext, cuda, cuda_from: Text, driver, d) -> Finding:
    """The finding for :func:`~lingjun.checks.core.compat.decide`'s answer ``d`` (read with the release's admission
    of the branch, :func:`~lingjun.checks.rules._driver_facts.forward_admission`, the one driver.minimum reads)."""
    observed = WORDS("observed", cuda=cuda, source=cuda_from, driver=driver)
    where = forward_admission(ctx, driver, d)
    if where is not None:
        by = WORDS("by.family" if where == "family's releases" else "by.record")
        return make(ctx, RULE, AREA, Severity.ok, WORDS("admitted", cuda=cuda, driver=driver, b=driver.branch, by=by),
                    observed=observed, expected=f">= {d.required}" if d.required else None, links=[nvidia_url(ctx, "forward")])
    if cuda_from == RELEASE_RECORD and d.mode != "native":
        d = bounded_by_release(ctx, d)  # the upgrade named is never below the release's own minimum
    expected = f">= {d.required}" if d.required else None
    values = {"cuda": cuda, "driver": driver, "b": driver.branch}
    if d.mode == "native":
        return make(ctx, RULE, AREA, Severity.ok, WORDS("native", **values), observed=observed, expected=expected)
    if d.mode == "minor-version":
        return make(ctx, RULE, AREA, Severity.warning, WORDS("minor-version", floor=d.floor, **values),
                    remedy=WORDS("remedy.minor-version", up=driver_fix_text(ctx)),
                    observed=observed, expected=expected, links=[nvidia_url(ctx, "minor"), nvidia_url(ctx, "toolkit")])
    if d.mode == "forward":
        return make(ctx, RULE, AREA, Severity.ok, WORDS("forward", where=Text(d.admitted_by, where_zh(d.admitted_by)), **values),
                    observed=observed, expected=expected, links=[nvidia_url(ctx, "forward")])
    if d.mode == "forward-unconfirmed":
        return forward_unconfirmed(ctx, RULE, AREA, WORDS("subject", cuda=cuda), driver, d, observed)
    if d.mode == "unknown":
        return make(ctx, RULE, AREA, Severity.info, WORDS("unknown", **values), observed=observed)
    return _unsupported(ctx, d, values, observed, expected)


def _unsupported(ctx: CheckContext, d, values: dict, observed: Text, expected) -> Finding:
    """CUDA cannot start on this driver: an error, or, where the input reports CUDA available, the prediction disproved."""
    cuda = values["cuda"]
    need = WORDS("need", b=d.required.branch, required=d.required) if d.required else WORDS("need.newer")
    if cuda_reported(ctx) is True:
        return failure_disproved(ctx, RULE, AREA, WORDS("cannot-run", need=need, **values), d, observed, expected)
    missing = Text(", ".join(d.missing), "、".join(_MISSING_ZH.get(m, m) for m in d.missing))
    floor = WORDS("floor", major=cuda.major, floor=d.floor) if d.floor else WORDS("piece-none")
    return make(ctx, RULE, AREA, Severity.error, WORDS("unsupported", need=need, floor=floor, missing=missing, **values),
                remedy=WORDS("remedy.unsupported", up=driver_fix_text(ctx)), observed=observed, expected=expected,
                links=[nvidia_url(ctx, "toolkit"), nvidia_url(ctx, "minor"), nvidia_url(ctx, "forward")])
