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
from lingjun.checks.knowledge.torch_build import cpu_build_state

RULE = "cuda.available"
AREA = "cuda"

#: the cause a quoted error 804 names (the consumer-GPU guess is not added beside it)
_QUOTED_804 = Text("the cuda-compat forward compatibility library is in use on a GPU that does not support it (error 804, as quoted)",
                   "在不支持向前兼容的 GPU 上使用了 cuda-compat 向前兼容库（报错中的 804 错误）")

#: quoted error text (lower case) -> the cause it names
_ERROR_CAUSES = (
    (("forward compatibility was attempted on non supported hw", "compat_not_supported_on_device"), _QUOTED_804),
    (("driver version is insufficient", "the nvidia driver on your system is too old"),
     Text("the driver is older than the CUDA runtime needs (as quoted)", "驱动版本低于 CUDA 运行时的要求（见报错）")),
    (("driver/library version mismatch",),
     Text("the user-space driver libraries do not match the kernel driver (as quoted)", "用户态驱动库与内核驱动版本不一致（见报错）")),
    (("found no nvidia driver on your system",),
     Text("no NVIDIA driver is reachable from the container (as quoted)", "容器中找不到 NVIDIA 驱动（见报错）")),
    (("unsupported display driver / cuda driver combination",),
     Text("the CUDA driver library does not fit the kernel driver (error 803, as quoted)", "CUDA 驱动库与内核驱动不匹配（报错中的 803 错误）")),
    (("failed to initialize nvml: unknown error",),
     Text("the container lost access to the GPUs (NVML 'Unknown Error', typically after systemctl daemon-reload on the host)",
          "容器失去了 GPU 访问权限（NVML 报 “Unknown Error”，通常是宿主机执行了 systemctl daemon-reload）")),
)


def _from_errors(ctx: CheckContext) -> list[Text]:
    causes: list[Text] = []
    lowered = [e.lower() for e in ctx.facts.symptoms.errors if isinstance(e, str)]
    for needles, cause in _ERROR_CAUSES:
        if any(n in line for line in lowered for n in needles) and cause not in causes:
            causes.append(cause)
    return causes


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
    for found in (_hidden_by_env(ctx), None if _QUOTED_804 in causes else _consumer_forward_compat(ctx), _driver_too_old(ctx)):
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
