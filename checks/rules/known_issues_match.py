"""known-issues.match: known issues of this release whose condition matches the container."""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.knowledge.carried import Carried, carried_known_issues
from lingjun.checks.knowledge.conditions import APPLIES, DOES_NOT_APPLY, evaluate
from lingjun.checks.context import CheckContext
from lingjun.checks.knowledge.identify import order_key
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import record_ref
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "known-issues.match"
AREA = "known-issues"
_SEVERITY = {"error": Severity.error, "warning": Severity.warning, "info": Severity.info}
NONE = Text("", "")

WORDS = Words({
    # an issue carried from earlier releases says which releases state it
    "from": (" ({provenance})", "（{provenance}）"),
    "applies": ("Known issue {id}{source}: {title} (matches: {matched}).", "已知问题 {id}{source}：{title}（匹配条件：{matched}）。"),
    "may-apply": ("Known issue {id}{source} may apply: {title} (cannot tell: {unknown}{matched}).",
                  "已知问题 {id}{source} 可能适用：{title}（无法判断：{unknown}{matched}）。"),
    "also-matches": ("; matches: {matched}", "；已匹配：{matched}"),
    "none-applies": ("{count} known issue(s) checked; none applies here.", "已检查 {count} 个已知问题，均不适用于此环境。"),
})


def _fixed_by(ctx: CheckContext, issue: dict, ref: str, family: object) -> bool:
    """Whether ``fixed_in`` names this release, or an earlier release of its family (by date: ``order_key``)."""
    fixed = [r for r in issue.get("fixed_in") or [] if isinstance(r, str)]
    if ref in fixed:
        return True
    here = order_key(ctx.record) if ctx.record is not None else (0, 0, 0)
    for fixed_ref in fixed:
        fixed_record = ctx.data.record(fixed_ref)
        if fixed_record is None or fixed_record.family != family:
            continue
        there = order_key(fixed_record)
        if here != (0, 0, 0) and there != (0, 0, 0) and here >= there:
            return True
    return False


def applies_to_release(ctx: CheckContext, issue: dict) -> bool:
    """Whether a known issue applies to the identified release.

    An issue applies when the release record lists it, or its ``affects.releases`` names the release; an issue
    that names no releases applies to the families in ``affects.families``.  An issue naming releases says
    nothing about the other releases of its family (``training-xpu-pytorch:25.05`` only is not 2026-10-20).  Not
    when ``fixed_in`` names this release or an earlier one of the same family.
    """
    record = ctx.record
    ref = ctx.release.ref or record_ref(record)
    family = record.family if record is not None else None
    affects = issue.get("affects") or {}
    listed = record is not None and issue.get("id") in record.known_issues
    releases = [r for r in affects.get("releases") or [] if isinstance(r, str)]
    if releases:
        named = bool(ref) and ref in releases
    else:
        named = bool(family) and family in (affects.get("families") or [])
    if not (listed or named):
        return False
    return not (ref and _fixed_by(ctx, issue, ref, family))


def _issues(ctx: CheckContext) -> list[tuple[dict, Optional[Carried]]]:
    """The known issues that apply to this release, by id: ``(issue, None)`` for those it states
    (:func:`applies_to_release`), ``(issue, carried)`` for those its family's earlier releases state and its record
    did not capture (:func:`lingjun.checks.knowledge.carried.carried_known_issues`)."""
    out: dict[str, tuple[dict, Optional[Carried]]] = {
        str(issue.get("id")): (issue, None) for issue in ctx.data.known_issues
        if isinstance(issue, dict) and issue.get("id") and applies_to_release(ctx, issue)}
    for carried in carried_known_issues(ctx.data.releases, ctx.data.known_issues, ctx.record_dict):
        out.setdefault(carried.key(), (carried.item, carried))
    return [out[k] for k in sorted(out)]


def _listed(result, clauses: list) -> Text:
    """Condition clauses listed: ``"; "`` between English ones, ``"；"`` between Chinese ones."""
    return Text("; ".join(clauses), "；".join(result.zh_of(clauses)))


def _finding(ctx: CheckContext, issue: dict, carried: Optional[Carried], result) -> Finding:
    """The finding for an issue whose condition applies (the issue's severity) or may apply (info)."""
    title = issue.get("title") or {}
    workaround = issue.get("workaround") or {}
    remedy = (workaround.get("en", ""), workaround.get("zh", "")) if workaround else None
    links = [u.get("url") for u in issue.get("upstream") or [] if isinstance(u, dict)]
    links = [url for url in [ctx.data.known_issue_url(str(issue.get("id")), ctx.options.lang), *links] if url]
    common = dict(id=issue.get("id"), title=Text(title.get("en", ""), title.get("zh", "")),
                  source=WORDS("from", provenance=Text(carried.provenance_en, carried.provenance_zh)) if carried else NONE)
    if result.state == APPLIES:
        observed = Text("; ".join(t.en for t in result.found), "; ".join(t.zh for t in result.found)) if result.found else None
        return make(ctx, RULE, AREA, _SEVERITY.get(issue.get("severity"), Severity.warning),
                    WORDS("applies", matched=_listed(result, result.matched), **common),
                    remedy=remedy, observed=observed, links=links)
    matched = WORDS("also-matches", matched=_listed(result, result.matched)) if result.matched else NONE
    return make(ctx, RULE, AREA, Severity.info,
                WORDS("may-apply", unknown=_listed(result, result.unknown), matched=matched, **common),
                remedy=remedy, links=links)


@rule(RULE, AREA, "Known issues of this release", "该发布的已知问题", order=250)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """The issue's severity when its condition matches; info "may apply" when it depends on facts not visible;
    one ok line when issues were checked and none applies."""
    if ctx.record is None:
        return
    issues = _issues(ctx)
    applied = 0
    for issue, carried in issues:
        result = evaluate(issue.get("condition"), ctx.facts, served_model=ctx.options.served_model,
                          component=ctx.data.catalog_entry)
        if result.state != DOES_NOT_APPLY:
            applied += 1
            yield _finding(ctx, issue, carried, result)
    if issues and not applied:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("none-applies", count=len(issues)))
