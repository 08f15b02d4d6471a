"""Observed outcomes as evidence: what the driver and CUDA rules say when the input reports what happened.

Private helper of the rule modules.  A collect_env paste says ``Is CUDA
available: True`` or ``False``; that is an observation, and a prediction it
disproves must not be reported as an error.  Two findings are shared by the
rules that predict whether CUDA initialises (``driver.cuda-compatibility``,
``cuda.torch-build-vs-driver``):

* :func:`forward_unconfirmed`: forward compatibility is the only way CUDA can
  run here and every prerequisite the input shows holds, but the input does
  not show the cuda-compat package; the reported symptom decides between a
  warning (CUDA available, or not reported) and an error (not available).
* :func:`failure_disproved`: the rule's data says CUDA cannot initialise, but
  the input reports it is available: a warning that names the likely reason.

NVIDIA's forward compatibility rules:
https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html
"""

from __future__ import annotations

import functools
from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import GPU_DATACENTER, CompatDecision
from lingjun.checks.core.driver_target import branch_end_of_life, branch_row
from lingjun.checks.coverage import input_name
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.rules._driver_facts import driver_fix_text
from lingjun.checks.rules._finding import make, nvidia_url

__all__ = ["cuda_reported", "reported_available", "forward_unconfirmed", "failure_disproved", "with_reported_outcome"]


def cuda_reported(ctx: CheckContext) -> Optional[bool]:
    """``torch.cuda.is_available()`` as the input reports it (collect_env's "Is CUDA available"); None when not reported."""
    value = ctx.facts.symptoms.cuda_available
    return value if isinstance(value, bool) else None


def reported_available(ctx: CheckContext, available: bool) -> Text:
    """"the collect_env paste reports that CUDA is available" (or "is not available"), both languages."""
    name = input_name(ctx.facts)
    if available:
        return Text(f"{name.en} reports that CUDA is available", f"{name.zh}显示 CUDA 可用")
    return Text(f"{name.en} reports that CUDA is not available", f"{name.zh}显示 CUDA 不可用")


def forward_unconfirmed(
    ctx: CheckContext, rule_id: str, area: str, subject: Text, driver: object, decision: CompatDecision, observed: object
) -> Finding:
    """The finding for a ``forward-unconfirmed`` decision (see the module docstring).

    ``subject`` names what needs the newer CUDA ("CUDA 12.4", "torch's CUDA 12.4"); ``driver`` is the kernel
    driver version (printed as it is).
    """
    name = input_name(ctx.facts)
    need = decision.required
    branch = getattr(driver, "branch", None)

    up = driver_fix_text(ctx)  # the one driver every driver remedy of the report names
    upgrade = (
        f"Upgrade the host driver to {up.en} to run natively; until then keep the image's "
        f"cuda-compat package on the loader path (LD_LIBRARY_PATH or ld.so.conf.d).",
        f"请把宿主机驱动升级到 {up.zh} 以原生运行；在此之前，请保持镜像中的 cuda-compat 包位于库搜索路径中"
        f"（LD_LIBRARY_PATH 或 ld.so.conf.d）。")
    reported = cuda_reported(ctx)
    lead_en = (f"{subject.en} runs on driver {driver} only through forward compatibility: the GPUs are data center GPUs "
               f"and branch R{branch} is admitted, but {name.en} does not show whether the image carries the cuda-compat "
               f"package and uses it.")
    lead_zh = (f"{subject.zh} 只能通过向前兼容在驱动 {driver} 上运行：GPU 是数据中心 GPU，R{branch} 分支也在允许之列，"
               f"但{name.zh}中看不出镜像是否带有并使用 cuda-compat 包。")
    if reported is False:
        said = reported_available(ctx, False)
        return make(
            ctx, rule_id, area, Severity.error,
            f"{lead_en} {sentence_case(said.en)}: the cuda-compat package is most likely missing or not on the loader path.",
            f"{lead_zh}{said.zh}：很可能缺少 cuda-compat 包，或它不在库搜索路径中。",
            remedy=upgrade, observed=observed, expected=f">= {need}" if need else None,
            links=[nvidia_url(ctx, "forward")],
        )
    limits_en = (" Forward compatibility replaces only the CUDA user-mode driver: features that need the newer kernel-mode "
                 "driver stay unavailable, and it holds only while the branch is supported.")
    limits_zh = "向前兼容只替换 CUDA 用户态驱动：依赖新内核态驱动的功能仍不可用，且仅在该驱动分支受支持期间有效。"
    ended = _branch_ended(ctx, branch)
    if ended is not None:  # the condition the sentence names has already failed: say so, with the date
        limits_en = (" Forward compatibility replaces only the CUDA user-mode driver: features that need the newer "
                     f"kernel-mode driver stay unavailable, and branch R{branch} is past its end of life ({ended}), so "
                     "NVIDIA no longer supports this setup.")
        limits_zh = (f"向前兼容只替换 CUDA 用户态驱动：依赖新内核态驱动的功能仍不可用；且 R{branch} 分支已过停止支持日期（{ended}），"
                     "NVIDIA 不再支持这种用法。")
    if reported is True:
        said = reported_available(ctx, True)
        lead_en += f" {sentence_case(said.en)}, which fits forward compatibility being in use."
        lead_zh += f"{said.zh}，与正在使用向前兼容相符。"
    return make(
        ctx, rule_id, area, Severity.warning, lead_en + limits_en, lead_zh + limits_zh,
        remedy=upgrade, observed=observed, expected=f">= {need}" if need else None,
        links=[nvidia_url(ctx, "forward")],
    )


