"""container.shm-size: /dev/shm is large enough for the GPUs in the pod (NCCL's shared-memory segments, PyTorch's worker IPC).

Thresholds and the documents they come from:

* NCCL creates its shared-memory segments in ``/dev/shm`` and fails to initialise when one cannot be
  extended; for containers its troubleshooting guide asks for ``--shm-size=1g``
  (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html,
  "Shared memory").  Below 1 GiB a pod with two or more GPUs gets a warning.
* Docker mounts a 64 MiB ``/dev/shm`` when ``--shm-size`` is not given
  (https://docs.docker.com/reference/cli/docker/container/run/, ``--shm-size``), and a Kubernetes pod
  keeps the container runtime's 64 MiB unless an ``emptyDir`` volume with ``medium: Memory`` is mounted
  there (https://kubernetes.io/docs/concepts/storage/volumes/#emptydir).  At or below that default, two or
  more GPUs make it an error (vllm-project/production-stack#276: a two-GPU tensor-parallel pod with a
  64 MiB ``/dev/shm``).
* PyTorch passes tensors between processes (DataLoader workers) through shared memory, and its README says
  the container default is not enough for them: raise it with ``--ipc=host`` or ``--shm-size``
  (https://github.com/pytorch/pytorch#using-pre-built-images; https://pytorch.org/docs/stable/multiprocessing.html).
  With one GPU (or an unknown count) a ``/dev/shm`` at the 64 MiB default is a warning, below 1 GiB an info.

``host_ipc`` True means the container shares the host's IPC namespace (``--ipc=host``, ``hostIPC: true``):
the size is then the host's, and the remedy is to enlarge the host's ``/dev/shm``.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._pod import local_gpus
from lingjun.checks.rules._words import Words, join
from lingjun.checks.knowledge.units import GIB, MIB, size

RULE = "container.shm-size"
AREA = "container"
NCCL_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html"
DOCKER_DOC = "https://docs.docker.com/reference/cli/docker/container/run/"
K8S_DOC = "https://kubernetes.io/docs/concepts/storage/volumes/#emptydir"
TORCH_DOC = "https://github.com/pytorch/pytorch#using-pre-built-images"
#: the kernel's tmpfs document: "size=0 ... means no limit" for the size option
TMPFS_DOC = "https://docs.kernel.org/filesystems/tmpfs.html"

#: NCCL's troubleshooting guide: --shm-size=1g
NCCL_MINIMUM = 1 * GIB
#: Docker's and the container runtimes' default /dev/shm
CONTAINER_DEFAULT = 64 * MIB

WORDS = Words({
    "remedy": (
        "Give the pod a larger /dev/shm. Kubernetes: mount an emptyDir volume with medium: Memory (and a sizeLimit such as 16Gi) "
        "at /dev/shm. Docker: start the container with --shm-size=16g (NCCL's documentation gives --shm-size=1g as an example; a job with many ranks per node needs more), or --ipc=host to use the host's.",
        "请为 Pod 提供更大的 /dev/shm。Kubernetes：在 /dev/shm 挂载 medium: Memory 的 emptyDir 卷（并设置 sizeLimit，如 16Gi）。"
        "Docker：启动容器时加 --shm-size=16g（NCCL 文档以 --shm-size=1g 为例；每节点 rank 较多的作业需要更大），或用 --ipc=host 共享宿主机的 /dev/shm。",
    ),
    "remedy-host": (
        "The container shares the host's IPC namespace, so this is the host's /dev/shm: enlarge it on the node "
        "(mount -o remount,size=16G /dev/shm, or the size= option in /etc/fstab).",
        "容器共享宿主机的 IPC 命名空间，这是宿主机的 /dev/shm：请在节点上扩大它（mount -o remount,size=16G /dev/shm，或在 /etc/fstab 中设置 size=）。",
    ),
    "absent": (
        "There is no /dev/shm in this container: NCCL creates its shared-memory segments there and PyTorch's "
        "worker processes pass tensors through it.",
        "容器中没有 /dev/shm：NCCL 在其中创建共享内存段，PyTorch 的工作进程也通过它传递张量。",
    ),
    "absent-observed": ("absent", "不存在"),
    "absent-expected": ("a tmpfs of at least 1 GiB", "至少 1 GiB 的 tmpfs"),
    "size-subject": ("the size of /dev/shm", "/dev/shm 的大小"),
    "not-a-size": (
        "The size of /dev/shm in the input ({value}) is not a size, so it was not judged.",
        "输入中的 /dev/shm 大小（{value}）不是有效的大小，未作判断。",
    ),
    "unlimited": (
        "/dev/shm has no size limit (a tmpfs mounted with size=0 reports 0 blocks): only the memory of the "
        "container bounds it.",
        "/dev/shm 没有大小限制（以 size=0 挂载的 tmpfs 报告 0 个块）：只受容器内存限制。",
    ),
    "unlimited-observed": ("no size limit (0 blocks)", "无大小限制（0 个块）"),
    "used": ("{size} used", "已用 {size}"),
    "host-ipc": ("host IPC namespace", "宿主机 IPC 命名空间"),
    "observed": ("{size} ({extras})", "{size}（{extras}）"),
    "expected": ("at least 1 GiB (NCCL: --shm-size=1g)", "至少 1 GiB（NCCL：--shm-size=1g）"),
    "gpus": ("{count} GPUs ({source})", "{count} 块 GPU（{source}）"),
    "one-gpu": ("one GPU ({source})", "1 块 GPU（{source}）"),
    "unknown-gpus": ("an unknown number of GPUs", "GPU 数量未知"),
    "ranks": ("{count} ranks ({source})", "{count} 个进程（{source}）"),
    "one-rank": ("one rank ({source})", "1 个进程（{source}）"),
    "default-note": (" (Docker's and Kubernetes' default)", "（Docker 和 Kubernetes 的默认值）"),
    "ok": (
        "/dev/shm is {have}, at least the 1 GiB NCCL asks for in a container.",
        "/dev/shm 为 {have}，不小于 NCCL 对容器要求的 1 GiB。",
    ),
    "too-small-for-nccl": (
        "/dev/shm is {have}{default} in a pod with {count}: NCCL's shared-memory transport between the GPUs "
        "needs more (its guide asks for at least 1 GiB) and fails to initialise with 'failed to extend /dev/shm/nccl-…'; "
        "PyTorch DataLoader workers also pass batches through /dev/shm.",
        "Pod 中有 {count}，而 /dev/shm 只有 {have}{default}：NCCL 在 GPU 之间的共享内存传输需要更多空间"
        "（其文档要求至少 1 GiB），不足时初始化失败并报 'failed to extend /dev/shm/nccl-…'；PyTorch DataLoader 的工作进程也通过 /dev/shm 传递数据。",
    ),
    "small-for-workers": (
        "/dev/shm is {have} with {count}: PyTorch DataLoader workers pass batches through /dev/shm and fail with "
        "'insufficient shared memory (shm)' when it fills; a multi-GPU job also needs at least 1 GiB for NCCL.",
        "/dev/shm 只有 {have}（{count}）：PyTorch DataLoader 的工作进程通过 /dev/shm 传递数据，空间用尽时报 "
        "'insufficient shared memory (shm)'；多 GPU 任务还需要至少 1 GiB 供 NCCL 使用。",
    ),
})


def _observed(ctx: CheckContext) -> Text:
    shm = ctx.facts.shm
    extras = []
    if shm.used_bytes is not None:
        extras.append(WORDS("used", size=size(shm.used_bytes)))
    if shm.host_ipc:
        extras.append(WORDS("host-ipc"))
    base = size(shm.size_bytes or 0)
    if not extras:
        return Text(base, base)
    return WORDS("observed", size=base, extras=join(extras))


def _count(ctx: CheckContext, gpus: "int | None", source: Text) -> Text:
    """How many GPUs (or, with none listed, launcher ranks) the pod has, with where the count comes from."""
    if ctx.facts.gpus or gpus is None:
        key = "gpus" if gpus is not None and gpus >= 2 else ("one-gpu" if gpus == 1 else "unknown-gpus")
    else:  # no GPU listed: the count is the launcher's ranks, not GPUs seen
        key = "ranks" if gpus >= 2 else "one-rank"
    return WORDS(key, count=gpus, source=source)


@rule(RULE, AREA, "/dev/shm large enough for the GPUs", "/dev/shm 容量满足 GPU 数量", order=260, needs=("shm",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error at or below the 64 MiB container default with two or more GPUs, warning below NCCL's 1 GiB with two or
    more GPUs (or at the default with one), info below 1 GiB with one GPU, ok from 1 GiB; skipped when the size is
    not known or not a size (negative); ok for a tmpfs without a size limit (size 0)."""
    shm = ctx.facts.shm
    gpus, source = local_gpus(ctx.facts)
    links = [NCCL_DOC, K8S_DOC, DOCKER_DOC, TORCH_DOC]
    remedy = WORDS("remedy-host" if shm.host_ipc else "remedy")
    if shm.present is False:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("absent"), remedy=WORDS("remedy"),
                   observed=WORDS("absent-observed"), expected=WORDS("absent-expected"), links=links)
        return
    if shm.size_bytes is None:
        yield make(ctx, RULE, AREA, Severity.skipped, not_shown(ctx.facts, WORDS("size-subject")).as_sentence())
        return
    if shm.size_bytes < 0:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-a-size", value=shm.size_bytes), observed=str(shm.size_bytes))
        return
    if shm.size_bytes == 0:
        # a tmpfs mounted with size=0 has no size limit (statvfs then reports 0 blocks); only memory bounds it
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("unlimited"), observed=WORDS("unlimited-observed"), links=[TMPFS_DOC])
        return
    observed, expected = _observed(ctx), WORDS("expected")
    have = size(shm.size_bytes)
    if shm.size_bytes >= NCCL_MINIMUM:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", have=have), observed=observed, expected=expected)
        return
    at_default = shm.size_bytes <= CONTAINER_DEFAULT
    count = _count(ctx, gpus, source)
    if gpus is not None and gpus >= 2:
        is_default = shm.size_bytes == CONTAINER_DEFAULT and not shm.host_ipc
        message = WORDS("too-small-for-nccl", have=have, count=count,
                        default=WORDS("default-note") if is_default else Text("", ""))
        severity = Severity.error if at_default else Severity.warning
    else:
        message = WORDS("small-for-workers", have=have, count=count)
        severity = Severity.warning if at_default else Severity.info
    yield make(ctx, RULE, AREA, severity, message, remedy=remedy, observed=observed, expected=expected, links=links)
