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
from lingjun.checks.core.compat import GPU_CONSUMER, decide, gpu_class, max_native_cuda, parse_cuda
from lingjun.checks.coverage import OBSERVED, available, driver_observed, input_name, state
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._symptoms import cuda_reported
from lingjun.checks.rules._words import Words
from lingjun.checks.core.visible_devices import HIDES_ALL
from lingjun.checks.knowledge.signature_causes import leading_cause
from lingjun.checks.knowledge.torch_build import cpu_build_state
from lingjun.checks.rules._driver_facts import compat_present, driver_cuda, image_cuda, kernel_driver

RULE = "cuda.available"
AREA = "cuda"

WORDS = Words({
    # a cause taken from an error line the input quotes (a matched error signature)
    "quoted": ("{cause} (the input quotes: {signature}; see evidence.error-lines)", "{cause}（输入中引用了：{signature}；见 evidence.error-lines）"),
    "quoted-alone": ("the input quotes: {signature} (see evidence.error-lines)", "输入中引用了：{signature}（见 evidence.error-lines）"),
    "cvd-hides": ("CUDA_VISIBLE_DEVICES={value!r} hides every GPU from CUDA", "CUDA_VISIBLE_DEVICES={value!r} 使 CUDA 看不到任何 GPU"),
    "nvd-none": ("NVIDIA_VISIBLE_DEVICES={value} asks the container runtime to pass no GPU",
                 "NVIDIA_VISIBLE_DEVICES={value} 让容器运行时不挂载任何 GPU"),
    "consumer-forward": (
        "{gpu} is a consumer GPU and the driver supports only CUDA {native} natively: if the image's cuda-compat "
        "library for CUDA {cuda} is on the loader path, CUDA fails with error 804 (forward compatibility works only on "
        "data center GPUs)",
        "{gpu} 是消费级 GPU，驱动原生只支持到 CUDA {native}：若镜像中 CUDA {cuda} 的 cuda-compat 库位于库搜索路径中，"
        "CUDA 会报 804 错误（向前兼容只支持数据中心 GPU）"),
    "newer-driver": ("a newer driver", "更新的驱动"),
    "driver-too-old": ("driver {driver} is too old for torch's CUDA {built} (it needs {required})",
                       "驱动 {driver} 对 torch 的 CUDA {built} 来说太旧（需要 {required}）"),
    "forward-unconfirmed": (
        "torch's CUDA {built} needs forward compatibility on driver {driver}, and the cuda-compat package may be "
        "missing or not on the loader path",
        "torch 的 CUDA {built} 在驱动 {driver} 上需要向前兼容，而 cuda-compat 包可能缺失或不在库搜索路径中"),
    "torch-version": ("torch {version}", "torch {version}"),
    "torch-no-version": ("torch (its version is not shown, its build is: no CUDA version)", "torch（版本未显示，但构建信息中没有 CUDA 版本）"),
    "cpu-build": ("{torch} is a CPU-only build (see cuda.torch-cpu-build for the wheel index to use)",
                  "{torch}是仅 CPU 的构建（应使用的 wheel 索引见 cuda.torch-cpu-build）"),
    "no-gpu": ("no NVIDIA GPU or driver is visible: the container was started without GPUs", "看不到 NVIDIA GPU 或驱动：容器启动时没有分配 GPU"),
    "rocm": ("torch {version} is a ROCm (HIP {hip}) build for AMD GPUs; the NVIDIA causes below do not apply to it",
             "torch {version} 是面向 AMD GPU 的 ROCm（HIP {hip}）构建，下列 NVIDIA 相关原因不适用"),
    "no-device-nodes": ("there are no /dev/nvidia* device nodes in the container", "容器中没有 /dev/nvidia* 设备节点"),
    "device-nodes-closed": ("the /dev/nvidia* device nodes cannot be opened (device cgroup)", "/dev/nvidia* 设备节点无法打开（设备 cgroup）"),
    "nvml": ("NVML fails: {error}", "NVML 初始化失败：{error}"),
    "available": ("{input} reports that CUDA is available.", "{input}显示 CUDA 可用。"),
    "not-available-seen": ("CUDA is not available although a GPU and driver are visible", "能看到 GPU 和驱动，但 CUDA 不可用"),
    "not-available": ("CUDA is not available", "CUDA 不可用"),
    "causes": ("{lead} ({input}). Likely causes, most likely first: {listed}.", "{lead}（{input}）。可能的原因（按可能性排序）：{listed}。"),
    "cause": ("({i}) {cause}", "（{i}）{cause}"),
    "no-cause": (
        "{lead} ({input}), and no cause is visible in this input: run lingjun-check inside the container, "
        "where it probes libcuda, the loader path and the device nodes.",
        "{lead}（{input}），从该输入中看不出原因：请在容器内直接运行 lingjun-check，它会探测 libcuda、库搜索路径和设备节点。"),
    "remedy": ("Fix the first cause that applies, then check again with python -c 'import torch; print(torch.cuda.is_available())'.",
               "请先处理排在最前且适用的原因，然后用 python -c 'import torch; print(torch.cuda.is_available())' 再次确认。"),
})


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
        quoted = Text(title["en"], title["zh"])
        if lead is None:
            cause = WORDS("quoted-alone", signature=quoted)
        else:
            cause = WORDS("quoted", cause=Text(lead.spec["title"]["en"], lead.spec["title"]["zh"]), signature=quoted)
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
    if cvd is not None and cvd.strip() in HIDES_ALL:
        return WORDS("cvd-hides", value=cvd)
    nvd = env.get("NVIDIA_VISIBLE_DEVICES")
    if nvd is not None and nvd.strip().lower() in ("void", "none", ""):
        return WORDS("nvd-none", value=nvd)
    return None


