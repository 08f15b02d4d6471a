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

from typing import Iterator, NamedTuple, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.visible_devices import CUDA_ENV_DOC
from lingjun.checks.coverage import driver_observed, env_known, input_name, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._pod import MAX_RANKS, env_int
from lingjun.checks.rules._visibility import Visibility, visibility
from lingjun.checks.rules._words import Words

RULE = "cuda.local-ranks"
AREA = "cuda"
TORCHRUN_DOC = "https://pytorch.org/docs/stable/elastic/run.html"
_VARS = ("LOCAL_RANK", "LOCAL_WORLD_SIZE", "WORLD_SIZE")
NONE = Text("", "")

WORDS = Words({
    "vars-subject": ("the launcher's variables (LOCAL_RANK, LOCAL_WORLD_SIZE, WORLD_SIZE)",
                     "启动器设置的变量（LOCAL_RANK、LOCAL_WORLD_SIZE、WORLD_SIZE）"),
    "not-compared": ("The ranks per node were not compared with the GPUs: {reason}.", "未比较每节点进程数与 GPU 数：{reason}。"),
    "unreadable": (
        "{shown}: not a rank number (a whole number up to {most}; a rank count of at least 1), so it was not compared with the GPUs.",
        "{shown}：不是有效的进程序号或进程数（不超过 {most} 的整数；进程数至少为 1），未与 GPU 数比较。"),
    "no-driver": ("no NVIDIA driver or GPU is seen in the container (driver.present reports it)",
                  "容器中看不到 NVIDIA 驱动或 GPU（见 driver.present）"),
    "incomplete": (
        "{input} lists {count} GPU(s) but its GPU section is not complete "
        "(a value in it was unusable), so the GPUs the process sees are not known",
        "{input}列出了 {count} 块 GPU，但其 GPU 部分不完整（其中有无法使用的值），"
        "因此不知道进程能看到几块 GPU"),
    "visible-subject": ("how many GPUs the process sees (CUDA_VISIBLE_DEVICES or the GPU list)",
                        "进程能看到几块 GPU（CUDA_VISIBLE_DEVICES 或 GPU 列表）"),
    "seen-cvd": ("CUDA_VISIBLE_DEVICES={cvd} leaves {at_most}{n} GPU(s) visible{devices}",
                 "CUDA_VISIBLE_DEVICES={cvd} {at_most}只留下 {n} 块可见 GPU{devices}"),
    "at-most": ("at most ", "最多"),
    "devices": (" (devices 0-{last})", "（设备号 0-{last}）"),
    "seen-container": ("the container has {n} GPU(s)", "容器中有 {n} 块 GPU"),
    "local-rank": (
        "this process has LOCAL_RANK={rank}, but {seen}: torch.cuda.set_device({rank}) fails with "
        "\"invalid device ordinal\"",
        "本进程 LOCAL_RANK={rank}，但 {seen}：torch.cuda.set_device({rank}) 会报 “invalid device ordinal”"),
    "local-world": (
        "LOCAL_WORLD_SIZE={size} starts {size} ranks on this node and {seen}: {failing} \"invalid device ordinal\"",
        "LOCAL_WORLD_SIZE={size} 在本节点启动 {size} 个进程，而{seen}：本地序号 {failing} 的进程会报 “invalid device ordinal”"),
    "world": (
        "WORLD_SIZE={size} and LOCAL_WORLD_SIZE is not set: if all {size} ranks run on this node, "
        "{failing} \"invalid device ordinal\" too (only {n} GPU(s) visible)",
        "WORLD_SIZE={size} 且未设置 LOCAL_WORLD_SIZE：若 {size} 个进程都在本节点运行，本地序号 {failing} 的进程同样会报 "
        "“invalid device ordinal”（只有 {n} 块可见 GPU）"),
    # torchrun numbers local ranks 0..LOCAL_WORLD_SIZE-1: a larger one comes from another launch or a stale environment
    "stale": (
        "LOCAL_RANK={rank} is not below LOCAL_WORLD_SIZE={size}: the launcher numbers local ranks "
        "0 to {last}, so these variables come from different launches (a stale or hand-set environment)",
        "LOCAL_RANK={rank} 不小于 LOCAL_WORLD_SIZE={size}：启动器给本地进程编号为 0 到 {last}，"
        "这两个变量来自不同的启动（环境变量过期或被手工设置）"),
    "ok": ("{shown}: every local rank has a GPU ({seen}).", "{shown}：每个本地进程都有可用的 GPU（{seen}）。"),
    "problems": ("{text}.", "{text}。"),
    "ranks": ("{n} ranks", "{n} 个进程"),
    "one-rank": ("{n} rank", "{n} 个进程"),
    "local-ranks": ("{n} local ranks", "{n} 个本地进程"),
    "one-local-rank": ("{n} local rank", "{n} 个本地进程"),
    "remedy": (
        "Start at most {ranks} per node (--nproc_per_node={n}), or make more GPUs visible (CUDA_VISIBLE_DEVICES "
        "listing one GPU per local rank, or unset it); each rank should use cuda:LOCAL_RANK within the visible GPUs.",
        "每个节点最多启动 {ranks}（--nproc_per_node={n}），或让更多 GPU 可见（CUDA_VISIBLE_DEVICES 为每个本地进程列出一块 GPU，"
        "或取消该变量）；每个进程应使用可见 GPU 中的 cuda:LOCAL_RANK。"),
    "expected": ("at most {ranks}", "最多 {ranks}"),
})


