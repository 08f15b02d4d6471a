"""Run every registered rule against a :class:`~lingjun.checks.context.CheckContext`.

:func:`run_rules` loads the rules (:func:`lingjun.checks.rules.load_rules`
finds every rule module), then runs each rule in its declared ``order``, isolated:

* a rule marked ``needs_gpu`` is not run when the facts show no NVIDIA
  driver (:attr:`Facts.has_nvidia_driver`); it yields one ``skipped``
  finding "No NVIDIA driver in this container." ("PPU image: NVIDIA driver checks do not apply." for a
  PPU release), or, when the input could not
  show a driver at all (:func:`lingjun.checks.coverage.driver_observed`),
  "the snapshot does not show whether an NVIDIA driver is present";
* a rule whose ``needs`` names a facts section the input does not carry
  (:mod:`lingjun.checks.coverage`) is not run; it yields one ``skipped``
  finding with the reason ("the collect_env paste does not show environment variables");
* a rule that raises yields one ``error`` finding "internal error in rule X"
  (with the exception text as ``observed``); the other rules still run;
* a rule that returns something other than findings is treated the same way.

After the rules, :func:`lingjun.checks.confirm.confirm` raises each warning an error line of the logs
confirms to an error; then :func:`checker_findings` adds the checker's own findings
(rule ids ``checker.*``, area ``checker``): probes that timed out or failed,
problems of a snapshot read with ``--from`` (the first :data:`MAX_SNAPSHOT_PROBLEMS`,
then one finding counting the rest), and, with ``--require-gpu`` on
a machine without a driver, an error ``driver.present`` unless a rule
already reported one (when the input could not show a driver at all it says
so: "the snapshot does not show whether an NVIDIA driver is present, so a GPU
cannot be confirmed", never "no NVIDIA driver").
"""

from __future__ import annotations

from typing import Iterable, Optional

from lingjun.checks.confirm import adopt_remedies, confirm, withdraw
from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import driver_observed, driver_unknown_reason, missing, unavailable_reason
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import RuleSpec, load_rules

__all__ = ["run_rules", "run_rule", "checker_findings", "load_rules", "NO_DRIVER", "PPU_IMAGE", "CHECKER_RULE_IDS"]

NO_DRIVER = Text("No NVIDIA driver in this container.", "此容器中没有 NVIDIA 驱动。")
#: the skip of a GPU rule for a PPU release on input without an NVIDIA driver
PPU_IMAGE = Text("PPU image: NVIDIA driver checks do not apply.", "PPU 镜像：不适用 NVIDIA 驱动检查。")
#: the rule ids of :func:`checker_findings` that no registered rule has (``--format prometheus`` writes a zero series for each)
CHECKER_RULE_IDS = ("checker.probe-timeout", "checker.probe-error", "checker.snapshot")
#: snapshot problems reported one finding each; the rest are counted in one more finding
MAX_SNAPSHOT_PROBLEMS = 20


def _present(*urls: Optional[str]) -> list[str]:
    """The links that exist (a rule's site page is None when the bundle has no site URL)."""
    return [url for url in urls if url]


def run_rule(spec: RuleSpec, ctx: CheckContext) -> list[Finding]:
    """Run one rule isolated (see the module docstring); never raises."""
    def skipped(message: Text) -> list[Finding]:
        return [Finding(rule=spec.id, severity=Severity.skipped, area=spec.area, message=message, links=_present(ctx.data.rule_url(spec.id, ctx.options.lang)))]

    if spec.needs_gpu and not ctx.facts.has_nvidia_driver:
        if is_ppu(ctx.record):  # the reason is the image's accelerator, not a missing driver
            return skipped(PPU_IMAGE)
        if driver_observed(ctx.facts):
            return skipped(NO_DRIVER)
        reason = driver_unknown_reason(ctx.facts)
        return skipped(reason.as_sentence())
    absent = missing(ctx.facts, spec.needs)
    if absent:
        reason = unavailable_reason(ctx.facts, absent)
        return skipped(reason.as_sentence())
    try:
        produced = spec.func(ctx)
        findings = list(produced) if produced is not None else []
        bad = [f for f in findings if not isinstance(f, Finding)]
        if bad:
            raise TypeError(f"rule yielded {type(bad[0]).__name__}, not Finding")
        return findings
    except Exception as exc:  # isolation: one broken rule never aborts the report
        return [
            Finding(
                rule=spec.id,
                severity=Severity.error,
                area=spec.area,
                message=Text(f"internal error in rule {spec.id}", f"规则 {spec.id} 内部错误"),
                remedy=Text(
                    "Report this to the lingjun-kb maintainers with the output of lingjun-check --collect FILE.",
                    "请将 lingjun-check --collect FILE 的输出报告给 lingjun-kb 维护者。",
                ),
                observed=f"{type(exc).__name__}: {exc}"[:300],
            )
        ]


