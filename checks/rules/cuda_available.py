"""cuda.available: what torch itself reported about CUDA, read as evidence, with the likely causes when it failed.

A collect_env paste says ``Is CUDA available: False``; that one line tells us the
node is broken, whatever the other rules predict.  This rule reports it as an
error and ranks the likely causes from the other facts: error lines the input
quotes first (they name the failure), then what the facts show (a CPU-only torch,
no GPU visible, GPUs hidden by ``CUDA_VISIBLE_DEVICES``, forward compatibility on
a consumer GPU, a driver too old for torch's CUDA, device nodes missing or not
accessible, an NVML mismatch).  ``Is CUDA available: True`` is reported as ok.

Sources: NVIDIA's CUDA compatibility guide
(https://docs.nvidia.com/deploy/cuda-compatibility/) for error 804 and the driver
requirements; ``torch.cuda.is_available()``
(https://pytorch.org/docs/stable/generated/torch.cuda.is_available.html).
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import OBSERVED, input_name, state
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import cuda_reported
from lingjun.checks.knowledge.signature_causes import leading_cause
from lingjun.checks.knowledge.torch_build import cpu_build_state

RULE = "cuda.available"
AREA = "cuda"

#: the words of a cause taken from an error line the input quotes (a matched error signature)
_QUOTED = ("{cause} (the input quotes: {signature}; see evidence.error-lines)", "{cause}（输入中引用了：{signature}；见 evidence.error-lines）")
_QUOTED_ALONE = ("the input quotes: {signature} (see evidence.error-lines)", "输入中引用了：{signature}（见 evidence.error-lines）")


def _from_errors(ctx: CheckContext) -> list[Text]:
    """The causes the quoted error lines name: for each matched signature, its leading cause here (the
    error knowledge lives in releases/troubleshooting/, not in this rule)."""
    causes: list[Text] = []
    for hit in ctx.evidence.hits:
        signature = ctx.data.signature(hit.signature)
        if signature is None:
            continue
        lead = leading_cause(ctx, signature)
        title = signature["title"]
        if lead is None:
            cause = Text(_QUOTED_ALONE[0].format(signature=title["en"]), _QUOTED_ALONE[1].format(signature=title["zh"]))
        else:
            cause = Text(_QUOTED[0].format(cause=lead.spec["title"]["en"], signature=title["en"]),
                         _QUOTED[1].format(cause=lead.spec["title"]["zh"], signature=title["zh"]))
        if cause not in causes:
            causes.append(cause)
    return causes


def _quoted_explains_forward_compat(ctx: CheckContext) -> bool:
    """Whether a quoted line's signature judges what the consumer-GPU guess would (error 804): then the guess is
    not added beside it."""
    return any("driver.forward-compat-consumer-gpu" in (ctx.data.signature(h.signature) or {}).get("rules", [])
               for h in ctx.evidence.hits)


def _hidden_by_env(ctx: CheckContext) -> Optional[Text]:
    env = ctx.facts.env
    cvd = env.get("CUDA_VISIBLE_DEVICES")
    if cvd is not None and cvd.strip() in ("", "-1", "none", "NoDevFiles"):
        return Text(f"CUDA_VISIBLE_DEVICES={cvd!r} hides every GPU from CUDA", f"CUDA_VISIBLE_DEVICES={cvd!r} 使 CUDA 看不到任何 GPU")
    nvd = env.get("NVIDIA_VISIBLE_DEVICES")
    if nvd is not None and nvd.strip().lower() in ("void", "none", ""):
        return Text(f"NVIDIA_VISIBLE_DEVICES={nvd} asks the container runtime to pass no GPU",
                    f"NVIDIA_VISIBLE_DEVICES={nvd} 让容器运行时不挂载任何 GPU")
    return None


def _consumer_forward_compat(ctx: CheckContext) -> Optional[Text]:
    from lingjun.checks.core.compat import GPU_CONSUMER, gpu_class, max_native_cuda
    from lingjun.checks.rules._driver_facts import compat_present, driver_cuda, image_cuda

    consumer = [g.name for g in ctx.facts.gpus if gpu_class(g.name, g.brand, ctx.data.gpus) == GPU_CONSUMER and g.name]
    if not consumer:
        return None
    cuda, _ = image_cuda(ctx)
    native, _ = driver_cuda(ctx, max_native_cuda)
    if cuda is None or native is None or cuda.major_minor <= native.major_minor:
        return None
    if compat_present(ctx.facts) is False:
        return None
    return Text(f"{consumer[0]} is a consumer GPU and the driver supports only CUDA {native} natively: if the image's cuda-compat "
                f"library for CUDA {cuda} is on the loader path, CUDA fails with error 804 (forward compatibility works only on "
                f"data center GPUs)",
                f"{consumer[0]} 是消费级 GPU，驱动原生只支持到 CUDA {native}：若镜像中 CUDA {cuda} 的 cuda-compat 库位于库搜索路径中，"
                f"CUDA 会报 804 错误（向前兼容只支持数据中心 GPU）")


def _driver_too_old(ctx: CheckContext) -> Optional[Text]:
    from lingjun.checks.core.compat import decide, parse_cuda
    from lingjun.checks.rules._driver_facts import compat_present, kernel_driver

    torch = ctx.facts.torch
    built = parse_cuda(torch.cuda) if torch and torch.cuda else None
    driver = kernel_driver(ctx.facts)
    if built is None or driver is None:
        return None
    d = decide(built, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record,
               compat_present=compat_present(ctx.facts), compat_in_use=ctx.facts.libcuda.is_forward_compat)
    if d.mode == "unsupported":
        return Text(f"driver {driver} is too old for torch's CUDA {built} (it needs {d.required or 'a newer driver'})",
                    f"驱动 {driver} 对 torch 的 CUDA {built} 来说太旧（需要 {d.required or '更新的驱动'}）")
    if d.mode == "forward-unconfirmed":
        return Text(f"torch's CUDA {built} needs forward compatibility on driver {driver}, and the cuda-compat package may be "
                    f"missing or not on the loader path",
                    f"torch 的 CUDA {built} 在驱动 {driver} 上需要向前兼容，而 cuda-compat 包可能缺失或不在库搜索路径中")
    return None


def _causes(ctx: CheckContext) -> list[Text]:
    """The likely causes, most likely first."""
    facts = ctx.facts
    from lingjun.checks.coverage import available, driver_observed

    causes = _from_errors(ctx)  # what the input quotes names the failure: first
    torch = facts.torch
    if cpu_build_state(facts):
        shown = f"torch {torch.version}" if torch.version else "torch (its version is not shown, its build is: no CUDA version)"
        shown_zh = f"torch {torch.version}" if torch.version else "torch（版本未显示，但构建信息中没有 CUDA 版本）"
        causes.append(Text(f"{shown} is a CPU-only build (see cuda.torch-cpu-build for the wheel index to use)",
                           f"{shown_zh}是仅 CPU 的构建（应使用的 wheel 索引见 cuda.torch-cpu-build）"))
    gpus_shown = driver_observed(facts) or available(facts, "nvidia-smi") or available(facts, "nvml")
    if not facts.gpus and not facts.driver_version and gpus_shown and not (torch is not None and torch.hip):
        causes.append(Text("no NVIDIA GPU or driver is visible: the container was started without GPUs",
                           "看不到 NVIDIA GPU 或驱动：容器启动时没有分配 GPU"))
    if torch is not None and torch.hip:
        causes.append(Text(f"torch {torch.version or ''} is a ROCm (HIP {torch.hip}) build for AMD GPUs; the NVIDIA causes below "
                           f"do not apply to it".replace("  ", " "),
                           f"torch {torch.version or ''} 是面向 AMD GPU 的 ROCm（HIP {torch.hip}）构建，下列 NVIDIA 相关原因不适用".replace("  ", " ")))
    for found in (_hidden_by_env(ctx), None if _quoted_explains_forward_compat(ctx) else _consumer_forward_compat(ctx), _driver_too_old(ctx)):
        if found is not None:
            causes.append(found)
    if state(facts, "device-nodes") == OBSERVED and facts.driver_version:
        if not facts.driver.device_nodes:
            causes.append(Text("there are no /dev/nvidia* device nodes in the container", "容器中没有 /dev/nvidia* 设备节点"))
        elif facts.driver.device_nodes_accessible is False:
            causes.append(Text("the /dev/nvidia* device nodes cannot be opened (device cgroup)", "/dev/nvidia* 设备节点无法打开（设备 cgroup）"))
    init = facts.nvml.init_error or ""
    if "mismatch" in init.lower():
        causes.append(Text(f"NVML fails: {init}", f"NVML 初始化失败：{init}"))
    unique: list[Text] = []
    for cause in causes:
        if cause not in unique:
            unique.append(cause)
    return unique


@rule(RULE, AREA, "CUDA is available to torch", "torch 可以使用 CUDA", order=105)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the input reports CUDA is not available (with the likely causes ranked); ok when it reports it is
    available; nothing when the input does not say."""
    reported = cuda_reported(ctx)
    name = input_name(ctx.facts)
    if reported is None:
        return
    if reported:
        yield make(ctx, RULE, AREA, Severity.ok, f"{sentence_case(name.en)} reports that CUDA is available.",
                   f"{name.zh}显示 CUDA 可用。", observed="True")
        return
    facts = ctx.facts
    seen = facts.gpus or facts.driver_version
    lead_en = ("CUDA is not available although a GPU and driver are visible" if seen else "CUDA is not available")
    lead_zh = ("能看到 GPU 和驱动，但 CUDA 不可用" if seen else "CUDA 不可用")
    causes = _causes(ctx)
    if causes:
        listed_en = "; ".join(f"({i}) {c.en}" for i, c in enumerate(causes, 1))
        listed_zh = "；".join(f"（{i}）{c.zh}" for i, c in enumerate(causes, 1))
        en = f"{lead_en} ({name.en}). Likely causes, most likely first: {listed_en}."
        zh = f"{lead_zh}（{name.zh}）。可能的原因（按可能性排序）：{listed_zh}。"
    else:
        en = (f"{lead_en} ({name.en}), and no cause is visible in this input: run lingjun-check inside the container, "
              f"where it probes libcuda, the loader path and the device nodes.")
        zh = f"{lead_zh}（{name.zh}），从该输入中看不出原因：请在容器内直接运行 lingjun-check，它会探测 libcuda、库搜索路径和设备节点。"
    yield make(
        ctx, RULE, AREA, Severity.error, en, zh,
        remedy=("Fix the first cause that applies, then check again with python -c 'import torch; print(torch.cuda.is_available())'.",
                "请先处理排在最前且适用的原因，然后用 python -c 'import torch; print(torch.cuda.is_available())' 再次确认。"),
        observed="False", expected="True",
        links=[nvidia_url(ctx, "forward"), nvidia_url(ctx, "minor")],
    )
