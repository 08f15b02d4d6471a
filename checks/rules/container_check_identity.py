"""container.check-identity: who the check ran as (user id, capabilities), so a report says when what it saw of
limits and capabilities is its own pod's rather than the workload's.

A container's capabilities and user come from its securityContext (Kubernetes: ``runAsUser``,
``capabilities.drop``, ``allowPrivilegeEscalation``; https://kubernetes.io/docs/tasks/configure-pod-container/security-context/),
so a check started in a pod of its own (the "restricted" Pod Security profile drops ALL and runs as non-root:
https://kubernetes.io/docs/concepts/security/pod-security-standards/) sees that pod's capabilities, not those of the
training pods it stands for; ``kubectl exec`` into the workload's container sees the workload's.  The resource
limits (``RLIMIT_MEMLOCK``, ``RLIMIT_NOFILE``) come from the container runtime for every container of the node
alike, so they stay the node's.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import not_shown
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "container.check-identity"
AREA = "container"
DOC = "https://kubernetes.io/docs/tasks/configure-pod-container/security-context/"

WORDS = Words({
    "subject": ("who the check ran as (user id and capabilities)", "检查以什么身份运行（用户 ID 与权能）"),
    "root": ("The check ran as root (uid 0) with the container's capabilities: its limits and capabilities are what a "
             "root workload in this container gets.",
             "检查以 root（uid 0）身份、以容器的权能运行：它看到的资源上限与权能就是本容器中以 root 运行的工作负载所得到的。"),
    "other": ("The check ran as {who}{dropped}{no_new}: what it saw of capabilities (CAP_IPC_LOCK for RDMA) is its "
              "own container's; a workload run as another user or with other capabilities sees others. The resource "
              "limits are the container runtime's, the same for the workload.",
              "检查以 {who}{dropped}{no_new}运行：它看到的权能（RDMA 所需的 CAP_IPC_LOCK）只是它自己所在容器的；以其他用户或"
              "其他权能运行的工作负载看到的会不同。资源上限来自容器运行时，对工作负载也相同。"),
    "uid": ("uid {uid}", "uid {uid}"),
    "uid-unknown": ("an unknown user", "未知用户"),
    "dropped": (" with every capability dropped", "、移除了所有权能"),
    "no-new": (" and privilege escalation off (no_new_privs)", "并禁止提权（no_new_privs）"),
    "piece-none": ("", ""),
    "remedy": ("To check what the workload sees, run the check with the workload's securityContext (the same runAsUser "
               "and capabilities, e.g. capabilities.add: [IPC_LOCK] where the training pods have it), or kubectl exec into "
               "the workload's container and run it there.",
               "要检查工作负载看到的环境，请用与工作负载相同的 securityContext 运行检查（相同的 runAsUser 与权能，例如训练 Pod "
               "拥有 IPC_LOCK 时加上 capabilities.add: [IPC_LOCK]），或用 kubectl exec 进入工作负载的容器运行检查。"),
})


@rule(RULE, AREA, "The check ran as the workload would", "检查以工作负载的身份运行", order=265, needs=("limits",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok when the check ran as root with capabilities left (a container's default); info naming the user id and what
    was dropped otherwise; skipped when the input shows neither (a snapshot of an older checker)."""
    lim = ctx.facts.limits
    if lim.uid is None and lim.caps_dropped is None:
        yield make(ctx, RULE, AREA, Severity.skipped, not_shown(ctx.facts, WORDS("subject")).as_sentence())
        return
    observed = f"uid {lim.uid if lim.uid is not None else '?'}" + (", CapBnd 0" if lim.caps_dropped else "")
    if lim.uid == 0 and lim.caps_dropped is False:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("root"), observed=observed)
        return
    who = WORDS("uid", uid=lim.uid) if lim.uid is not None else WORDS("uid-unknown")
    message = WORDS("other", who=who,
                    dropped=WORDS("dropped" if lim.caps_dropped else "piece-none"),
                    no_new=WORDS("no-new" if lim.no_new_privs else "piece-none"))
    yield make(ctx, RULE, AREA, Severity.info, message, remedy=WORDS("remedy"), observed=observed, links=[DOC])
