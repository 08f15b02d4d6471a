"""driver.forward-compat-consumer-gpu: cuda-compat libcuda in use on a GeForce/consumer GPU (CUDA error 804)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import GPU_CONSUMER, GPU_DATACENTER, gpu_class, is_compat_path
from lingjun.checks.coverage import available, input_name, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import compat_on_loader_path, driver_fix_text
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._words import Words

RULE = "driver.forward-compat-consumer-gpu"
AREA = "driver"


WORDS = Words({
    "remedy": ("Remove the compat directory from LD_LIBRARY_PATH / ld.so.conf.d so the host driver's libcuda is used, "
               "and upgrade the host driver to {up}.",
               "请把 compat 目录从 LD_LIBRARY_PATH 或 ld.so.conf.d 中移除，让进程使用宿主机驱动自带的 libcuda，"
               "并把宿主机驱动升级到 {up}。"),
    "quoted-804": ("{name} quotes CUDA error 804 (forward compatibility was attempted on non supported HW): "
                   "a cuda-compat library was loaded on a GPU that does not support forward compatibility (it works only on data "
                   "center GPUs).",
                   "{name}中引用了 CUDA 804 错误（forward compatibility was attempted on non supported HW）：在不支持向前兼容的 GPU 上"
                   "加载了 cuda-compat 库（向前兼容只支持数据中心 GPU）。"),
    "consumer": ("The cuda-compat forward compatibility library is in use ({where}) on a consumer GPU ({gpus}); "
                 "forward compatibility works only on data center GPUs, so CUDA fails with error 804 "
                 "(forward compatibility was attempted on non supported HW).",
                 "在消费级 GPU（{gpus}）上使用了 cuda-compat 向前兼容库（{where}）；向前兼容只支持数据中心 GPU，"
                 "CUDA 初始化会报 804 错误（forward compatibility was attempted on non supported HW）。"),
    "consumer.observed": ("libcuda {version} from {where}; GPU {gpus}", "libcuda {version}（{where}）；GPU {gpus}"),
    "consumer.expected": ("host libcuda (no cuda-compat) on consumer GPUs", "消费级 GPU 上使用宿主机 libcuda（不用 cuda-compat）"),
    "init-804": ("cuInit failed with error 804 ({error}): forward compatibility was attempted on a GPU that does not support it.",
                 "cuInit 返回 804 错误（{error}）：在不支持向前兼容的 GPU 上尝试了向前兼容。"),
    "datacenter.resolved": ("cuda-compat is in use on data center GPUs, where forward compatibility is supported.",
                            "cuda-compat 用在数据中心 GPU 上，向前兼容受支持。"),
    "datacenter.on-path": ("cuda-compat is on the loader path on data center GPUs, where forward compatibility is supported.",
                           "数据中心 GPU 的库搜索路径中有 cuda-compat，向前兼容受支持。"),
    "none.loader": ("No cuda-compat library on the loader path.", "库搜索路径中没有 cuda-compat 向前兼容库。"),
    "none.resolved": ("The libcuda in use is not a cuda-compat library.", "正在使用的 libcuda 不是 cuda-compat 向前兼容库。"),
    "class-unknown": ("cuda-compat is on the loader path but the GPU class could not be determined; forward compatibility works "
                      "only on data center GPUs.",
                      "库搜索路径中有 cuda-compat，但无法判断 GPU 类型；向前兼容只支持数据中心 GPU。"),
})


def _remedy(ctx: CheckContext) -> Text:
    """Drop cuda-compat from the loader path and upgrade the host driver to the report's one driver target."""
    return WORDS("remedy", up=driver_fix_text(ctx))


@rule(RULE, AREA, "No forward compatibility on consumer GPUs", "消费级 GPU 不使用向前兼容库", needs_gpu=True, order=50)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved libcuda is a compat library, or compat is on the loader path, and a GPU is consumer
    (or cuInit already failed with 804); ok otherwise."""
    if is_ppu(ctx.record):
        return
    if not available(ctx.facts, "libcuda"):
        yield _libcuda_not_shown(ctx)
        return
    yield _libcuda_shown(ctx)


def _libcuda_not_shown(ctx: CheckContext) -> Finding:
    """The loader's libcuda is not shown; an 804 the input quotes is still evidence of what happened."""
    facts = ctx.facts
    quoted = next((e for e in facts.symptoms.errors if "804" in e or "forward compatibility was attempted" in e.lower()
                   or "compat_not_supported_on_device" in e.lower()), None)
    if quoted is None:
        return make(ctx, RULE, AREA, Severity.skipped, unavailable_reason(facts, ["libcuda"]).as_sentence())
    name = input_name(facts)
    return make(ctx, RULE, AREA, Severity.error, WORDS("quoted-804", name=Text(sentence_case(name.en), name.zh)),
                remedy=_remedy(ctx), observed=quoted, links=[nvidia_url(ctx, "forward")])


def _libcuda_shown(ctx: CheckContext) -> Finding:
    """The libcuda the loader resolves and the compat directories on its path, against the GPUs' class."""

    facts, lib = ctx.facts, ctx.facts.libcuda
    resolved_compat = bool(lib.is_forward_compat) or is_compat_path(lib.real_path) or is_compat_path(lib.path)
    on_path = compat_on_loader_path(facts)
    compat = resolved_compat or bool(on_path)
    err804 = _init_804(lib.init_error)
    classes = [gpu_class(g.name, g.brand, ctx.data.gpus) for g in facts.gpus]
    consumer = [g for g, c in zip(facts.gpus, classes) if c == GPU_CONSUMER]
    if compat and (consumer or err804):
        return _on_consumer(ctx, consumer, lib.real_path or lib.path if resolved_compat else on_path[0])
    if err804:
        return make(ctx, RULE, AREA, Severity.error, WORDS("init-804", error=lib.init_error), remedy=_remedy(ctx),
                    observed=lib.init_error, links=[nvidia_url(ctx, "forward")])
    if compat and classes and all(c == GPU_DATACENTER for c in classes):
        # on the loader path, but the libcuda the loader resolves may not be it
        return make(ctx, RULE, AREA, Severity.ok, WORDS("datacenter.resolved" if resolved_compat else "datacenter.on-path"))
    if not compat:
        # only the resolved libcuda shown (no loader section): say no more than that
        return make(ctx, RULE, AREA, Severity.ok, WORDS("none.loader" if available(facts, "loader") else "none.resolved"))
    return make(ctx, RULE, AREA, Severity.info, WORDS("class-unknown"), links=[nvidia_url(ctx, "forward")])


def _init_804(error) -> bool:
    """Whether cuInit's error is 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)."""
    return bool(error) and ("804" in error or "COMPAT_NOT_SUPPORTED" in error.upper())


def _on_consumer(ctx: CheckContext, consumer: list, where: str) -> Finding:
    """cuda-compat in use (or on the loader path, ``where``) on consumer GPUs, or where cuInit already failed with 804."""
    facts, lib = ctx.facts, ctx.facts.libcuda
    gpus = ", ".join(sorted({g.name or "?" for g in consumer})) or ", ".join(sorted({g.name or "?" for g in facts.gpus}))
    return make(ctx, RULE, AREA, Severity.error, WORDS("consumer", where=where, gpus=gpus), remedy=_remedy(ctx),
                observed=WORDS("consumer.observed", version=lib.file_version or "?", where=where, gpus=gpus),
                expected=WORDS("consumer.expected"), links=[nvidia_url(ctx, "forward")])
