"""The values an error signature's remedy quotes (:data:`lingjun.checks.core.remedy_template.VALUES`), from this input.

:func:`remedy_values` computes each from the probed facts and what the logs state, and leaves out any the input
does not show, so that :func:`lingjun.checks.core.remedy_template.fill` says the placeholder's fallback instead:
a remedy never names a number the input does not support.
"""

from __future__ import annotations

from typing import Callable, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.driver_target import upgrade_target
from lingjun.checks.core.gpu_arch import min_cuda_for_cc, parse_cc
from lingjun.checks.core.remedy_template import VALUES
from lingjun.checks.report.findings import Text
from lingjun.checks.rules._driver_facts import driver_needs

__all__ = ["remedy_values"]


def _driver_target(ctx: CheckContext) -> Optional[Text]:
    """The branch :func:`~lingjun.checks.rules._driver_facts.driver_fix` names, only when the input shows a
    requirement (with none, "the oldest supported branch" would be a guess, not a fix)."""
    needs, last = driver_needs(ctx)
    if not needs:
        return None
    target = upgrade_target(needs, ctx.data.driver_branches, ctx.options.today, last)
    return Text(target.en, target.zh) if target is not None else None


def _stated(name: str, en: str, zh: str) -> Callable[[CheckContext], Optional[Text]]:
    """A value a log line states (:mod:`lingjun.checks.knowledge.log_statements`), in words: ``en``/``zh`` take
    ``{value}``."""
    def value(ctx: CheckContext) -> Optional[Text]:
        stated = ctx.evidence.value(name)
        if stated is None:
            return None
        return Text(en.format(value=stated.value), zh.format(value=stated.value))
    return value


def _fact(name: str, en: str, zh: str, form: Callable[[str], str] = str) -> Callable[[CheckContext], Optional[Text]]:
    """A fact's value (:func:`~lingjun.checks.knowledge.fact_values.fact_value`: probed, or stated by a log line), in
    words: ``en``/``zh`` take ``{value}``, the value as ``form`` writes it."""
    def value(ctx: CheckContext) -> Optional[Text]:
        from lingjun.checks.knowledge.fact_values import fact_value  # deferred: only a remedy that quotes one needs it

        found = fact_value(name, ctx.facts, ctx.evidence, ctx.data)
        if not found.known:
            return None
        shown = form(str(found.value))
        return Text(en.format(value=shown), zh.format(value=shown))
    return value


def _kv_cache_memory(ctx: CheckContext) -> Optional[Text]:
    """What one request at max_model_len needs and what the cache has, both as vLLM's V1 line states them."""
    needed, available = ctx.evidence.value("vllm.kv_cache_needed_gib"), ctx.evidence.value("vllm.kv_cache_available_gib")
    if needed is None or available is None:
        return None
    return Text(f"it needs {needed.value} GiB and has {available.value} GiB",
                f"需要 {needed.value} GiB，现有 {available.value} GiB")


def _arch(ctx: CheckContext) -> Optional[Text]:
    """The architecture nvcc refuses, as nvcc writes it (``compute_75``)."""
    stated = ctx.evidence.value("nvcc.unsupported_arch")
    cc = parse_cc(stated.value) if stated is not None else None
    if cc is None:
        return None
    name = f"compute_{cc[0]}{cc[1]}"
    return Text(name, name)


def _arch_min_cuda(ctx: CheckContext) -> Optional[Text]:
    """The first CUDA release that builds for the architecture nvcc refuses, from the architecture table; none for an
    architecture the table does not hold."""
    stated = ctx.evidence.value("nvcc.unsupported_arch")
    cc = parse_cc(stated.value) if stated is not None else None
    release = min_cuda_for_cc(cc) if cc is not None else None
    if release is None:
        return None
    return Text(f"CUDA {release[0]}.{release[1]} or later", f"CUDA {release[0]}.{release[1]} 或更高版本")


_COMPUTE: dict[str, Callable[[CheckContext], Optional[Text]]] = {
    "driver.target": _driver_target,
    "cuda.required": _stated("cuda.required", "CUDA {value}", "CUDA {value}"),
    "nvcc.gcc_max": _stated("nvcc.gcc_max", "{value}", "{value}"),
    "c10d.store_port": _stated("c10d.store_port", "{value}", "{value}"),
    "torch.cuda": _fact("torch.cuda", "{value}", "{value}"),
    "torch.cuda_dashed": _fact("torch.cuda", "{value}", "{value}", lambda v: v.replace(".", "-")),
    "nvcc.arch": _arch,
    "nvcc.arch_min_cuda": _arch_min_cuda,
    "cuda.toolkit": _fact("cuda.toolkit", "CUDA {value}", "CUDA {value}"),
    "cudnn.loaded_version": _stated("cudnn.loaded_version", "{value}", "{value}"),
    "cudnn.compiled_version": _stated("cudnn.compiled_version", "{value}", "{value}"),
    "nvrtc.builtins_version": _stated("nvrtc.builtins_version", "{value}", "{value}"),
    "tensorrt.version": _stated("tensorrt.version", "TensorRT {value}", "TensorRT {value}"),
    "tensorrt.engine_version": _stated("tensorrt.engine_version", "TensorRT {value}", "TensorRT {value}"),
    "tensorrt.engine_compute": _stated("tensorrt.engine_compute", "compute capability {value}", "计算能力 {value}"),
    "gpu.compute_capability": _fact("gpu.compute_capability_min", "compute capability {value}", "计算能力 {value}"),
    "vllm.kv_cache_tokens": _stated("vllm.kv_cache_tokens", "{value} or less", "{value} 或更小"),
    "vllm.max_seq_len": _stated("vllm.max_seq_len", "the model's max seq len of {value} tokens",
                                "模型的最大序列长度 {value} 个 token"),
    "vllm.kv_cache_memory": _kv_cache_memory,
    "nccl.socket_virtual_name": _stated("nccl.socket_virtual_name", "{value}", "{value}"),
    "nccl.socket_real_name": _stated("nccl.socket_real_name", "{value}", "{value}"),
}
assert set(_COMPUTE) == set(VALUES), "every remedy value is computed, and only those"


def remedy_values(ctx: CheckContext, names: "list[str]") -> "tuple[dict[str, str], dict[str, str]]":
    """``(English, Chinese)`` maps of the ``names`` this input shows (name -> words); a name it does not show, or one
    :data:`~lingjun.checks.core.remedy_template.VALUES` does not list, is absent."""
    en: dict[str, str] = {}
    zh: dict[str, str] = {}
    for name in dict.fromkeys(names):
        compute = _COMPUTE.get(name)
        text = compute(ctx) if compute is not None else None
        if text is not None:
            en[name], zh[name] = text.en, text.zh
    return en, zh
