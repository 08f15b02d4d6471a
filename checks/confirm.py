"""Observed failures decide: a rule's warning that an error line of the logs confirms becomes an error.

A signature names the checker rules that judge the same cause (its ``rules``, and each cause's ``rules``; of the
causes, only the leading one confirms).
When the logs show the signature's line and such a rule predicted the failure only as a warning (or an
info), the prediction is no longer a prediction: :func:`confirm` raises it to an error and says which
line confirms it; when the rule predicted success (ok), the line contradicts it, and it becomes an error saying so.  A cause the facts rule out confirms nothing.

The other way round, a fact a log states can disprove a prediction: NCCL printing ``Using network IB``
shows that its InfiniBand transport works, whatever ``container.rdma-usable`` predicted from the devices it
saw.  :func:`withdraw` lowers such a warning or error to an info that names the line (:data:`DISPROOFS`).
Standard library only.
"""

from __future__ import annotations

from lingjun.checks.context import CheckContext
from lingjun.checks.knowledge.signature_causes import leading_cause, line_severity, rank_causes
from lingjun.checks.report.findings import Finding, Severity, Text

__all__ = ["confirm", "withdraw", "adopt_remedies", "WORDS", "CONTRADICTED", "ADOPTED", "DISPROOFS"]

#: the sentence added to a confirmed finding, both languages
WORDS = ("The logs confirm it: {where} shows \u00ab{line}\u00bb (see evidence.error-lines).",
         "日志证实了这一点：{where} 显示 \u00ab{line}\u00bb（见 evidence.error-lines）。")
#: the sentence added to an ok the logs contradict (the facts predicted success; the job printed the failure)
CONTRADICTED = ("The logs contradict this prediction: {where} shows \u00ab{line}\u00bb, the failure it rules out "
                "(see evidence.error-lines).",
                "日志否定了这一预测：{where} 显示 \u00ab{line}\u00bb，正是它所排除的故障（见 evidence.error-lines）。")

#: the remedy of an error line whose leading cause a rule judged with the node's own values (version, index, tag)
ADOPTED = ("{remedy} (from {rule}, for this node)", "{remedy}（来自 {rule}，针对本节点）")

#: rules whose remedy points back to the causes ("fix the first cause that applies"): an error line never takes theirs
SUMMARY_RULES = frozenset({"cuda.available"})
#: report areas whose rules compute their remedy from the node's versions (torch release and its published CUDA
#: variants, driver branch, image tag); the container rules' remedies are no more specific than the line's, which
#: also cover the other settings a failing line may need (devices and memlock for RDMA), so those lines keep theirs
ADOPTING_AREAS = frozenset({"cuda", "driver", "packages", "libraries"})

#: (stated fact, value) -> the rules whose warnings and errors that value disproves, with the sentence saying so
DISPROOFS = {
    ("nccl.network", "ib"): (("container.rdma-usable",),
                             ("The logs disprove this prediction: {where} shows NCCL using its InfiniBand/RoCE transport.",
                              "日志否定了这一预测：{where} 显示 NCCL 正在使用 InfiniBand/RoCE 传输。")),
}


def withdraw(ctx: CheckContext, findings: list[Finding]) -> None:
    """Lower, in place, each warning or error a fact the logs state disproves to an info naming the line."""
    for (name, value), (rules, words) in DISPROOFS.items():
        stated = ctx.evidence.value(name)
        if stated is None or stated.value != value:
            continue
        for finding in findings:
            if finding.rule in rules and finding.severity in (Severity.warning, Severity.error):
                finding.severity = Severity.info
                en, zh = words[0].format(where=stated.line.where()), words[1].format(where=stated.line.where())
                finding.message = Text(f"{finding.message.en} {en}", f"{finding.message.zh}{zh}")
                finding.remedy = None
                if finding.brief is not None:
                    finding.brief = Text(f"{finding.brief.en} {en}", f"{finding.brief.zh}{zh}")


def _confirming_rules(ctx: CheckContext, signature: dict) -> set[str]:
    """The rules a matched line of ``signature`` confirms: the signature's own and those of its leading cause (the
    diagnosis the report gives), less those only the causes the facts rule out name.  Another cause that merely
    may apply confirms nothing."""
    causes = rank_causes(ctx, signature)
    lead = next((c for c in causes if c.standing), None)
    ruled_out = {r for c in causes if not c.standing for r in c.spec.get("rules") or []}
    rules = set(signature.get("rules") or []) - ruled_out
    if lead is not None:
        rules |= set(lead.spec.get("rules") or [])
    return rules


def confirm(ctx: CheckContext, findings: list[Finding]) -> None:
    """Raise, in place, each warning, info or ok finding of a rule a matched signature names to an error (see the
    module docstring): a warning or info the line confirms, an ok it contradicts (``cuda.compute-capability`` said the
    architecture is supported, and the job printed torch's "sm_120 is not compatible")."""
    if not ctx.evidence.hits:
        return
    for hit in ctx.evidence.hits:
        signature = ctx.data.signature(hit.signature)
        if signature is None or line_severity(signature, leading_cause(ctx, signature)) != "error":
            continue  # a line printed also when nothing is wrong confirms nothing
        rules = _confirming_rules(ctx, signature)
        lead = leading_cause(ctx, signature)
        # only the leading cause's own rules are contradicted: the signature's rules may judge another cause of the
        # same line (no kernel image: torch's architectures, or an extension built without them)
        contradicted = set(lead.spec.get("rules") or []) if lead is not None else set()
        for finding in findings:
            if (finding.rule in rules and finding.severity in (Severity.warning, Severity.info)
                    or finding.rule in contradicted and finding.severity is Severity.ok):
                # a warning is confirmed; an ok (the facts predicted success) is contradicted by what the job printed
                words = CONTRADICTED if finding.severity is Severity.ok else WORDS
                en = words[0].format(where=hit.first.where(), line=hit.first.text)
                zh = words[1].format(where=hit.first.where(), line=hit.first.text)
                finding.severity = Severity.error
                finding.message = Text(f"{finding.message.en} {en}", f"{finding.message.zh}{zh}")
                if finding.brief is not None:
                    finding.brief = Text(f"{finding.brief.en} {en}", f"{finding.brief.zh}{zh}")


def adopt_remedies(ctx: CheckContext, findings: list[Finding]) -> None:
    """One remedy per cause: an error line's finding takes, in place, the remedy of the rule its leading cause names
    when that rule warned or erred with a remedy of its own.

    The signature's remedies are written for every node (``pip install torch --index-url .../cu126``); the rule's is
    computed from this node's values (the torch release, the variants PyTorch published for it, the driver, the
    image's tag), so the two would disagree and the rule's is the one a person can run here.
    """
    for hit in ctx.evidence.hits:
        signature = ctx.data.signature(hit.signature)
        if signature is None:
            continue
        lead = leading_cause(ctx, signature)
        named = list(lead.spec.get("rules") or []) if lead is not None else []
        judged = next((f for rule in named if rule not in SUMMARY_RULES for f in findings
                       if f.rule == rule and f.remedy is not None and f.area in ADOPTING_AREAS
                       and f.severity in (Severity.warning, Severity.error)), None)
        if judged is None:
            continue
        for finding in findings:
            if finding.rule == "evidence.error-lines" and finding.observed == hit.first.where() and finding.remedy:
                finding.remedy = Text(ADOPTED[0].format(remedy=judged.remedy.en, rule=judged.rule),
                                      ADOPTED[1].format(remedy=judged.remedy.zh, rule=judged.rule))