def _consumer_forward_compat(ctx: CheckContext) -> Optional[Text]:
    consumer = [g.name for g in ctx.facts.gpus if gpu_class(g.name, g.brand, ctx.data.gpus) == GPU_CONSUMER and g.name]
    if not consumer:
        return None
    cuda, _ = image_cuda(ctx)
    native, _ = driver_cuda(ctx, max_native_cuda)
    if cuda is None or native is None or cuda.major_minor <= native.major_minor:
        return None
    if compat_present(ctx.facts) is False:
        return None
    return WORDS("consumer-forward", gpu=consumer[0], native=native, cuda=cuda)


def _driver_too_old(ctx: CheckContext) -> Optional[Text]:
    torch = ctx.facts.torch
    built = parse_cuda(torch.cuda) if torch and torch.cuda else None
    driver = kernel_driver(ctx.facts)
    if built is None or driver is None:
        return None
    d = decide(built, driver, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record_dict,
               compat_present=compat_present(ctx.facts), compat_in_use=ctx.facts.libcuda.is_forward_compat)
    if d.mode == "unsupported":
        return WORDS("driver-too-old", driver=driver, built=built, required=d.required or WORDS("newer-driver"))
    if d.mode == "forward-unconfirmed":
        return WORDS("forward-unconfirmed", built=built, driver=driver)
    return None


def _torch_causes(ctx: CheckContext) -> list[Text]:
    """Causes in torch itself or in the GPUs it is given: a CPU-only build, no GPU at all, a ROCm build."""
    facts = ctx.facts
    torch = facts.torch
    causes = []
    if cpu_build_state(facts):
        shown = WORDS("torch-version", version=torch.version) if torch.version else WORDS("torch-no-version")
        causes.append(WORDS("cpu-build", torch=shown))
    rocm = torch is not None and torch.hip
    gpus_shown = driver_observed(facts) or available(facts, "nvidia-smi") or available(facts, "nvml")
    if not facts.gpus and not facts.driver_version and gpus_shown and not rocm:
        causes.append(WORDS("no-gpu"))
    if rocm:
        rocm_text = WORDS("rocm", version=torch.version or "", hip=torch.hip)
        causes.append(Text(rocm_text.en.replace("  ", " "), rocm_text.zh.replace("  ", " ")))
    return causes


def _node_causes(ctx: CheckContext) -> list[Text]:
    """Causes in the container's view of the driver: the device nodes missing or closed, NVML failing."""
    facts = ctx.facts
    causes = []
    if state(facts, "device-nodes") == OBSERVED and facts.driver_version:
        if not facts.driver.device_nodes:
            causes.append(WORDS("no-device-nodes"))
        elif facts.driver.device_nodes_accessible is False:
            causes.append(WORDS("device-nodes-closed"))
    init = facts.nvml.init_error or ""
    if "mismatch" in init.lower():
        causes.append(WORDS("nvml", error=init))
    return causes


def _causes(ctx: CheckContext) -> list[Text]:
    """The likely causes, most likely first: what the quoted error lines name, torch's own, the environment and
    driver, then the device nodes and NVML; each once."""
    forward = None if _quoted_explains_forward_compat(ctx) else _consumer_forward_compat(ctx)
    found = [*_from_errors(ctx), *_torch_causes(ctx),
             *(c for c in (_hidden_by_env(ctx), forward, _driver_too_old(ctx)) if c is not None), *_node_causes(ctx)]
    unique: list[Text] = []
    for cause in found:
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
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("available", input=Text(sentence_case(name.en), name.zh)), observed="True")
        return
    facts = ctx.facts
    lead = WORDS("not-available-seen" if facts.gpus or facts.driver_version else "not-available")
    causes = _causes(ctx)
    if causes:
        listed = [WORDS("cause", i=i, cause=c) for i, c in enumerate(causes, 1)]
        message = WORDS("causes", lead=lead, input=name,
                        listed=Text("; ".join(c.en for c in listed), "；".join(c.zh for c in listed)))
    else:
        message = WORDS("no-cause", lead=lead, input=name)
    yield make(ctx, RULE, AREA, Severity.error, message, remedy=WORDS("remedy"), observed="False", expected="True",
               links=[nvidia_url(ctx, "forward"), nvidia_url(ctx, "minor")])
