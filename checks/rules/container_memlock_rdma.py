"""container.memlock-rdma: the locked-memory limit lets NCCL register its buffers for RDMA.

RDMA registration (``ibv_reg_mr``) pins the buffers it registers, and pinned pages count against
``RLIMIT_MEMLOCK`` unless the process has ``CAP_IPC_LOCK`` (Linux ``getrlimit(2)``, ``RLIMIT_MEMLOCK``;
``capabilities(7)``, ``CAP_IPC_LOCK``).  When the limit is reached registration fails with ``ENOMEM``:
NCCL prints ``Call to ibv_reg_mr… failed with error Cannot allocate memory`` (NVIDIA/nccl-tests#206).

Thresholds:

* NCCL's troubleshooting guide asks containers for ``--ulimit memlock=-1``, an unlimited limit
  (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html):
  unlimited (or ``CAP_IPC_LOCK``) is ok, any finite limit is at least a warning.
* NCCL registers a ``NCCL_BUFFSIZE`` buffer (4 MiB by default,
  https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-buffsize) per channel, peer and
  direction, so the 8 MiB that Linux gives by default (since 5.16) is used up by the first connection.
  Below 1 GiB, 256 such buffers, the rule reports an error.

RDMA counts as in use when the input shows RDMA devices, or quotes an ``ibv_*`` error.  Without RDMA
the limit is not judged (and not named): pinned host memory from CUDA does not count against it.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import available, not_shown, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._rdma import symptom
from lingjun.checks.knowledge.units import GIB, known_limit, limit

RULE = "container.memlock-rdma"
AREA = "container"
NCCL_DOC = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html"
CASE = "https://github.com/NVIDIA/nccl-tests/issues/206"

#: below this, a finite limit is an error (256 NCCL buffers of the default 4 MiB)
ERROR_BELOW = 1 * GIB

WORDS = Words({
    "remedy": ("Give the container an unlimited locked-memory limit: docker run --ulimit memlock=-1 (or default-ulimits in the Docker "
               "daemon's daemon.json); Kubernetes has no per-pod ulimit, so set LimitMEMLOCK=infinity for the container runtime "
               "(containerd's systemd unit) on the node, or add the IPC_LOCK capability in the pod's securityContext.",
               "请把容器的锁定内存上限设为不限：docker run --ulimit memlock=-1（或在 Docker 守护进程的 daemon.json 中设置 default-ulimits）；"
               "Kubernetes 没有按 Pod 设置 ulimit 的字段，请在节点上为容器运行时（containerd 的 systemd 单元）设置 LimitMEMLOCK=infinity，"
               "或在 Pod 的 securityContext 中添加 IPC_LOCK 权能。"),
    "quoted": ("the input quotes '{quoted}'", "输入中引用了 '{quoted}'"),
    "devices": ("RDMA devices: {names}", "RDMA 设备：{names}"),
    "no-device": ("no RDMA device", "没有 RDMA 设备"),
    "not-a-limit": ("The locked-memory limit in the input ({value}) is not a limit value (only -1 means unlimited), so it was not judged.",
                    "输入中的锁定内存上限（{value}）不是有效的上限值（只有 -1 表示不限），未作判断。"),
    "not-judged": ("The locked-memory limit was not judged: {reason}.", "未判断锁定内存上限：{reason}。"),
    "no-rdma": ("No RDMA device is visible, so the locked-memory limit does not constrain NCCL here.",
                "未发现 RDMA 设备，锁定内存上限不会限制此处的 NCCL。"),
    "subject": ("the locked-memory limit", "锁定内存上限"),
    "observed": ("RLIMIT_MEMLOCK {soft}", "RLIMIT_MEMLOCK {soft}"),
    "expected": ("unlimited (--ulimit memlock=-1) or CAP_IPC_LOCK", "不限（--ulimit memlock=-1）或 CAP_IPC_LOCK"),
    "cap-ipc-lock": ("The process holds CAP_IPC_LOCK, so RDMA registration is not bounded by RLIMIT_MEMLOCK ({soft}).",
                     "进程拥有 CAP_IPC_LOCK，RDMA 内存注册不受 RLIMIT_MEMLOCK（{soft}）限制。"),
    "unlimited": ("The locked-memory limit is unlimited, as RDMA registration needs.", "锁定内存上限为不限，满足 RDMA 内存注册的需要。"),
    "cap-not-shown": ("; whether the process holds CAP_IPC_LOCK is not shown", "；未显示进程是否拥有 CAP_IPC_LOCK"),
    "cap-dropped": ("; this check ran with every capability dropped (its own pod's securityContext), so whether the "
                    "workload holds CAP_IPC_LOCK is not known", "；本次检查运行时所有权能都已被移除（检查所在 Pod 的 "
                    "securityContext），因此不知道工作负载是否拥有 CAP_IPC_LOCK"),
    "hard": (" The hard limit is {hard}: 'ulimit -l {value}' in the entrypoint raises it without privileges.",
             "硬上限为 {hard}：在入口脚本中执行 'ulimit -l {value}' 即可提高，无需特权。"),
    "piece-none": ("", ""),
    "finite": ("The locked-memory limit is {soft} while RDMA is in use ({why}{cap}): registering NCCL's buffers with "
               "ibv_reg_mr fails with 'Cannot allocate memory' once they exceed it; NCCL asks for an unlimited limit.{hard}",
               "RDMA 正在使用（{why}{cap}），而锁定内存上限只有 {soft}：NCCL 用 ibv_reg_mr 注册的缓冲区超过该上限时会报 "
               "'Cannot allocate memory'；NCCL 要求不限。{hard}"),
})


def _evidence(ctx: CheckContext) -> "tuple[bool, Text] | None":
    """``(True, what shows RDMA in use)``; ``(False, ...)`` when the input shows no RDMA; None when it cannot tell."""
    quoted = symptom(ctx.facts)
    if quoted:
        return True, WORDS("quoted", quoted=quoted)
    if not available(ctx.facts, "rdma"):
        return None
    names = [d.name for d in ctx.facts.rdma.devices]
    if names:
        return True, WORDS("devices", names=", ".join(names))
    return False, WORDS("no-device")


@rule(RULE, AREA, "Locked-memory limit allows RDMA registration", "锁定内存上限满足 RDMA 内存注册", order=270, needs=("limits",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error for a finite RLIMIT_MEMLOCK below 1 GiB without CAP_IPC_LOCK while RDMA is in use, warning for a larger
    finite one, ok when unlimited or CAP_IPC_LOCK is held; ok without naming the limit when there is no RDMA;
    skipped when the input shows neither the RDMA devices nor the limit."""
    lim = ctx.facts.limits
    msoft = known_limit(lim.memlock_soft)
    if msoft is None and lim.memlock_soft is not None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-a-limit", value=lim.memlock_soft), observed=str(lim.memlock_soft))
        return
    evidence = _evidence(ctx)
    if evidence is None:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-judged", reason=unavailable_reason(ctx.facts, ["rdma"])))
        return
    in_use, why = evidence
    if not in_use:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("no-rdma"))
        return
    if msoft is None:
        yield make(ctx, RULE, AREA, Severity.skipped, not_shown(ctx.facts, WORDS("subject")).as_sentence())
        return
    yield _judged(ctx, msoft, why)


