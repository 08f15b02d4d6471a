"""driver.forward-compat-consumer-gpu: cuda-compat libcuda in use on a GeForce/consumer GPU (CUDA error 804)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url

RULE = "driver.forward-compat-consumer-gpu"
AREA = "driver"


def _remedy(ctx: CheckContext) -> tuple[str, str]:
    """Drop cuda-compat from the loader path and upgrade the host driver to the report's one driver target."""
    from lingjun.checks.rules._driver_facts import driver_fix_text

    up = driver_fix_text(ctx)
    return ("Remove the compat directory from LD_LIBRARY_PATH / ld.so.conf.d so the host driver's libcuda is used, "
            f"and upgrade the host driver to {up.en}.",
            "请把 compat 目录从 LD_LIBRARY_PATH 或 ld.so.conf.d 中移除，让进程使用宿主机驱动自带的 libcuda，"
            f"并把宿主机驱动升级到 {up.zh}。")


@rule(RULE, AREA, "No forward compatibility on consumer GPUs", "消费级 GPU 不使用向前兼容库", needs_gpu=True, order=50)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved libcuda is a compat library, or compat is on the loader path, and a GPU is consumer
    (or cuInit already failed with 804); ok otherwise."""
    from lingjun.checks.core.compat import GPU_CONSUMER, GPU_DATACENTER, gpu_class
    from lingjun.checks.core.compat import is_compat_path
    from lingjun.checks.rules._driver_facts import compat_on_loader_path

    if is_ppu(ctx.record):
        return
    facts = ctx.facts
    from lingjun.checks.coverage import available, input_name, unavailable_reason

    if not available(facts, "libcuda"):
        # the loader's libcuda is not shown; an 804 the input quotes is still evidence of what happened
        quoted = next((e for e in facts.symptoms.errors if "804" in e or "forward compatibility was attempted" in e.lower()
                       or "compat_not_supported_on_device" in e.lower()), None)
        if quoted is None:
            why = unavailable_reason(facts, ["libcuda"])
            sentence = why.as_sentence()
            yield make(ctx, RULE, AREA, Severity.skipped, sentence.en, sentence.zh)
            return
        name = input_name(facts)
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"{sentence_case(name.en)} quotes CUDA error 804 (forward compatibility was attempted on non supported HW): "
            f"a cuda-compat library was loaded on a GPU that does not support forward compatibility (it works only on data "
            f"center GPUs).",
            f"{name.zh}中引用了 CUDA 804 错误（forward compatibility was attempted on non supported HW）：在不支持向前兼容的 GPU 上"
            f"加载了 cuda-compat 库（向前兼容只支持数据中心 GPU）。",
            remedy=_remedy(ctx),
            observed=quoted, links=[nvidia_url(ctx, "forward")],
        )
        return
    lib = facts.libcuda
    resolved_compat = bool(lib.is_forward_compat) or is_compat_path(lib.real_path) or is_compat_path(lib.path)
    on_path = compat_on_loader_path(facts)
    err804 = bool(lib.init_error) and ("804" in lib.init_error or "COMPAT_NOT_SUPPORTED" in lib.init_error.upper())
    consumer = [g for g in facts.gpus if gpu_class(g.name, g.brand, ctx.data.gpus) == GPU_CONSUMER]
    gpu_names = ", ".join(sorted({g.name or "?" for g in consumer})) or ", ".join(sorted({g.name or "?" for g in facts.gpus}))
    if (resolved_compat or on_path) and (consumer or err804):
        where = lib.real_path or lib.path if resolved_compat else on_path[0]
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"The cuda-compat forward compatibility library is in use ({where}) on a consumer GPU ({gpu_names}); "
            f"forward compatibility works only on data center GPUs, so CUDA fails with error 804 "
            f"(forward compatibility was attempted on non supported HW).",
            f"在消费级 GPU（{gpu_names}）上使用了 cuda-compat 向前兼容库（{where}）；向前兼容只支持数据中心 GPU，"
            f"CUDA 初始化会报 804 错误（forward compatibility was attempted on non supported HW）。",
            remedy=_remedy(ctx),
            observed=Text(f"libcuda {lib.file_version or '?'} from {where}; GPU {gpu_names}",
                          f"libcuda {lib.file_version or '?'}（{where}）；GPU {gpu_names}"),
            expected=Text("host libcuda (no cuda-compat) on consumer GPUs", "消费级 GPU 上使用宿主机 libcuda（不用 cuda-compat）"),
            links=[nvidia_url(ctx, "forward")],
        )
        return
    if err804:
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"cuInit failed with error 804 ({lib.init_error}): forward compatibility was attempted on a GPU that does not support it.",
            f"cuInit 返回 804 错误（{lib.init_error}）：在不支持向前兼容的 GPU 上尝试了向前兼容。",
            remedy=_remedy(ctx),
            observed=lib.init_error, links=[nvidia_url(ctx, "forward")],
        )
        return
    if (resolved_compat or on_path) and facts.gpus and all(gpu_class(g.name, g.brand, ctx.data.gpus) == GPU_DATACENTER for g in facts.gpus):
        if resolved_compat:
            yield make(ctx, RULE, AREA, Severity.ok,
                       "cuda-compat is in use on data center GPUs, where forward compatibility is supported.",
                       "cuda-compat 用在数据中心 GPU 上，向前兼容受支持。")
        else:  # on the loader path, but the libcuda the loader resolves is not it
            yield make(ctx, RULE, AREA, Severity.ok,
                       "cuda-compat is on the loader path on data center GPUs, where forward compatibility is supported.",
                       "数据中心 GPU 的库搜索路径中有 cuda-compat，向前兼容受支持。")
        return
    if not (resolved_compat or on_path):
        from lingjun.checks.coverage import available

        if available(facts, "loader"):
            yield make(ctx, RULE, AREA, Severity.ok, "No cuda-compat library on the loader path.",
                       "库搜索路径中没有 cuda-compat 向前兼容库。")
        else:  # only the resolved libcuda was shown: say no more than that
            yield make(ctx, RULE, AREA, Severity.ok, "The libcuda in use is not a cuda-compat library.",
                       "正在使用的 libcuda 不是 cuda-compat 向前兼容库。")
        return
    yield make(ctx, RULE, AREA, Severity.info,
               "cuda-compat is on the loader path but the GPU class could not be determined; forward compatibility works only on data center GPUs.",
               "库搜索路径中有 cuda-compat，但无法判断 GPU 类型；向前兼容只支持数据中心 GPU。",
               links=[nvidia_url(ctx, "forward")])
