"""cuda.fp8-capability: an FP8 workload on GPUs without FP8 compute (compute capability below 8.9).

Facts and the documents they come from:

* FP8 computation needs compute capability 8.9 or newer (Ada Lovelace, Hopper, Blackwell); vLLM runs FP8 checkpoints
  on 7.5-8.8 (Turing, Ampere) only weight-only (W8A16, FP8 Marlin):
  https://docs.vllm.ai/en/stable/features/quantization/fp8/ (its hardware table: FP8 W8A8 on Ada and Hopper only,
  https://docs.vllm.ai/en/v0.9.2/features/quantization/supported_hardware.html).
* FP8 mixture-of-experts checkpoints run in vLLM only on compute capability 8.9 or newer (its fused MoE kernel has
  no FP8 Marlin path), as vLLM's FP8 maintainers state:
  https://huggingface.co/neuralmagic/DeepSeek-Coder-V2-Instruct-FP8/discussions/1 .
* The failures such a run prints: Triton's ``type fp8e4nv not supported in this architecture``
  (vllm-project/vllm#18182, Llama 4 Maverick FP8 on A100) and torch's ``torch._scaled_mm is only supported on CUDA
  devices with compute capability >= 9.0 or 8.9``.

Evidence of an FP8 workload (never a guess): ``--model`` naming an FP8 checkpoint (an ``FP8`` word in its name), a
DeepSpeed config with an enabled ``fp8`` section, or one of the error lines above in ``symptoms.errors``.  Without
such evidence, or without the GPUs' compute capability, the rule is skipped and says which is missing.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.gpu_arch import cc_text, parse_cc
from lingjun.checks.core.gpu_models import compute_capability_from_name
from lingjun.checks.coverage import not_shown
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import load
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "cuda.fp8-capability"
AREA = "cuda"
VLLM_FP8_DOC = "https://docs.vllm.ai/en/stable/features/quantization/fp8/"
VLLM_HW_DOC = "https://docs.vllm.ai/en/v0.9.2/features/quantization/supported_hardware.html"
MOE_NOTE = "https://huggingface.co/neuralmagic/DeepSeek-Coder-V2-Instruct-FP8/discussions/1"
#: the first compute capability with FP8 compute (Ada Lovelace)
FP8_CC = (8, 9)
#: the oldest compute capability vLLM's weight-only FP8 Marlin path runs on (Turing)
MARLIN_CC = (7, 5)

WORDS = Words({
    "model": ("the FP8 model {model} (--model)", "FP8 模型 {model}（--model）"),
    "deepspeed": ("the DeepSpeed config {ds} (fp8.enabled)", "DeepSpeed 配置 {ds}（fp8.enabled）"),
    "workload": ("the workload", "该负载"),
    "no-workload": ("No FP8 workload is shown (an FP8 model with --model, a DeepSpeed config with fp8 enabled, or an FP8 error "
                    "line in the input), so the GPUs' FP8 support was not judged.",
                    "未显示 FP8 负载（--model 指定的 FP8 模型、启用 fp8 的 DeepSpeed 配置或输入中的 FP8 错误行），因此未判断 GPU 的 FP8 支持。"),
    "cc-subject": ("the GPUs' compute capability", "GPU 的计算能力"),
    "no-cc": ("FP8 support not judged ({what}): {why}.", "未判断 FP8 支持（{what}）：{why}。"),
    "ok": ("{what} runs on GPUs with FP8 compute: {listed}.", "{what}所需的 FP8 计算受 GPU 支持：{listed}。"),
    "expected": ("compute capability >= 8.9", "计算能力 >= 8.9"),
    "why-error": ("and the input shows the failure: \"{error}\"", "输入中已出现该错误：“{error}”"),
    "why-moe": ("and vLLM runs FP8 mixture-of-experts models only on 8.9 or newer (no weight-only path for them)",
                "而 vLLM 只在 8.9 及以上运行 FP8 混合专家（MoE）模型（没有仅权重的路径）"),
    "why-below-marlin": ("and not even vLLM's weight-only FP8 path (7.5 or newer) runs there", "连 vLLM 的仅权重 FP8 路径（需 7.5 及以上）也无法运行"),
    "no-fp8": ("{what} needs FP8 compute, which starts at compute capability 8.9 (Ada, Hopper, "
               "Blackwell), but the GPUs are {listed}, {why}.",
               "{what}需要 FP8 计算，而 FP8 从计算能力 8.9（Ada、Hopper、Blackwell）开始支持；本机 GPU 为 {listed}，{why}。"),
    "weight-only": ("{what} needs FP8 compute (compute capability 8.9 or newer) for its activations; on "
                    "{listed} vLLM runs it only weight-only (W8A16, FP8 Marlin), slower than on FP8 GPUs, and other frameworks "
                    "may fail (\"torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9\").",
                    "{what}的激活需要 FP8 计算（计算能力 8.9 及以上）；在 {listed} 上 vLLM 只能以仅权重方式（W8A16，FP8 Marlin）运行，"
                    "比在支持 FP8 的 GPU 上慢，其他框架可能直接报错（“torch._scaled_mm is only supported …”）。"),
    "remedy": ("Serve a BF16 variant of the model (or an INT8/INT4 one: AWQ, GPTQ, W8A8-INT8) on these GPUs, or run the FP8 "
               "model on GPUs with compute capability 8.9 or newer (L40S, L20, H100, H800, H20, H200, B200).",
               "请在这些 GPU 上改用该模型的 BF16 版本（或 INT8/INT4 版本：AWQ、GPTQ、W8A8-INT8），或把 FP8 模型放到计算能力 8.9 "
               "及以上的 GPU 上运行（L40S、L20、H100、H800、H20、H200、B200）。"),
})

_FP8_NAME = re.compile(r"(?:^|[-_/.])fp8(?:$|[-_/.])", re.IGNORECASE)
#: mixture-of-experts model names: "128E" expert counts, "A22B"/"A3B" active parameters, known MoE families
_MOE_NAME = re.compile(r"(?:\d+E(?:$|[-_/.])|-A\d+(?:\.\d+)?B|moe|mixtral|maverick|scout|deepseek-(?:v[23]|r1)|qwen\d*-\d+b-a\d)",
                       re.IGNORECASE)
_FP8_ERRORS = (
    re.compile(r"fp8e4nv not supported", re.IGNORECASE),
    re.compile(r"_scaled_mm is only supported on CUDA devices with compute capability", re.IGNORECASE),
    re.compile(r"fp8.{0,40}not supported.{0,40}(?:architecture|compute capability|device)", re.IGNORECASE),
)


def _fp8_error(ctx: CheckContext) -> Optional[str]:
    return next((e[:200] for e in ctx.facts.symptoms.errors if any(p.search(e) for p in _FP8_ERRORS)), None)


def _fp8_deepspeed(ctx: CheckContext) -> Optional[str]:
    """The ``--deepspeed-config`` path when it enables an ``fp8`` section."""
    loaded = load(ctx)
    if loaded is None:
        return None
    config, given = loaded
    section = config.get("fp8") if isinstance(config, dict) else None
    if isinstance(section, dict) and section.get("enabled") is True:
        return given
    return None


def _evidence(ctx: CheckContext) -> tuple[Optional[Text], Optional[str], bool]:
    """(what shows an FP8 workload, the error line the input quotes, whether the model is a mixture of experts)."""
    error = _fp8_error(ctx)
    model = ctx.options.served_model or ""
    named = bool(model) and bool(_FP8_NAME.search(model))
    moe = named and bool(_MOE_NAME.search(model))
    if named:
        return WORDS("model", model=model), error, moe
    ds = _fp8_deepspeed(ctx)
    if ds:
        return WORDS("deepspeed", ds=ds), error, False
    if error:
        return WORDS("workload"), error, False
    return None, None, False


@rule(RULE, AREA, "FP8 workload on FP8-capable GPUs", "FP8 负载运行在支持 FP8 的 GPU 上", order=115)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when an FP8 workload (shown by --model, a DeepSpeed config or an error line) meets GPUs below compute
    capability 8.9 and the input shows the failure, the model is a mixture of experts or the GPU is below 7.5; warning
    for a dense FP8 model on 7.5-8.8 (vLLM runs it weight-only); ok on 8.9 or newer; skipped without the facts."""
    what, error, moe = _evidence(ctx)
    if what is None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-workload"))
        return
    gpus = []
    for gpu in ctx.facts.gpus:
        cc = parse_cc(gpu.compute_capability or compute_capability_from_name(gpu.name, ctx.data.gpus))
        if cc is not None:
            gpus.append((gpu.name or f"GPU {gpu.index}", cc))
    if not gpus:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-cc", what=what, why=not_shown(ctx.facts, WORDS("cc-subject"))))
        return
    below = [(n, cc) for n, cc in gpus if cc < FP8_CC]
    listed = ", ".join(sorted({f"{n} ({cc_text(cc)})" for n, cc in (below or gpus)}))
    subject = Text(sentence_case(what.en), what.zh)  # the workload starts the sentence in English
    if not below:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", what=subject, listed=listed), observed=listed,
                   expected="compute capability >= 8.9")
        return
    yield _below(ctx, subject, listed, min(cc for _, cc in below), error, moe)


def _below(ctx: CheckContext, what: Text, listed: str, lowest: tuple, error: Optional[str], moe: bool) -> Finding:
    """GPUs below 8.9 (the lowest ``lowest``) for the FP8 workload ``what``: an error when the input shows the
    failure, the model is a mixture of experts or no GPU reaches 7.5; a warning (weight-only FP8) otherwise."""
    observed = Text(listed, listed)
    links = [VLLM_FP8_DOC, VLLM_HW_DOC]
    if error or moe or lowest < MARLIN_CC:
        if error:
            why = WORDS("why-error", error=error)
        elif moe:
            why = WORDS("why-moe")
            links.append(MOE_NOTE)
        else:
            why = WORDS("why-below-marlin")
        return make(ctx, RULE, AREA, Severity.error, WORDS("no-fp8", what=what, listed=listed, why=why), remedy=WORDS("remedy"),
                    observed=observed, expected=WORDS("expected"), links=links)
    return make(ctx, RULE, AREA, Severity.warning, WORDS("weight-only", what=what, listed=listed), remedy=WORDS("remedy"),
                observed=observed, expected=WORDS("expected"), links=links)