def _branch_ended(ctx: CheckContext, branch: object) -> Optional[str]:
    """The end-of-life month (``2024-07``, or "no date") of driver branch ``branch`` when it is past end of life on the
    checker's day (:func:`lingjun.checks.core.driver_target.branch_end_of_life`), else None (supported or not listed)."""
    row = branch_row(ctx.data.driver_branches, branch)
    if row is None or not branch_end_of_life(row, ctx.options.today):
        return None
    return str(row.get("eol") or "no date")


def failure_disproved(
    ctx: CheckContext, rule_id: str, area: str, prediction: Text, decision: Optional[CompatDecision], observed: object,
    expected: Optional[str] = None,
) -> Finding:
    """A warning replacing the error ``prediction`` ("CUDA 12.4 cannot run on driver 470.161.03") that the input's
    "CUDA is available" disproves, with the likely reason: forward compatibility on data center GPUs, else driver
    facts that are not the ones the process saw."""
    up = driver_fix_text(ctx)
    said = reported_available(ctx, True)
    classes = decision.gpu_classes if decision else []
    if classes and all(c == GPU_DATACENTER for c in classes):
        why_en = ("on these data center GPUs the likely reason is forward compatibility (a cuda-compat package on the "
                  "loader path), which lingjun-check's data does not admit for this driver branch; the job depends on it")
        why_zh = "在这些数据中心 GPU 上，最可能的原因是向前兼容（库搜索路径中有 cuda-compat 包），而 lingjun-check 的数据并未允许该驱动分支这样运行；作业依赖于它"
    else:
        why_en = ("the driver version in the input may not be the one the process used (outputs of two machines, or a "
                  "container runtime that injects another driver)")
        why_zh = "输入中的驱动版本可能并非进程实际使用的版本（混入了两台机器的输出，或容器运行时注入了另一版本驱动）"
    return make(
        ctx, rule_id, area, Severity.warning,
        f"{sentence_case(said.en)}, although by NVIDIA's tables {prediction.en}: {why_en}.",
        f"{said.zh}，而按 NVIDIA 的对照表{prediction.zh}：{why_zh}。",
        remedy=(f"Upgrade the host driver to {up.en} so that the image's CUDA runs natively, and check the driver version on "
                f"the node itself (nvidia-smi).",
                f"请把宿主机驱动升级到 {up.zh}，使镜像的 CUDA 可以原生运行，并在节点上核对驱动版本（nvidia-smi）。"),
        observed=observed, expected=expected, links=[nvidia_url(ctx, "forward"), nvidia_url(ctx, "toolkit")],
    )


def with_reported_outcome(func):
    """Decorator for a rule that predicts whether CUDA starts (``driver.minimum``, ``driver.cuda-compatibility``,
    ``cuda.torch-build-vs-driver``): when the input reports that CUDA is not available, each of its ok, info and
    warning findings (which say or imply that CUDA starts) gets a sentence saying the input reports otherwise and
    pointing at ``cuda.available``, where the likely causes are ranked.  Errors and skipped findings are kept as they are.
    """
    @functools.wraps(func)
    def wrapper(ctx: CheckContext):
        findings = list(func(ctx) or [])
        if cuda_reported(ctx) is not False:
            return findings
        said = reported_available(ctx, False)
        for finding in findings:
            if finding.severity in (Severity.ok, Severity.info, Severity.warning):
                en = f" However, {said.en}: see cuda.available for the likely causes."
                zh = f"然而{said.zh}：可能的原因见 cuda.available。"
                finding.message = Text(finding.message.en + en, finding.message.zh + zh)
                if finding.brief is not None:
                    finding.brief = Text(finding.brief.en + en, finding.brief.zh + zh)
        return findings

    return wrapper
