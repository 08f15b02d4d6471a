"""The causes of a matched error signature, ranked by what the input shows: the one decision the report's
``evidence.error-lines`` finding, the confirmation of warnings (:mod:`lingjun.checks.confirm`) and
``cuda.available``'s causes share.

Each cause's condition (:mod:`lingjun.checks.knowledge.conditions`) makes it *applies*, *may apply* or
*ruled out*; causes that apply come first, then those that may apply, then those ruled out, each group in
the record's order (the record lists them most likely first).  Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from lingjun.checks.knowledge.conditions import APPLIES, DOES_NOT_APPLY, MAY_APPLY, ConditionResult, evaluate

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.checks.context import CheckContext

__all__ = ["RankedCause", "rank_causes", "leading_cause", "line_severity"]


@dataclass
class RankedCause:
    """A cause of a signature (its bundle dict) with the result of its condition here."""

    spec: dict
    result: ConditionResult

    @property
    def standing(self) -> bool:
        """True unless the facts rule the cause out."""
        return self.result.state != DOES_NOT_APPLY


def rank_causes(ctx: "CheckContext", signature: dict) -> list[RankedCause]:
    """The signature's causes with their condition results, ranked (see the module docstring)."""
    out = []
    for cause in signature.get("causes") or []:
        if cause.get("condition"):
            result = evaluate(cause["condition"], ctx.facts, served_model=ctx.options.served_model,
                              component=ctx.data.catalog_entry, evidence=ctx.evidence, data=ctx.data)
        else:
            result = ConditionResult(MAY_APPLY)
        out.append(RankedCause(cause, result))
    order = {APPLIES: 0, MAY_APPLY: 1, DOES_NOT_APPLY: 2}
    return sorted(out, key=lambda c: order[c.result.state])  # stable: the record's order within a state


def leading_cause(ctx: "CheckContext", signature: dict) -> Optional[RankedCause]:
    """The most likely cause still standing, or None when the facts rule out every one."""
    return next((c for c in rank_causes(ctx, signature) if c.standing), None)


def line_severity(signature: dict, lead: Optional[RankedCause]) -> str:
    """How serious a matched line is: the signature's ``severity`` (``error`` unless the record says the line is
    also printed when nothing is wrong), or that of the leading cause when it applies and the record gives it one
    (``info``: nothing to fix)."""
    if lead is not None and lead.result.state == APPLIES and lead.spec.get("severity"):
        return str(lead.spec["severity"])
    return str(signature.get("severity") or "error")
