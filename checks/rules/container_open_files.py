"""container.open-files: the open-files limit is high enough for the ranks of the job ("Too many open files").

Threshold, and the documents it comes from:

* NCCL's socket transport opens up to ``NCCL_SOCKET_NTHREADS`` × ``NCCL_NSOCKS_PERTHREAD`` sockets per
  peer, and NCCL caps that product at 64
  (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-nsocks-perthread), on top of its
  bootstrap and proxy sockets.
* PyTorch's default sharing strategy keeps one file descriptor open per shared tensor in DataLoader
  workers, and its documentation says to raise the open-files limit or switch to the ``file_system``
  strategy when the system limit is low
  (https://pytorch.org/docs/stable/multiprocessing.html#file-descriptor-file-descriptor).
* 1024 is the soft limit systemd gives processes by default (``DefaultLimitNOFILE=1024:524288``,
  https://www.freedesktop.org/software/systemd/man/latest/systemd-system.conf.html), and the budget this
  rule leaves a process for itself.

So a rank needs at least ``1024 + 64 × (ranks − 1)`` descriptors; a lower soft limit with two or more
ranks is a warning.  With one rank (or an unknown count) a soft limit of 1024 or less is an info, for
the DataLoader alone.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._pod import world_ranks
from lingjun.checks.knowledge.units import known_limit, limit

RULE = "container.open-files"
AREA = "container"
NCCL_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-nsocks-perthread"
TORCH_DOC = "https://pytorch.org/docs/stable/multiprocessing.html#file-descriptor-file-descriptor"

#: what a process keeps for itself (systemd's default soft limit)
BASE = 1024
#: NCCL's cap on sockets per peer (NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD)
PER_PEER = 64


WORDS = Words({
    "remedy": ("Raise the open-files limit: {raise_}docker run --ulimit nofile=1048576:1048576, or LimitNOFILE for the container "
               "runtime on the node (Kubernetes has no per-pod ulimit). For DataLoader workers "
               "torch.multiprocessing.set_sharing_strategy('file_system') also avoids holding a descriptor per tensor.",
               "请提高打开文件数上限：{raise_}docker run --ulimit nofile=1048576:1048576，或在节点上为容器运行时设置 LimitNOFILE"
               "（Kubernetes 没有按 Pod 设置 ulimit 的字段）。对 DataLoader 工作进程，也可用 "
               "torch.multiprocessing.set_sharing_strategy('file_system') 避免每个张量占用一个文件描述符。"),
    "raise": ("'ulimit -n {value}' in the entrypoint raises it to the hard limit without privileges; ",
              "在入口脚本中执行 'ulimit -n {value}' 即可提高到硬上限，无需特权；"),
    "raise-none": ("", ""),
    "not-a-limit": ("The open-files limit in the input ({value}) is not a limit value (only -1 means unlimited), so it was not judged.",
                    "输入中的打开文件数上限（{value}）不是有效的上限值（只有 -1 表示不限），未作判断。"),
    "subject": ("the open-files limit", "打开文件数上限"),
    "observed": ("RLIMIT_NOFILE {soft}", "RLIMIT_NOFILE {soft}"),
    "at-least": ("at least {want}", "至少 {want}"),
    "more-than": ("more than {base}", "大于 {base}"),
    "enough": ("The open-files limit ({soft}) is enough for {who}", "打开文件数上限（{soft}）足够 {who}"),
    "ranks": ("{ranks} ranks.", "{ranks} 个 rank 使用。"),
    "one-rank": ("one rank.", "1 个 rank 使用。"),
    "unknown-ranks": ("one rank (the number of ranks is not shown).", "1 个 rank 使用（未显示 rank 数量）。"),
    "low-for-ranks": ("The open-files limit is {soft} for {ranks} ranks ({source}): NCCL may open up to 64 sockets per peer and "
                      "DataLoader workers hold a descriptor per shared tensor, so the job can fail with 'Too many open files'.",
                      "{ranks} 个 rank（{source}）而打开文件数上限只有 {soft}：NCCL 每个对端最多打开 64 个套接字，"
                      "DataLoader 工作进程每个共享张量占用一个描述符，任务可能报 'Too many open files'。"),
    "low-for-workers": ("The open-files limit is {soft}: DataLoader workers hold a descriptor per shared tensor and can hit "
                        "'Too many open files'; a multi-rank job needs 64 more per peer for NCCL.",
                        "打开文件数上限只有 {soft}：DataLoader 工作进程每个共享张量占用一个描述符，可能报 'Too many open files'；"
                        "多 rank 任务每个对端还需为 NCCL 多留 64 个。"),
})

def needed(ranks: int) -> int:
    """Descriptors a rank needs in a job of ``ranks`` ranks: ``1024 + 64 × (ranks − 1)``.

    >>> needed(1), needed(2), needed(16)
    (1024, 1088, 1984)
    """
    return BASE + PER_PEER * max(ranks - 1, 0)


def _remedy(hard: "int | None", want: int) -> Text:
    """How to raise the limit to ``want``, naming 'ulimit -n' first when the hard limit ``hard`` allows it."""
    raise_ = WORDS("raise-none")
    if hard is not None and (hard < 0 or hard >= want):
        raise_ = WORDS("raise", value="unlimited" if hard < 0 else hard)
    return WORDS("remedy", raise_=raise_)


@rule(RULE, AREA, "Open-files limit high enough for the ranks", "打开文件数上限满足 rank 数量", order=275, needs=("limits",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when the soft RLIMIT_NOFILE is below 1024 + 64 per peer with two or more ranks; info at or below 1024 with
    one or an unknown number of ranks; ok otherwise; skipped when the limit is not known."""
    lim = ctx.facts.limits
    nsoft = known_limit(lim.nofile_soft)
    nhard = known_limit(lim.nofile_hard)
    if nsoft is None and lim.nofile_soft is not None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-a-limit", value=lim.nofile_soft), observed=str(lim.nofile_soft))
        return
    if nsoft is None:
        yield make(ctx, RULE, AREA, Severity.skipped, not_shown(ctx.facts, WORDS("subject")).as_sentence())
        return
    soft = limit(nsoft, "count")
    ranks, source = world_ranks(ctx.facts)
    want = needed(ranks or 1)
    observed = WORDS("observed", soft=soft)
    links = [NCCL_DOC, TORCH_DOC]
    multi = ranks is not None and ranks >= 2
    expected = WORDS("at-least", want=want) if multi else WORDS("more-than", base=BASE)
    enough = nsoft < 0 or (nsoft >= want if multi else nsoft > BASE)
    if enough:
        who = WORDS("ranks", ranks=ranks) if multi else WORDS("one-rank" if ranks == 1 else "unknown-ranks")
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("enough", soft=soft, who=who), observed=observed, expected=expected)
        return
    if multi:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("low-for-ranks", soft=soft, ranks=ranks, source=source),
                   remedy=_remedy(nhard, want), observed=observed, expected=expected, links=links)
        return
    yield make(ctx, RULE, AREA, Severity.info, WORDS("low-for-workers", soft=soft),
               remedy=_remedy(nhard, BASE + 1), observed=observed, expected=expected, links=links)
