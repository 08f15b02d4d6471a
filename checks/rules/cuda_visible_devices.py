"""cuda.visible-devices: ``CUDA_VISIBLE_DEVICES`` and ``NVIDIA_VISIBLE_DEVICES`` against the GPUs the container has.

Sources: NVIDIA's CUDA Programming Guide, "CUDA Environment Variables"
(https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html): an empty
value hides every GPU, entries are indices, GPU UUIDs or MIG UUIDs, and the list stops at the first invalid
entry.  A repeated entry leaves no device (torch's reading of the variable, pytorch/pytorch pull request
#84879).  ``NVIDIA_VISIBLE_DEVICES``: ``void`` (or empty) makes the NVIDIA container runtime behave like runc,
``none`` passes no GPU but the driver capabilities (NVIDIA Container Toolkit, "Specialized Configurations with
Docker", https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html).
See :mod:`lingjun.checks.core.visible_devices`.
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.visible_devices import CUDA_ENV_DOC, HIDES_ALL, TORCH_PARSER_PR
from lingjun.checks.coverage import driver_observed, env_known, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make
from lingjun.checks.rules._visibility import Visibility, visibility
from lingjun.checks.rules._words import Words

RULE = "cuda.visible-devices"
AREA = "cuda"
TOOLKIT_ENV_DOC = "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"
NONE = Text("", "")

WORDS = Words({
    "remedy": (
        "Set CUDA_VISIBLE_DEVICES to distinct indices below the GPU count (nvidia-smi -L lists them) or to GPU-/MIG- UUIDs, "
        "comma-separated; unset it to use every GPU the container has.",
        "请把 CUDA_VISIBLE_DEVICES 设为互不重复、小于 GPU 数量的序号（nvidia-smi -L 可列出），或 GPU-/MIG- UUID，用逗号分隔；"
        "要使用容器内全部 GPU 时请取消该变量。"),
    "runtime-none": ("no GPU is passed but the driver's capabilities are", "不挂载 GPU，只提供驱动能力"),
    "runtime-void": ("neither GPUs nor driver capabilities are passed, as with plain runc", "既不挂载 GPU 也不提供驱动能力，与普通 runc 相同"),
    "runtime-gpus-anyway": (
        "NVIDIA_VISIBLE_DEVICES={value!r} asks the NVIDIA container runtime to pass no GPU: {what}. Yet {gpus} GPU(s) "
        "are visible: they reached the container another way (a device plugin, CDI or --gpus).",
        "NVIDIA_VISIBLE_DEVICES={value!r} 要求 NVIDIA 容器运行时不挂载 GPU：{what}。但容器中仍能看到 {gpus} 块 GPU："
        "它们是通过其他方式（设备插件、CDI 或 --gpus）挂载的。"),
    "runtime-no-gpu": ("NVIDIA_VISIBLE_DEVICES={value!r} asks the NVIDIA container runtime to pass no GPU: {what}.",
                       "NVIDIA_VISIBLE_DEVICES={value!r} 要求 NVIDIA 容器运行时不挂载 GPU：{what}。"),
    "runtime-remedy": (
        "Start the container with NVIDIA_VISIBLE_DEVICES=all (or the GPU indices/UUIDs), docker --gpus, or a "
        "Kubernetes nvidia.com/gpu resource request.",
        "请以 NVIDIA_VISIBLE_DEVICES=all（或 GPU 序号/UUID）、docker --gpus 或在 Kubernetes 中申请 nvidia.com/gpu 资源的方式启动容器。"),
    "set-subject": ("whether CUDA_VISIBLE_DEVICES is set", "是否设置了 CUDA_VISIBLE_DEVICES"),
    "not-checked": ("CUDA_VISIBLE_DEVICES was not checked: {reason}.", "未检查 CUDA_VISIBLE_DEVICES：{reason}。"),
    "has": (" (the container has {count} GPU(s))", "（容器中有 {count} 块 GPU）"),
    "unset-no-gpu": (
        "CUDA_VISIBLE_DEVICES is unset; nothing to compare: no NVIDIA driver or GPU is seen in the container "
        "(driver.present reports it).",
        "未设置 CUDA_VISIBLE_DEVICES；无可比较的对象：容器中看不到 NVIDIA 驱动或 GPU（见 driver.present）。"),
    "unset": ("CUDA_VISIBLE_DEVICES is unset: CUDA sees every GPU of the container{has}.",
              "未设置 CUDA_VISIBLE_DEVICES：CUDA 可以看到容器内全部 GPU{has}。"),
    "duplicate": (
        "CUDA_VISIBLE_DEVICES={value} names {entry} twice: with a repeated entry CUDA sees no GPU at all "
        "(torch.cuda.is_available() is False){has}.",
        "CUDA_VISIBLE_DEVICES={value} 中 {entry} 出现了两次：有重复项时 CUDA 看不到任何 GPU"
        "（torch.cuda.is_available() 为 False）{has}。"),
    "distinct": ("distinct entries", "互不重复的条目"),
    "hides-all": (
        "CUDA_VISIBLE_DEVICES={value!r} hides every GPU from CUDA{has}: torch.cuda.is_available() is False and "
        "any .cuda() call fails.",
        "CUDA_VISIBLE_DEVICES={value!r} 使 CUDA 看不到任何 GPU{has}：torch.cuda.is_available() 为 False，"
        "调用 .cuda() 会失败。"),
    "not-an-entry": ("{bad!r} is not a GPU index or UUID", "{bad!r} 不是 GPU 序号或 UUID"),
    "no-such-uuid": ("{bad} matches no GPU of the container", "{bad} 匹配不到容器内的任何 GPU"),
    "no-such-index": ("index {bad} names no GPU: the container has {count} ({ordinals})",
                      "序号 {bad} 不对应任何 GPU：容器中只有 {count} 块（{ordinals}）"),
    "none": ("none", "无"),
    "only-visible": ("only {shown} stay visible (as devices {ordinals})", "只有 {shown} 可见（设备号 {ordinals}）"),
    "none-visible": ("no GPU is visible to CUDA", "CUDA 看不到任何 GPU"),
    "stopped": (
        "CUDA_VISIBLE_DEVICES={value}: {why}. CUDA stops reading the list at the first invalid entry, so {rest}; "
        "a process that selects a later device gets \"invalid device ordinal\".",
        "CUDA_VISIBLE_DEVICES={value}：{why}。CUDA 读到第一个无效条目就停止，因此{rest}；"
        "选择后面设备的进程会报 “invalid device ordinal”。"),
    "naming-gpus": ("entries naming the container's GPUs{has}", "指向容器内 GPU 的条目{has}"),
    "no-gpu-to-compare": (
        "CUDA_VISIBLE_DEVICES={value} was not compared with any GPU: no NVIDIA driver or GPU is seen in the container "
        "(driver.present reports it), so CUDA sees none of them here.",
        "未将 CUDA_VISIBLE_DEVICES={value} 与 GPU 比对：容器中看不到 NVIDIA 驱动或 GPU（见 driver.present），此处 CUDA 看不到其中任何设备。"),
    "at-most": ("at most ", "最多"),
    "one-mig": (" A CUDA process uses one MIG device only ({mig}); the other {others} stay unused.",
                "一个 CUDA 进程只使用一个 MIG 设备（{mig}）；其余 {others} 个不会被使用。"),
    "unchecked-subject": ("the GPU list or the GPUs' UUIDs", "GPU 列表或 GPU 的 UUID"),
    "unchecked": (" Not compared with the container's GPUs ({entries}): {what}.", "未与容器内的 GPU 比对（{entries}）：{what}。"),
    "ok": ("CUDA_VISIBLE_DEVICES={value}: CUDA sees {at_most}{n} GPU(s), renumbered {ordinals}.{mig}{note}",
           "CUDA_VISIBLE_DEVICES={value}：CUDA {at_most}可以看到 {n} 块 GPU，重新编号为 {ordinals}。{mig}{note}"),
})


def _ordinals(n: int, lang: str = "en") -> str:
    """The device numbers CUDA gives ``n`` visible GPUs in ``lang``: "0", "0-3", or none."""
    if n == 0:
        return WORDS["none"][lang == "zh"]
    return "0" if n == 1 else f"0-{n - 1}"


def _ordinals_text(n: int) -> Text:
    return Text(_ordinals(n), _ordinals(n, "zh"))


def _nvidia_visible(ctx: CheckContext) -> Iterator[Finding]:
    value = ctx.facts.env.get("NVIDIA_VISIBLE_DEVICES")
    if value is None or value.strip().lower() not in ("void", "none", ""):
        return
    gpus = len(ctx.facts.gpus)
    what = WORDS("runtime-none" if value.strip().lower() == "none" else "runtime-void")
    if gpus:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("runtime-gpus-anyway", value=value, what=what, gpus=gpus),
                   observed=value, links=[TOOLKIT_ENV_DOC])
        return
    yield make(ctx, RULE, AREA, Severity.warning, WORDS("runtime-no-gpu", value=value, what=what),
               remedy=WORDS("runtime-remedy"), observed=value, expected="all", links=[TOOLKIT_ENV_DOC])


def _has(vis: Visibility) -> Text:
    return WORDS("has", count=vis.gpu_count) if vis.gpu_count is not None else NONE


def _unset(ctx: CheckContext, vis: Visibility, no_gpu: bool, runtime: bool) -> Optional[Finding]:
    if no_gpu and runtime:
        return None  # NVIDIA_VISIBLE_DEVICES already says why the container has no GPU
    if no_gpu:
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("unset-no-gpu"), observed=UNSET)
    return make(ctx, RULE, AREA, Severity.ok, WORDS("unset", has=_has(vis)), observed=UNSET, links=[CUDA_ENV_DOC])


def _stopped(ctx: CheckContext, vis: Visibility, bad: str) -> Finding:
    """The list stops at ``bad`` (not an entry, or naming no GPU of the container)."""
    resolved, count = vis.resolved, vis.gpu_count
    if resolved.out_of_range is None:
        why = WORDS("not-an-entry", bad=bad)
    elif bad.startswith(("GPU-", "MIG-")):
        why = WORDS("no-such-uuid", bad=bad)
    else:
        why = WORDS("no-such-index", bad=bad, count=count, ordinals=_ordinals_text(count or 0))
    shown = resolved.visible
    rest = (WORDS("only-visible", shown=", ".join(shown), ordinals=_ordinals(len(shown))) if shown
            else WORDS("none-visible"))
    return make(ctx, RULE, AREA, Severity.error if not shown else Severity.warning,
                WORDS("stopped", value=vis.cvd, why=why, rest=rest), remedy=WORDS("remedy"), observed=vis.cvd,
                expected=WORDS("naming-gpus", has=_has(vis)), links=[CUDA_ENV_DOC])


def _sees(ctx: CheckContext, vis: Visibility) -> Finding:
    """ok: how many GPUs CUDA sees (one MIG device per process: ``Visibility.visible``) and how they are numbered."""
    resolved = vis.resolved
    n = vis.visible
    # a CUDA process enumerates a single MIG device (NVIDIA's MIG user guide, "CUDA device enumeration")
    migs = [e for e in resolved.visible if e.startswith("MIG-")]
    mig = WORDS("one-mig", mig=migs[0], others=len(migs) - 1) if len(migs) > 1 else NONE
    note = NONE
    if resolved.unchecked:
        what = not_shown(ctx.facts, WORDS("unchecked-subject"))
        note = WORDS("unchecked", entries=", ".join(resolved.unchecked), what=what)
    return make(ctx, RULE, AREA, Severity.ok,
                WORDS("ok", value=vis.cvd, at_most=WORDS("at-most") if resolved.unchecked else NONE, n=n,
                      ordinals=_ordinals(n), mig=mig, note=note),
                observed=vis.cvd, links=[CUDA_ENV_DOC])


def _judge(ctx: CheckContext, vis: Visibility, no_gpu: bool) -> Finding:
    """A set ``CUDA_VISIBLE_DEVICES``: a repeated entry, a value that hides all, a list cut short, or what CUDA sees."""
    value, parsed, resolved = vis.cvd, vis.parsed, vis.resolved
    assert parsed is not None and resolved is not None
    if parsed.duplicate is not None:
        return make(ctx, RULE, AREA, Severity.error, WORDS("duplicate", value=value, entry=parsed.duplicate, has=_has(vis)),
                    remedy=WORDS("remedy"), observed=value, expected=WORDS("distinct"), links=[CUDA_ENV_DOC, TORCH_PARSER_PR])
    if value.strip() in HIDES_ALL:
        return make(ctx, RULE, AREA, Severity.warning, WORDS("hides-all", value=value, has=_has(vis)),
                    remedy=WORDS("remedy"), observed=value, links=[CUDA_ENV_DOC])
    bad = resolved.out_of_range if resolved.out_of_range is not None else parsed.stopped_at
    if bad is not None:
        return _stopped(ctx, vis, bad)
    if no_gpu:
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("no-gpu-to-compare", value=value), observed=value, links=[CUDA_ENV_DOC])
    return _sees(ctx, vis)


@rule(RULE, AREA, "CUDA_VISIBLE_DEVICES names usable GPUs", "CUDA 可见设备变量指向可用的 GPU", order=300, needs=("env",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error for a repeated entry (no GPU left) or a list whose first entry is invalid or out of range; warning for
    an empty value (hides every GPU), a list cut short by an invalid or out-of-range entry, and
    NVIDIA_VISIBLE_DEVICES void/none without GPUs; ok otherwise (the GPUs CUDA sees "at most" when not all entries could
    be checked; one MIG device per process); skipped when the input does not show the variable, or when no driver or
    GPU is seen (nothing to compare)."""
    facts = ctx.facts
    runtime = list(_nvidia_visible(ctx))
    yield from runtime
    if not env_known(facts, "CUDA_VISIBLE_DEVICES"):
        reason = not_shown(facts, WORDS("set-subject"))
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-checked", reason=reason))
        return
    vis = visibility(ctx)
    no_gpu = not facts.has_nvidia_driver and not facts.gpus and driver_observed(facts)
    finding = _unset(ctx, vis, no_gpu, bool(runtime)) if vis.cvd is None else _judge(ctx, vis, no_gpu)
    if finding is not None:
        yield finding
