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

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.visible_devices import CUDA_ENV_DOC, HIDES_ALL, TORCH_PARSER_PR
from lingjun.checks.coverage import driver_observed, env_known, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make
from lingjun.checks.rules._visibility import visibility

RULE = "cuda.visible-devices"
AREA = "cuda"
TOOLKIT_ENV_DOC = "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"

_REMEDY = ("Set CUDA_VISIBLE_DEVICES to distinct indices below the GPU count (nvidia-smi -L lists them) or to GPU-/MIG- UUIDs, "
           "comma-separated; unset it to use every GPU the container has.",
           "请把 CUDA_VISIBLE_DEVICES 设为互不重复、小于 GPU 数量的序号（nvidia-smi -L 可列出），或 GPU-/MIG- UUID，用逗号分隔；"
           "要使用容器内全部 GPU 时请取消该变量。")


def _ordinals(n: int, lang: str = "en") -> str:
    if n == 0:
        return "无" if lang == "zh" else "none"
    return "0" if n == 1 else f"0-{n - 1}"


def _nvidia_visible(ctx: CheckContext) -> Iterator[Finding]:
    value = ctx.facts.env.get("NVIDIA_VISIBLE_DEVICES")
    if value is None or value.strip().lower() not in ("void", "none", ""):
        return
    gpus = len(ctx.facts.gpus)
    word = value.strip().lower() or "empty"
    what_en = ("no GPU is passed but the driver's capabilities are" if word == "none"
               else "neither GPUs nor driver capabilities are passed, as with plain runc")
    what_zh = "不挂载 GPU，只提供驱动能力" if word == "none" else "既不挂载 GPU 也不提供驱动能力，与普通 runc 相同"
    if gpus:
        yield make(ctx, RULE, AREA, Severity.info,
                   f"NVIDIA_VISIBLE_DEVICES={value!r} asks the NVIDIA container runtime to pass no GPU: {what_en}. Yet {gpus} GPU(s) "
                   f"are visible: they reached the container another way (a device plugin, CDI or --gpus).",
                   f"NVIDIA_VISIBLE_DEVICES={value!r} 要求 NVIDIA 容器运行时不挂载 GPU：{what_zh}。但容器中仍能看到 {gpus} 块 GPU："
                   f"它们是通过其他方式（设备插件、CDI 或 --gpus）挂载的。",
                   observed=value, links=[TOOLKIT_ENV_DOC])
        return
    yield make(ctx, RULE, AREA, Severity.warning,
               f"NVIDIA_VISIBLE_DEVICES={value!r} asks the NVIDIA container runtime to pass no GPU: {what_en}.",
               f"NVIDIA_VISIBLE_DEVICES={value!r} 要求 NVIDIA 容器运行时不挂载 GPU：{what_zh}。",
               remedy=("Start the container with NVIDIA_VISIBLE_DEVICES=all (or the GPU indices/UUIDs), docker --gpus, or a "
                       "Kubernetes nvidia.com/gpu resource request.",
                       "请以 NVIDIA_VISIBLE_DEVICES=all（或 GPU 序号/UUID）、docker --gpus 或在 Kubernetes 中申请 nvidia.com/gpu 资源的方式启动容器。"),
               observed=value, expected="all", links=[TOOLKIT_ENV_DOC])


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
        reason = not_shown(facts, Text("whether CUDA_VISIBLE_DEVICES is set", "是否设置了 CUDA_VISIBLE_DEVICES"))
        yield make(ctx, RULE, AREA, Severity.skipped, f"CUDA_VISIBLE_DEVICES was not checked: {reason.en}.",
                   f"未检查 CUDA_VISIBLE_DEVICES：{reason.zh}。")
        return
    vis = visibility(ctx)
    count = vis.gpu_count
    has_en = f" (the container has {count} GPU(s))" if count is not None else ""
    has_zh = f"（容器中有 {count} 块 GPU）" if count is not None else ""
    no_gpu = not facts.has_nvidia_driver and not facts.gpus and driver_observed(facts)
    if vis.cvd is None:
        if no_gpu and runtime:
            return  # NVIDIA_VISIBLE_DEVICES already says why the container has no GPU
        if no_gpu:
            yield make(ctx, RULE, AREA, Severity.skipped,
                       "CUDA_VISIBLE_DEVICES is unset; nothing to compare: no NVIDIA driver or GPU is seen in the container "
                       "(driver.present reports it).",
                       "未设置 CUDA_VISIBLE_DEVICES；无可比较的对象：容器中看不到 NVIDIA 驱动或 GPU（见 driver.present）。",
                       observed=UNSET)
            return
        yield make(ctx, RULE, AREA, Severity.ok,
                   f"CUDA_VISIBLE_DEVICES is unset: CUDA sees every GPU of the container{has_en}.",
                   f"未设置 CUDA_VISIBLE_DEVICES：CUDA 可以看到容器内全部 GPU{has_zh}。", observed=UNSET, links=[CUDA_ENV_DOC])
        return
    value, parsed, resolved = vis.cvd, vis.parsed, vis.resolved
    assert parsed is not None and resolved is not None
    if parsed.duplicate is not None:
        yield make(ctx, RULE, AREA, Severity.error,
                   f"CUDA_VISIBLE_DEVICES={value} names {parsed.duplicate} twice: with a repeated entry CUDA sees no GPU at all "
                   f"(torch.cuda.is_available() is False){has_en}.",
                   f"CUDA_VISIBLE_DEVICES={value} 中 {parsed.duplicate} 出现了两次：有重复项时 CUDA 看不到任何 GPU"
                   f"（torch.cuda.is_available() 为 False）{has_zh}。",
                   remedy=_REMEDY, observed=value, expected=Text("distinct entries", "互不重复的条目"), links=[CUDA_ENV_DOC, TORCH_PARSER_PR])
        return
    if value.strip() in HIDES_ALL:
        yield make(ctx, RULE, AREA, Severity.warning,
                   f"CUDA_VISIBLE_DEVICES={value!r} hides every GPU from CUDA{has_en}: torch.cuda.is_available() is False and "
                   f"any .cuda() call fails.",
                   f"CUDA_VISIBLE_DEVICES={value!r} 使 CUDA 看不到任何 GPU{has_zh}：torch.cuda.is_available() 为 False，"
                   f"调用 .cuda() 会失败。",
                   remedy=_REMEDY, observed=value, links=[CUDA_ENV_DOC])
        return
    bad = resolved.out_of_range if resolved.out_of_range is not None else parsed.stopped_at
    if bad is not None:
        if resolved.out_of_range is None:
            why_en, why_zh = f"{bad!r} is not a GPU index or UUID", f"{bad!r} 不是 GPU 序号或 UUID"
        elif bad.startswith(("GPU-", "MIG-")):
            why_en, why_zh = f"{bad} matches no GPU of the container", f"{bad} 匹配不到容器内的任何 GPU"
        else:
            why_en, why_zh = (f"index {bad} names no GPU: the container has {count} ({_ordinals(count or 0)})",
                              f"序号 {bad} 不对应任何 GPU：容器中只有 {count} 块（{_ordinals(count or 0, 'zh')}）")
        shown = resolved.visible
        severity = Severity.error if not shown else Severity.warning
        rest_en = (f"only {', '.join(shown)} stay visible (as devices {_ordinals(len(shown))})" if shown
                   else "no GPU is visible to CUDA")
        rest_zh = (f"只有 {', '.join(shown)} 可见（设备号 {_ordinals(len(shown))}）" if shown else "CUDA 看不到任何 GPU")
        yield make(ctx, RULE, AREA, severity,
                   f"CUDA_VISIBLE_DEVICES={value}: {why_en}. CUDA stops reading the list at the first invalid entry, so {rest_en}; "
                   f"a process that selects a later device gets \"invalid device ordinal\".",
                   f"CUDA_VISIBLE_DEVICES={value}：{why_zh}。CUDA 读到第一个无效条目就停止，因此{rest_zh}；"
                   f"选择后面设备的进程会报 “invalid device ordinal”。",
                   remedy=_REMEDY, observed=value, expected=Text(f"entries naming the container's GPUs{has_en}", f"指向容器内 GPU 的条目{has_zh}"),
                   links=[CUDA_ENV_DOC])
        return
    n = len(resolved.visible)
    if no_gpu:
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"CUDA_VISIBLE_DEVICES={value} was not compared with any GPU: no NVIDIA driver or GPU is seen in the container "
                   f"(driver.present reports it), so CUDA sees none of them here.",
                   f"未将 CUDA_VISIBLE_DEVICES={value} 与 GPU 比对：容器中看不到 NVIDIA 驱动或 GPU（见 driver.present），此处 CUDA 看不到其中任何设备。",
                   observed=value, links=[CUDA_ENV_DOC])
        return
    migs = [e for e in resolved.visible if e.startswith("MIG-")]
    if migs:
        # a CUDA process enumerates a single MIG device (NVIDIA's MIG user guide, "CUDA device enumeration")
        n = n - len(migs) + 1
    at_most_en = "at most " if resolved.unchecked else ""
    at_most_zh = "最多" if resolved.unchecked else ""
    mig_en = (f" A CUDA process uses one MIG device only ({migs[0]}); the other {len(migs) - 1} stay unused." if len(migs) > 1
              else "")
    mig_zh = (f"一个 CUDA 进程只使用一个 MIG 设备（{migs[0]}）；其余 {len(migs) - 1} 个不会被使用。" if len(migs) > 1 else "")
    note_en = note_zh = ""
    if resolved.unchecked:
        what = not_shown(ctx.facts, Text("the GPU list or the GPUs' UUIDs", "GPU 列表或 GPU 的 UUID"))
        note_en = f" Not compared with the container's GPUs ({', '.join(resolved.unchecked)}): {what.en}."
        note_zh = f"未与容器内的 GPU 比对（{', '.join(resolved.unchecked)}）：{what.zh}。"
    yield make(ctx, RULE, AREA, Severity.ok,
               f"CUDA_VISIBLE_DEVICES={value}: CUDA sees {at_most_en}{n} GPU(s), renumbered {_ordinals(n)}.{mig_en}{note_en}",
               f"CUDA_VISIBLE_DEVICES={value}：CUDA {at_most_zh}可以看到 {n} 块 GPU，重新编号为 {_ordinals(n)}。{mig_zh}{note_zh}",
               observed=value, links=[CUDA_ENV_DOC])
