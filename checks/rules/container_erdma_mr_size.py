"""container.erdma-mr-size: a memory registration that failed on an Alibaba Cloud eRDMA device (``erdma_*``).

Facts and the documents they come from:

* An eRDMA device reports ``max_mr_size: 0x1000000000`` (64 GiB) in ``ibv_devinfo -v``, and a Mooncake store on
  ``erdma_0`` failed to register a 64 GiB-plus segment ("Failed to register memory ...: Input/output error [5]")
  while smaller ones registered: https://github.com/kvcache-ai/Mooncake/issues/304 .
* Registering more than ``max_mr_size`` in one region fails or is silently cut; Mooncake's transfer engine now splits a
  buffer into regions of at most ``max_mr_size`` (https://github.com/kvcache-ai/Mooncake/pull/2644), and eRDMA
  buffers backed by huge pages are its recommended set-up (https://github.com/kvcache-ai/Mooncake/issues/1407).

The rule fires only on evidence: an ``erdma_*`` device in the input (its RDMA devices, or named in the error) and a
registration failure among the error lines.  A registration failure has another cause, the locked-memory limit,
which ``container.memlock-rdma`` judges.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "container.erdma-mr-size"
AREA = "container"
MAX_MR_SIZE = 64 * 1024 ** 3
ISSUE_304 = "https://github.com/kvcache-ai/Mooncake/issues/304"
PR_2644 = "https://github.com/kvcache-ai/Mooncake/pull/2644"
ISSUE_1407 = "https://github.com/kvcache-ai/Mooncake/issues/1407"
_REG_FAIL = re.compile(r"failed to register memory|ibv_reg_mr|register_local_memory_failed|reg_mr\b.*fail|memory registration fail",
                       re.IGNORECASE)
_ERDMA = re.compile(r"\berdma_\d+\b")


WORDS = Words({
    "missing-device": ("eRDMA (erdma_*) device", "eRDMA（erdma_*）设备"),
    "missing-failure": ("memory-registration failure among the error lines", "错误行中的内存注册失败"),
    "not-judged": ("eRDMA's region size limit was not judged: the input shows no {missing}.",
                   "未判断 eRDMA 的注册区域大小上限：输入中没有{missing}。"),
    "failed": ("A memory registration failed on eRDMA ({shown}): \"{failure}\". An eRDMA device registers at most 64 GiB in one "
               "region (max_mr_size 0x1000000000): a larger buffer (a KV-cache pool, a transfer-engine segment) fails to register; "
               "if every region is smaller, the locked-memory limit is the other cause (container.memlock-rdma).",
               "在 eRDMA（{shown}）上注册内存失败：“{failure}”。eRDMA 设备单个注册区域最大 64 GiB（max_mr_size 0x1000000000）："
               "更大的缓冲区（KV 缓存池、传输引擎的内存段）会注册失败；如果每个区域都更小，另一原因是锁定内存上限（见 container.memlock-rdma）。"),
    "remedy": ("Keep each registered region at or below the device's max_mr_size (check it with ibv_devinfo -v | grep max_mr_size): "
               "split a large buffer into regions of at most 64 GiB (Mooncake: a global_segment_size of at most 64 GiB, or a "
               "transfer engine that splits regions itself, kvcache-ai/Mooncake#2644), and back the buffers with huge pages.",
               "让每个注册区域不超过设备的 max_mr_size（用 ibv_devinfo -v | grep max_mr_size 查看）：把大缓冲区拆成不超过 64 GiB 的区域"
               "（Mooncake：global_segment_size 不超过 64 GiB，或使用会自行拆分区域的传输引擎版本，kvcache-ai/Mooncake#2644），并用大页内存承载缓冲区。"),
    "observed": ("{shown}: {failure}", "{shown}：{failure}"),
    "expected": ("each registered region <= 64 GiB", "每个注册区域 <= 64 GiB"),
})


def _erdma_devices(ctx: CheckContext) -> list[str]:
    names = [d.name for d in ctx.facts.rdma.devices if isinstance(d.name, str) and d.name.startswith("erdma")]
    for line in ctx.facts.symptoms.errors:
        names.extend(m for m in _ERDMA.findall(line) if m not in names)
    return names


def _failure(ctx: CheckContext) -> Optional[str]:
    return next((e[:200] for e in ctx.facts.symptoms.errors if _REG_FAIL.search(e)), None)


@rule(RULE, AREA, "RDMA regions within eRDMA's max_mr_size", "eRDMA 单个 RDMA 注册区域不超过设备上限", order=298)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the input quotes a memory-registration failure and shows an erdma_* device; skipped otherwise,
    naming which of the two is missing."""
    devices = _erdma_devices(ctx)
    failure = _failure(ctx)
    if not devices or failure is None:
        missing = WORDS("missing-device" if not devices else "missing-failure")
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-judged", missing=missing))
        return
    shown = ", ".join(devices[:4])
    yield make(ctx, RULE, AREA, Severity.error, WORDS("failed", shown=shown, failure=failure), remedy=WORDS("remedy"),
               observed=WORDS("observed", shown=shown, failure=failure), expected=WORDS("expected"),
               links=[ISSUE_304, PR_2644, ISSUE_1407])
