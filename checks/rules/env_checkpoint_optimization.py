"""env.checkpoint-optimization: CHECKPOINT_OPTIMIZATION spelled as the image expects."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.carried import usage_note_for
from lingjun.checks.knowledge.record_view import mentions
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import UNSET, make
from lingjun.checks.rules._words import Words

RULE = "env.checkpoint-optimization"
AREA = "environment"
VAR = "CHECKPOINT_OPTIMIZATION"

WORDS = Words({
    "not-checked": ("{var} was not checked: {reason}.", "未检查 {var}：{reason}。"),
    "unset": (
        "{var} is unset; the release notes enable the image's recomputation memory optimisation with {var}=true.",
        "未设置 {var}；发布说明通过 {var}=true 启用镜像的重计算显存优化。",
    ),
    "unset-remedy": ("export {var}=true to enable it.", "如需开启，请执行 export {var}=true。"),
    "ok": ("{var}=true: the recomputation memory optimisation is on.", "{var}=true：重计算显存优化已开启。"),
    "other-spelling": (
        "{var}={value!r}: the image documents the value `true` (lower case) to enable the recomputation memory optimisation; "
        "other spellings may be ignored.",
        "{var}={value!r}：镜像文档中开启重计算显存优化的取值是小写的 `true`，其他写法可能不会生效。",
    ),
    "other-spelling-remedy": (
        "export {var}=true, the value the release notes give.",
        "请设置 export {var}=true（发布说明给出的取值）。",
    ),
})


@rule(RULE, AREA, "Recomputation memory optimisation switch", "重计算显存优化开关", order=230)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok for ``true``; warning for other spellings (``True``, ``1``, ``yes``...); info when unset on a release
    that documents the switch."""
    value = ctx.facts.env.get(VAR)
    documented = usage_note_for(ctx.data.releases, ctx.record, RULE)[0] is not None or mentions(ctx.record, VAR)
    if value is None and not env_known(ctx.facts, VAR):
        if documented:
            reason = unavailable_reason(ctx.facts, ["env"])
            yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-checked", var=VAR, reason=reason))
        return
    if value is None:
        if documented:
            yield make(ctx, RULE, AREA, Severity.info, WORDS("unset", var=VAR), remedy=WORDS("unset-remedy", var=VAR),
                       observed=UNSET, expected="true")
        return
    if value == "true":
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", var=VAR), observed=value, expected="true")
        return
    yield make(ctx, RULE, AREA, Severity.warning, WORDS("other-spelling", var=VAR, value=value),
               remedy=WORDS("other-spelling-remedy", var=VAR), observed=value, expected="true")
