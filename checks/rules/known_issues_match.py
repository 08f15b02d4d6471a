"""known-issues.match: known issues of this release whose condition matches the container."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.knowledge.conditions import APPLIES, DOES_NOT_APPLY, evaluate
from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import record_ref
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "known-issues.match"
AREA = "known-issues"
_SEVERITY = {"error": Severity.error, "warning": Severity.warning, "info": Severity.info}


def _issues(ctx: CheckContext) -> list[dict]:
    """The record's known issues plus every issue whose ``affects`` names this release or its family."""
    record = ctx.record or {}
    ref = ctx.release.ref or record_ref(record)
    family = record.get("family")
    wanted = [i for i in record.get("known_issues") or [] if isinstance(i, str)]
    out: dict[str, dict] = {}
    for issue_id in wanted:
        issue = ctx.data.known_issue(issue_id)
        if issue is not None:
            out[issue_id] = issue
    for issue in ctx.data.known_issues:
        affects = issue.get("affects") or {}
        if (ref and ref in (affects.get("releases") or [])) or (family and family in (affects.get("families") or [])):
            out.setdefault(issue.get("id"), issue)
    if ref:
        out = {k: v for k, v in out.items() if ref not in (v.get("fixed_in") or [])}
    return [out[k] for k in sorted(out)]


@rule(RULE, AREA, "Known issues of this release", "该发布的已知问题", order=250)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """The issue's severity when its condition matches; info "may apply" when it depends on facts not visible;
    one ok line when issues were checked and none applies."""
    if ctx.record is None:
        return
    issues = _issues(ctx)
    applied = 0
    for issue in issues:
        result = evaluate(issue.get("condition"), ctx.facts, served_model=ctx.options.served_model,
                          component=ctx.data.component)
        if result.state == DOES_NOT_APPLY:
            continue
        applied += 1
        title = issue.get("title") or {}
        workaround = issue.get("workaround") or {}
        links = [u.get("url") for u in issue.get("upstream") or [] if isinstance(u, dict)]
        anchor = ctx.data.known_issue_url(str(issue.get("id")), ctx.options.lang)
        if result.state == APPLIES:
            yield make(
                ctx, RULE, AREA, _SEVERITY.get(issue.get("severity"), Severity.warning),
                f"Known issue {issue.get('id')}: {title.get('en', '')} (matches: {'; '.join(result.matched)}).",
                f"已知问题 {issue.get('id')}：{title.get('zh', '')}（匹配条件：{'；'.join(result.zh_of(result.matched))}）。",
                remedy=(workaround.get("en", ""), workaround.get("zh", "")) if workaround else None,
                observed=Text("; ".join(t.en for t in result.found), "; ".join(t.zh for t in result.found)) if result.found else None,
                links=[url for url in [anchor, *links] if url],
            )
        else:
            yield make(
                ctx, RULE, AREA, Severity.info,
                f"Known issue {issue.get('id')} may apply: {title.get('en', '')} (cannot tell: {'; '.join(result.unknown)}"
                + (f"; matches: {'; '.join(result.matched)}" if result.matched else "") + ").",
                f"已知问题 {issue.get('id')} 可能适用：{title.get('zh', '')}（无法判断：{'；'.join(result.zh_of(result.unknown))}"
                + (f"；已匹配：{'；'.join(result.zh_of(result.matched))}" if result.matched else "") + "）。",
                remedy=(workaround.get("en", ""), workaround.get("zh", "")) if workaround else None,
                links=[url for url in [anchor, *links] if url],
            )
    if issues and not applied:
        yield make(ctx, RULE, AREA, Severity.ok, f"{len(issues)} known issue(s) checked; none applies here.",
                   f"已检查 {len(issues)} 个已知问题，均不适用于此环境。")