def _judged(ctx: CheckContext, msoft: int, why: Text) -> Finding:
    """The soft limit ``msoft`` (bytes, negative for unlimited) with RDMA in use (``why``): ok with CAP_IPC_LOCK or
    unlimited, error below :data:`ERROR_BELOW`, warning above it, and a warning below it too when the check ran
    with every capability dropped (the workload's CAP_IPC_LOCK is then not known)."""
    lim = ctx.facts.limits
    soft = limit(msoft)
    observed, expected = WORDS("observed", soft=soft), WORDS("expected")
    if lim.cap_ipc_lock:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("cap-ipc-lock", soft=soft), observed=observed, expected=expected)
    if msoft < 0:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("unlimited"), observed=observed, expected=expected)
    # a check whose pod dropped every capability tells nothing of the workload's CAP_IPC_LOCK: the limit (the
    # runtime's, the node's) still stands, the error it would make leans on a capability not known, so a warning
    dropped = lim.cap_ipc_lock is False and lim.caps_dropped is True
    severity = Severity.error if msoft < ERROR_BELOW and not dropped else Severity.warning
    cap = WORDS("cap-dropped" if dropped else "piece-none" if lim.cap_ipc_lock is False else "cap-not-shown")
    mhard = known_limit(lim.memlock_hard)
    hard = WORDS("piece-none")
    if mhard is not None and (mhard < 0 or mhard > msoft):
        hard = WORDS("hard", hard=limit(mhard), value="unlimited" if mhard < 0 else mhard // 1024)
    return make(ctx, RULE, AREA, severity, WORDS("finite", soft=soft, why=why, cap=cap, hard=hard), remedy=WORDS("remedy"),
                observed=observed, expected=expected, links=[NCCL_DOC, CASE])