class _Launch(NamedTuple):
    """The launcher's variables as rank numbers (None when unset or unreadable; a count of 0 reads as None)."""

    local_rank: Optional[int]
    local_size: Optional[int]
    world: Optional[int]

    def shown(self) -> str:
        """"LOCAL_RANK=0, WORLD_SIZE=8": the variables that were read."""
        return ", ".join(f"{k}={v}" for k, v in zip(_VARS, self) if v is not None)


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


def _launch(ctx: CheckContext) -> "tuple[_Launch, list[str]]":
    """The launcher's variables, and "NAME=value" for each set one that is not a rank number."""
    local_rank, local_size, world = (env_int(ctx.facts, name, minimum=0) for name in _VARS)
    local_size, world = (None if v == 0 else v for v in (local_size, world))  # a launcher never starts 0 ranks
    unreadable = [f"{name}={_short(ctx.facts.env[name])}" for name, value in zip(_VARS, (local_rank, local_size, world))
                  if value is None and (ctx.facts.env.get(name) or "").strip()]
    return _Launch(local_rank, local_size, world), unreadable


def _visible_unknown(ctx: CheckContext) -> Finding:
    facts = ctx.facts
    if facts.gpus:
        reason = WORDS("incomplete", input=input_name(facts), count=len(facts.gpus))
    else:
        reason = not_shown(facts, WORDS("visible-subject"))
    return make(ctx, RULE, AREA, Severity.skipped, WORDS("not-compared", reason=reason))


def _seen(vis: Visibility) -> Text:
    """How many GPUs the process sees, and why: "CUDA_VISIBLE_DEVICES=0,1 leaves 2 GPU(s) visible (devices 0-1)"."""
    n = vis.visible
    if vis.cvd is None:
        return WORDS("seen-container", n=n)
    at_most = vis.resolved is not None and bool(vis.resolved.unchecked)
    return WORDS("seen-cvd", cvd=vis.cvd, at_most=WORDS("at-most") if at_most else NONE, n=n,
                 devices=WORDS("devices", last=n - 1) if n > 1 else NONE)


def _problems(launch: _Launch, n: int, seen: Text) -> "list[tuple[Severity, Text]]":
    """Each way the launch does not fit ``n`` visible GPUs, with its severity (in the order they are told)."""
    local_rank, local_size = launch.local_rank, launch.local_size
    found = []
    if local_rank is not None and local_rank >= n:
        found.append((Severity.error, WORDS("local-rank", rank=local_rank, seen=seen)))
    per_node, exact = (local_size, True) if local_size is not None else (launch.world, False)
    if per_node is not None and per_node > n:
        failing = Text(_failing_en(n, per_node), _ranks(n, per_node, "zh"))
        if exact:
            found.append((Severity.error, WORDS("local-world", size=per_node, seen=seen, failing=failing)))
        else:
            found.append((Severity.warning, WORDS("world", size=per_node, failing=failing, n=n)))
    if local_rank is not None and local_size is not None and local_rank >= local_size:
        found.append((Severity.warning, WORDS("stale", rank=local_rank, size=local_size, last=local_size - 1)))
    return found


def _compare(ctx: CheckContext, vis: Visibility, launch: _Launch) -> Finding:
    n = vis.visible
    seen = _seen(vis)
    problems = _problems(launch, n, seen)
    if not problems:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("ok", shown=launch.shown(), seen=seen),
                    observed=launch.shown(), links=[TORCHRUN_DOC])
    severity = Severity.error if any(s is Severity.error for s, _ in problems) else Severity.warning
    text = Text(sentence_case("; ".join(t.en for _, t in problems)), "；".join(t.zh for _, t in problems))
    one = n == 1
    return make(ctx, RULE, AREA, severity, WORDS("problems", text=text),
                remedy=WORDS("remedy", ranks=WORDS("one-rank" if one else "ranks", n=n), n=n),
                observed=launch.shown() + (f", CUDA_VISIBLE_DEVICES={vis.cvd}" if vis.cvd is not None else ""),
                expected=WORDS("expected", ranks=WORDS("one-local-rank" if one else "local-ranks", n=n)),
                links=[TORCHRUN_DOC, CUDA_ENV_DOC])


@rule(RULE, AREA, "Launcher ranks fit the visible GPUs", "启动器的本地进程数不超过可见 GPU 数", order=310, needs=("env",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when LOCAL_RANK or LOCAL_WORLD_SIZE exceeds the GPUs the process sees; warning when WORLD_SIZE does
    (LOCAL_WORLD_SIZE unset: only if every rank runs on this node); ok when they fit; nothing outside a launcher;
    skipped when the input does not show the launcher's variables or the visible GPUs, when a variable is not a rank
    number (negative, not a number, over 100,000), or when no driver or GPU is seen."""
    facts = ctx.facts
    if not all(env_known(facts, name) for name in _VARS):
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-compared", reason=not_shown(facts, WORDS("vars-subject"))))
        return
    launch, unreadable = _launch(ctx)
    if unreadable:
        shown_bad = ", ".join(unreadable)
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("unreadable", shown=shown_bad, most=MAX_RANKS),
                   observed=shown_bad, links=[TORCHRUN_DOC])
    if launch == (None, None, None):
        return  # not started by a launcher (or nothing readable: said above)
    if not facts.has_nvidia_driver and not facts.gpus and driver_observed(facts):
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-compared", reason=WORDS("no-driver")))
        return
    vis = visibility(ctx)
    yield _visible_unknown(ctx) if vis.visible is None else _compare(ctx, vis, launch)
