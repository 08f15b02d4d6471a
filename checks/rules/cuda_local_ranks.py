"""cuda.local-ranks: the launcher starts more ranks on this node than the process can see GPUs.

torchrun (and ``torch.distributed.launch``) set ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE`` (torchrun), ``RANK`` and
``WORLD_SIZE`` for every worker (https://pytorch.org/docs/stable/elastic/run.html, "Environment Variables");
the usual training script calls ``torch.cuda.set_device(LOCAL_RANK)``.  CUDA numbers the visible GPUs 0..n-1
(``CUDA_VISIBLE_DEVICES`` entries, else every GPU of the container), so a local rank ``>= n`` fails with
"invalid device ordinal" (``cudaErrorInvalidDevice``, NVIDIA's CUDA Programming Guide,
https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html).

Without ``LOCAL_WORLD_SIZE`` the ranks per node are not known: ``WORLD_SIZE`` counts every node, so it is
compared only as "if every rank runs on this node" (a warning, never an error).
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.visible_devices import CUDA_ENV_DOC
from lingjun.checks.coverage import driver_observed, env_known, input_name, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._pod import MAX_RANKS
from lingjun.checks.rules._visibility import env_int, visibility

RULE = "cuda.local-ranks"
AREA = "cuda"
TORCHRUN_DOC = "https://pytorch.org/docs/stable/elastic/run.html"
_VARS = ("LOCAL_RANK", "LOCAL_WORLD_SIZE", "WORLD_SIZE")


def _ranks(start: int, stop: int, lang: str = "en") -> str:
    """Local ranks ``start..stop-1`` as "2 and 3" ("2 和 3"), "2-7" or "2"."""
    if stop - start == 1:
        return str(start)
    if stop - start == 2:
        return f"{start} {'和' if lang == 'zh' else 'and'} {start + 1}"
    return f"{start}-{stop - 1}"


def _short(value: str) -> str:
    """A value as shown in a finding: cut after 20 characters when longer than 40, with its length."""
    return value if len(value) <= 40 else f"{value[:20]}… ({len(value)} characters)"


def _failing_en(start: int, stop: int) -> str:
    """"local rank 1 gets" or "local ranks 2 and 3 get": the subject and verb for ranks ``start..stop-1``."""
    return f"local rank {start} gets" if stop - start == 1 else f"local ranks {_ranks(start, stop)} get"


@rule(RULE, AREA, "Launcher ranks fit the visible GPUs", "启动器的本地进程数不超过可见 GPU 数", order=310, needs=("env",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when LOCAL_RANK or LOCAL_WORLD_SIZE exceeds the GPUs the process sees; warning when WORLD_SIZE does
    (LOCAL_WORLD_SIZE unset: only if every rank runs on this node); ok when they fit; nothing outside a launcher;
    skipped when the input does not show the launcher's variables or the visible GPUs, when a variable is not a rank
    number (negative, not a number, over 100,000), or when no driver or GPU is seen."""
    facts = ctx.facts
    if not all(env_known(facts, name) for name in _VARS):
        reason = not_shown(facts, Text("the launcher's variables (LOCAL_RANK, LOCAL_WORLD_SIZE, WORLD_SIZE)",
                                       "启动器设置的变量（LOCAL_RANK、LOCAL_WORLD_SIZE、WORLD_SIZE）"))
        yield make(ctx, RULE, AREA, Severity.skipped, f"The ranks per node were not compared with the GPUs: {reason.en}.",
                   f"未比较每节点进程数与 GPU 数：{reason.zh}。")
        return
    local_rank, local_size, world = (env_int(ctx, name) for name in _VARS)
    local_size, world = (None if v == 0 else v for v in (local_size, world))  # a launcher never starts 0 ranks
    unreadable = [f"{name}={_short(facts.env[name])}" for name, value in zip(_VARS, (local_rank, local_size, world))
                  if value is None and (facts.env.get(name) or "").strip()]
    if unreadable:
        shown_bad = ", ".join(unreadable)
        yield make(ctx, RULE, AREA, Severity.skipped,
                   f"{shown_bad}: not a rank number (a whole number up to {MAX_RANKS}; a rank count of at least 1), so it was not compared with the GPUs.",
                   f"{shown_bad}：不是有效的进程序号或进程数（不超过 {MAX_RANKS} 的整数；进程数至少为 1），未与 GPU 数比较。", observed=shown_bad,
                   links=[TORCHRUN_DOC])
    if local_rank is None and local_size is None and world is None:
        return  # not started by a launcher (or nothing readable: said above)
    if not facts.has_nvidia_driver and not facts.gpus and driver_observed(facts):
        yield make(ctx, RULE, AREA, Severity.skipped,
                   "The ranks per node were not compared with the GPUs: no NVIDIA driver or GPU is seen in the container "
                   "(driver.present reports it).",
                   "未比较每节点进程数与 GPU 数：容器中看不到 NVIDIA 驱动或 GPU（见 driver.present）。")
        return
    vis = visibility(ctx)
    if vis.visible is None:
        if facts.gpus:
            reason = Text(f"{input_name(facts).en} lists {len(facts.gpus)} GPU(s) but its GPU section is not complete "
                          f"(a value in it was unusable), so the GPUs the process sees are not known",
                          f"{input_name(facts).zh}列出了 {len(facts.gpus)} 块 GPU，但其 GPU 部分不完整（其中有无法使用的值），"
                          f"因此不知道进程能看到几块 GPU")
        else:
            reason = not_shown(facts, Text("how many GPUs the process sees (CUDA_VISIBLE_DEVICES or the GPU list)",
                                           "进程能看到几块 GPU（CUDA_VISIBLE_DEVICES 或 GPU 列表）"))
        yield make(ctx, RULE, AREA, Severity.skipped, f"The ranks per node were not compared with the GPUs: {reason.en}.",
                   f"未比较每节点进程数与 GPU 数：{reason.zh}。")
        return
    n = vis.visible
    if vis.cvd is not None:
        at_most = vis.resolved is not None and bool(vis.resolved.unchecked)
        seen_en = (f"CUDA_VISIBLE_DEVICES={vis.cvd} leaves {'at most ' if at_most else ''}{n} GPU(s) visible"
                   + (f" (devices 0-{n - 1})" if n > 1 else ""))
        seen_zh = (f"CUDA_VISIBLE_DEVICES={vis.cvd} {'最多' if at_most else ''}只留下 {n} 块可见 GPU"
                   + (f"（设备号 0-{n - 1}）" if n > 1 else ""))
    else:
        seen_en, seen_zh = f"the container has {n} GPU(s)", f"容器中有 {n} 块 GPU"
    en: list[str] = []
    zh: list[str] = []
    severity = None
    if local_rank is not None and local_rank >= n:
        severity = Severity.error
        en.append(f"this process has LOCAL_RANK={local_rank}, but {seen_en}: torch.cuda.set_device({local_rank}) fails with "
                  f"\"invalid device ordinal\"")
        zh.append(f"本进程 LOCAL_RANK={local_rank}，但 {seen_zh}：torch.cuda.set_device({local_rank}) 会报 “invalid device ordinal”")
    per_node, exact = (local_size, True) if local_size is not None else (world, False)
    if per_node is not None and per_node > n:
        failing_zh = _ranks(n, per_node, "zh")
        if exact:
            severity = Severity.error
            en.append(f"LOCAL_WORLD_SIZE={per_node} starts {per_node} ranks on this node and {seen_en}: {_failing_en(n, per_node)} "
                      f"\"invalid device ordinal\"")
            zh.append(f"LOCAL_WORLD_SIZE={per_node} 在本节点启动 {per_node} 个进程，而{seen_zh}：本地序号 {failing_zh} 的进程会报 “invalid device ordinal”")
        else:
            severity = severity or Severity.warning
            en.append(f"WORLD_SIZE={per_node} and LOCAL_WORLD_SIZE is not set: if all {per_node} ranks run on this node, "
                      f"{_failing_en(n, per_node)} \"invalid device ordinal\" too (only {n} GPU(s) visible)")
            zh.append(f"WORLD_SIZE={per_node} 且未设置 LOCAL_WORLD_SIZE：若 {per_node} 个进程都在本节点运行，本地序号 {failing_zh} 的进程同样会报 "
                      f"“invalid device ordinal”（只有 {n} 块可见 GPU）")
    if local_rank is not None and local_size is not None and local_rank >= local_size:
        # torchrun numbers local ranks 0..LOCAL_WORLD_SIZE-1: a larger one comes from another launch or a stale environment
        severity = severity or Severity.warning
        en.append(f"LOCAL_RANK={local_rank} is not below LOCAL_WORLD_SIZE={local_size}: the launcher numbers local ranks "
                  f"0 to {local_size - 1}, so these variables come from different launches (a stale or hand-set environment)")
        zh.append(f"LOCAL_RANK={local_rank} 不小于 LOCAL_WORLD_SIZE={local_size}：启动器给本地进程编号为 0 到 {local_size - 1}，"
                  f"这两个变量来自不同的启动（环境变量过期或被手工设置）")
    if severity is None:
        shown = ", ".join(f"{k}={v}" for k, v in zip(_VARS, (local_rank, local_size, world)) if v is not None)
        yield make(ctx, RULE, AREA, Severity.ok, f"{shown}: every local rank has a GPU ({seen_en}).",
                   f"{shown}：每个本地进程都有可用的 GPU（{seen_zh}）。", observed=shown, links=[TORCHRUN_DOC])
        return
    text_en = "; ".join(en)
    text_zh = "；".join(zh)
    yield make(ctx, RULE, AREA, severity, f"{sentence_case(text_en)}.", f"{text_zh}。",
               remedy=(f"Start at most {n} rank{'' if n == 1 else 's'} per node (--nproc_per_node={n}), or make more GPUs visible (CUDA_VISIBLE_DEVICES "
                       f"listing one GPU per local rank, or unset it); each rank should use cuda:LOCAL_RANK within the visible GPUs.",
                       f"每个节点最多启动 {n} 个进程（--nproc_per_node={n}），或让更多 GPU 可见（CUDA_VISIBLE_DEVICES 为每个本地进程列出一块 GPU，"
                       f"或取消该变量）；每个进程应使用可见 GPU 中的 cuda:LOCAL_RANK。"),
               observed=", ".join(f"{k}={v}" for k, v in zip(_VARS, (local_rank, local_size, world)) if v is not None)
               + (f", CUDA_VISIBLE_DEVICES={vis.cvd}" if vis.cvd is not None else ""),
               expected=Text(f"at most {n} local rank{'' if n == 1 else 's'}", f"最多 {n} 个本地进程"), links=[TORCHRUN_DOC, CUDA_ENV_DOC])