def run_rules(ctx: CheckContext, rules: Optional[Iterable[RuleSpec]] = None, snapshot_problems: Optional[list[str]] = None) -> list[Finding]:
    """All findings of all rules (``rules`` defaults to every registered rule), then :func:`checker_findings`."""
    specs = list(rules) if rules is not None else load_rules()
    findings: list[Finding] = []
    for spec in specs:
        findings.extend(run_rule(spec, ctx))

    withdraw(ctx, findings)  # a fact the logs state lowers the prediction it disproves
    confirm(ctx, findings)  # an error line of the logs turns the warning it confirms into an error
    adopt_remedies(ctx, findings)  # and takes the remedy its cause's rule computed for this node
    findings.extend(checker_findings(ctx, findings, snapshot_problems))
    return findings


def checker_findings(ctx: CheckContext, so_far: list[Finding], snapshot_problems: Optional[list[str]] = None) -> list[Finding]:
    """The checker's own findings (see the module docstring)."""
    out: list[Finding] = []
    facts = ctx.facts
    for record in facts.probes:
        if record.timed_out:
            out.append(
                Finding(
                    rule="checker.probe-timeout",
                    severity=Severity.warning,
                    area="checker",
                    message=Text(f"probe {record.name} timed out; its facts are unknown", f"探测 {record.name} 超时，其结果未知"),
                    remedy=Text(
                        "A hanging driver tool often means a wedged GPU driver; check the host, or raise --timeout.",
                        "驱动工具无响应通常说明 GPU 驱动异常；请检查宿主机，或调大 --timeout。",
                    ),
                    observed=record.error,
                )
            )
        elif not record.ok and record.error:
            out.append(
                Finding(
                    rule="checker.probe-error",
                    severity=Severity.info,
                    area="checker",
                    message=Text(f"probe {record.name} could not finish", f"探测 {record.name} 未能完成"),
                    observed=record.error[:300],
                )
            )
    problems = snapshot_problems or []
    for problem in problems[:MAX_SNAPSHOT_PROBLEMS]:
        out.append(
            Finding(
                rule="checker.snapshot",
                severity=Severity.warning,
                area="checker",
                message=Text("a snapshot value was unusable and was ignored", "快照中的某个值无法使用，已忽略"),
                observed=problem[:300],
            )
        )
    if len(problems) > MAX_SNAPSHOT_PROBLEMS:  # one line for the rest: the report stays readable
        rest = len(problems) - MAX_SNAPSHOT_PROBLEMS
        out.append(
            Finding(
                rule="checker.snapshot",
                severity=Severity.warning,
                area="checker",
                message=Text(f"{rest} more snapshot values were unusable and were ignored",
                             f"快照中另有 {rest} 个值无法使用，已忽略"),
                observed=f"{rest} more",
            )
        )
    if ctx.options.require_gpu and not facts.has_nvidia_driver:
        if not any(f.rule == "driver.present" and f.severity is Severity.error for f in so_far):
            from lingjun.checks.coverage import driver_observed, driver_unknown_reason

            unknown = driver_unknown_reason(facts)
            message = (Text("--require-gpu: no NVIDIA driver in this container", "--require-gpu：此容器中没有 NVIDIA 驱动")
                       if driver_observed(facts) else
                       Text(f"--require-gpu: {unknown.en}, so a GPU cannot be confirmed", f"--require-gpu：{unknown.zh}，无法确认有 GPU"))
            out.append(
                Finding(
                    rule="driver.present",
                    severity=Severity.error,
                    area="driver",
                    message=message,
                    remedy=Text(
                        "Run the container with GPUs (NVIDIA container runtime / device plugin) on a GPU node.",
                        "请在 GPU 节点上以 GPU 方式运行容器（NVIDIA 容器运行时或设备插件）。",
                    ),
                    expected="NVIDIA driver",
                    links=_present(ctx.data.rule_url("driver.present", ctx.options.lang)),
                )
            )
    return out
