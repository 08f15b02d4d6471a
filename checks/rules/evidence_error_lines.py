"""evidence.error-lines: each error line the user's logs show, with its most likely cause here and the fix.

The lines come from ``--log FILE``, a snapshot's ``symptoms.errors`` and the warnings inside a collect_env
paste, matched against the error signatures of the bundle (``releases/troubleshooting/``).  A matched line
is an observed failure, so the finding is an error.  Each signature lists its causes, most likely first,
each with a condition over facts; the condition makes a cause *applies* (every clause holds), *may apply*
(some clause is not shown by the input) or *ruled out* (a clause fails).  The finding names the first
cause that applies, else the first that may apply, saying which value is not shown; causes that are ruled
out are named as such.  The remedies are those of the place the input shows (Docker, Kubernetes, an ACS GPU
pod; :func:`lingjun.checks.knowledge.fact_values.place`), all three when it cannot tell, and the ones for
inside the image.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.remedy_template import fill, placeholders
from lingjun.checks.evidence import Evidence, LogLine, NotJudged, SignatureHit
from lingjun.checks.knowledge.conditions import APPLIES, DOES_NOT_APPLY, MAY_APPLY
from lingjun.checks.knowledge.signature_causes import RankedCause, line_severity, rank_causes
from lingjun.checks.knowledge.fact_values import place
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._remedy_values import remedy_values
from lingjun.checks.rules._words import Words

RULE = "evidence.error-lines"
AREA = "evidence"

#: the rule's words, both languages, by the part of the finding they make
WORDS = Words({
    "shows": ("{where} shows: \u00ab{line}\u00bb", "{where} 显示：\u00ab{line}\u00bb"),
    "more": (" ({count} such lines)", "（共 {count} 行）"),
    "likely": ("Most likely cause here: {cause}", "此处最可能的原因：{cause}"),
    "likely-facts": ("Most likely cause here: {cause} ({facts})", "此处最可能的原因：{cause}（{facts}）"),
    "not-shown": ("; the input does not show {what}, so this is not confirmed", "；输入中看不到{what}，因此尚未确认"),
    "other": ("Other possible causes: {causes}", "其他可能的原因：{causes}"),
    "ruled-out": ("Ruled out by what the input shows: {causes}", "根据输入已排除：{causes}"),
    "none-fits": ("None of the recorded causes fits what the input shows ({causes}); the line itself still shows the failure",
                  "已记录的原因都与输入不符（{causes}）；但该行本身表明任务已失败"),
    "unknown-line": ("{where} shows an error line no recorded signature matches{more}: \u00ab{line}\u00bb. The job failed "
                     "there, but lingjun-check has no knowledge of this line and cannot name its cause.",
                     "{where} 显示了一条没有已记录特征能匹配的错误行{more}：\u00ab{line}\u00bb。任务在此失败，但 lingjun-check "
                     "对这一行没有任何了解，无法判断原因。"),
    "error-level": ("{where} shows an error-level line that no recorded signature or catalog knows{more}: \u00ab{line}\u00bb. "
                    "It is the first such line of the logs: the job may have failed there or after it, but lingjun-check "
                    "cannot name the cause from this line.",
                    "{where} 显示了一条没有已记录特征或错误目录能识别的错误级别行{more}：\u00ab{line}\u00bb。这是日志中第一条这样的行："
                    "任务可能在此处或之后失败，但 lingjun-check 无法仅凭这一行判断原因。"),
    "error-level-also": ("Before the error lines above, {where} shows an error-level line nothing here names{more}; the "
                         "failure may have begun there: \u00ab{line}\u00bb",
                         "在上述错误行之前，{where} 显示了一条此处无法识别的错误级别行{more}；故障可能从那里开始：\u00ab{line}\u00bb"),
    "level-more": (" ({count} in all)", "（共 {count} 行）"),
    "summary-causes": ("Its usual causes, none of which this input shows: {causes}",
                       "其常见原因如下，本输入均未显示：{causes}"),
    "summary": ("This line sums up a failure the log's other error lines show in detail: start with those, "
                "listed above",
                "该行概括了日志中其他错误行详细给出的故障：请先处理上面列出的那些行"),
    "no-lines": ("No known error line: the logs show none of the {count} error lines of the signatures, no Xid, no "
                 "CUDA or NVML error and no NCCL warning ({sources}). This does not say the job is healthy: a failure "
                 "worded otherwise is not recognised here.",
                 "没有已知错误行：日志中没有 {count} 种错误特征中的任何一行，也没有 Xid、CUDA 或 NVML 错误及 NCCL 警告（{sources}）。"
                 "这并不表示作业正常：以其他措辞出现的故障在此无法识别。"),
    "not-judged-line": ("{where} holds «{literal}», but the pattern of the signature {signature} ran past its time limit "
                        "on it{more}, so the line was not judged: it may be that error: «{line}»",
                        "{where} 含有«{literal}»，但错误特征 {signature} 的模式在该行上超出了时间限制{more}，因此未判断该行：它可能就是该错误：«{line}»"),
    "not-judged-input": ("{where} and later lines holding «{literal}»{more} were not judged by the signature {signature}: "
                         "the patterns had used the {seconds} s this input allows them, so these lines may be that error: «{line}»",
                         "{where} 及之后含有«{literal}»的行{more}未按错误特征 {signature} 判断：模式已用完本输入允许的 {seconds} 秒，"
                         "因此这些行可能就是该错误：«{line}»"),
    "place-docker": ("Docker", "Docker"),
    "place-kubernetes": ("Kubernetes", "Kubernetes"),
    "place-acs": ("ACS GPU pod", "ACS GPU Pod"),
    "place-image": ("In the container", "容器内"),
    "no-log": ("No log was given (--log FILE) and the input quotes no error line.", "未提供日志（--log FILE），输入中也没有引用错误行。"),
})

_PLACES = ("docker", "kubernetes", "acs")


def _cat(*texts: Text) -> Text:
    """Texts run together in each language."""
    return Text("".join(t.en for t in texts), "".join(t.zh for t in texts))


def _sentence(text: Text) -> Text:
    """A clause ended with each language's full stop."""
    return Text(text.en + ".", text.zh + "。")


def _listed(items: "list[Text]") -> Text:
    """Causes listed with ``"; "`` in English and ``"；"`` in Chinese."""
    return Text("; ".join(t.en for t in items), "；".join(t.zh for t in items))


def _title(cause: RankedCause, lang: str) -> str:
    return str(cause.spec["title"][lang])


def places_for(ctx: CheckContext) -> list[str]:
    """Where the remedies are for: the place the input shows, with an ACS GPU pod beside Kubernetes (a pod's
    environment or log does not tell an ACS pod from another), every place when the input cannot tell."""
    where = place(ctx.facts, ctx.evidence)
    if not where.known:
        return list(_PLACES)
    return ["kubernetes", "acs"] if where.value == "kubernetes" else [where.value]


def _remedy(ctx: CheckContext, cause: dict) -> Optional[tuple[str, str]]:
    """The cause's remedies for the place the input shows (every place when it cannot tell), then inside the image."""
    remedies = cause.get("remedies") or {}
    places = [p for p in places_for(ctx) if remedies.get(p)]
    if not places and place(ctx.facts, ctx.evidence).value == "acs" and remedies.get("kubernetes"):
        places = ["kubernetes"]  # an ACS pod is a Kubernetes pod
    keys = places + (["image"] if remedies.get("image") else [])
    if not keys:
        return None
    # the numbers a remedy quotes from this input ({{driver.target|...}}), or the words it says without them
    names = [name for key in keys for lang in ("en", "zh") for name, _ in placeholders(remedies[key][lang])]
    values_en, values_zh = remedy_values(ctx, names) if names else ({}, {})
    parts_en, parts_zh = [], []
    for key in keys:
        label = WORDS[f"place-{key}"]
        parts_en.append(f"{label[0]}: {fill(remedies[key]['en'], values_en)}")
        parts_zh.append(f"{label[1]}：{fill(remedies[key]['zh'], values_zh)}")
    return " ".join(parts_en), "".join(parts_zh)


def clause_subject(clause: str) -> Text:
    """What a condition's clause is about (:attr:`~lingjun.checks.knowledge.conditions.Clause.subject`); a plain string
    (a hand-made result) is its own subject."""
    subject = getattr(clause, "subject", None)
    return subject if isinstance(subject, Text) else Text(str(clause), str(clause))


def _cause_title(cause: RankedCause) -> Text:
    return Text(_title(cause, "en"), _title(cause, "zh"))


def _failed(cause: RankedCause, template: "tuple[str, str]") -> Text:
    """A ruled-out cause with the clauses that failed: ``template`` takes ``title`` and ``failed``."""
    return Text(template[0].format(title=_title(cause, "en"), failed=", ".join(cause.result.failed)),
                template[1].format(title=_title(cause, "zh"), failed="，".join(cause.result.zh_of(cause.result.failed))))


def _likely(lead: RankedCause) -> Text:
    """"Most likely cause here: X (the facts that make it apply); the input does not show Y, so this is not confirmed"."""
    result = lead.result
    found = _listed(list(dict.fromkeys(result.found)))  # two clauses met by one fact are said once
    likely = (WORDS("likely-facts", cause=_cause_title(lead), facts=found) if found.en
              else WORDS("likely", cause=_cause_title(lead)))
    if result.state == MAY_APPLY and result.unknown and lead.spec.get("condition"):
        # one name per fact: two clauses on one fact (a version range) are one thing the input does not show
        subjects = list(dict.fromkeys(clause_subject(u) for u in result.unknown))
        what = Text(", ".join(t.en for t in subjects), "、".join(t.zh for t in subjects))
        likely = _cat(likely, WORDS("not-shown", what=what))
    return likely


def _cause_parts(standing: "list[RankedCause]", ruled_out: "list[RankedCause]") -> "list[Text]":
    """The sentences about the causes: the leading one, the other possible ones, those ruled out; or, with none
    standing, that none fits."""
    if not standing:
        return [_sentence(WORDS("none-fits", causes=_listed([_failed(c, ("{title}: {failed}", "{title}：{failed}"))
                                                             for c in ruled_out])))]
    parts = [_sentence(_likely(standing[0]))]
    if standing[1:]:
        parts.append(_sentence(WORDS("other", causes=_listed([_cause_title(c) for c in standing[1:]]))))
    if ruled_out:
        parts.append(_sentence(WORDS("ruled-out", causes=_listed([_failed(c, ("{title} ({failed})", "{title}（{failed}）"))
                                                                 for c in ruled_out]))))
    return parts


def _decided(ctx: CheckContext, signature: dict, after_others: bool) -> tuple:
    """``(causes, standing, ruled out, lead or None, unsupported)`` of a matched signature, the one decision the finding
    and :func:`diagnoses` share. A summary below the error lines it sums up (``after_others``) leads with a cause the
    input shows or one that needs no fact; when every standing cause needs facts the input does not show
    (``unsupported``) the lines above decide, and its usual causes are listed without a lead or a remedy."""
    causes = rank_causes(ctx, signature)
    standing = [c for c in causes if c.result.state != DOES_NOT_APPLY]
    ruled_out = [c for c in causes if c.result.state == DOES_NOT_APPLY]
    if not after_others:
        return causes, standing, ruled_out, (standing[0] if standing else None), False
    # below the lines it sums up, a cause that needs facts the input does not show (/dev/shm's size, the memlock
    # limit) is not put first: one the input shows, or one that needs no fact (the compiler error above), leads
    supported = [c for c in standing if c.result.state == APPLIES or not c.spec.get("condition")]
    if supported:
        standing = supported + [c for c in standing if c not in supported]
        return causes, standing, ruled_out, standing[0], False
    return causes, standing, ruled_out, None, True


def _after_others(ctx: CheckContext) -> bool:
    """Whether the logs show an error line a summary signature sums up: a matched signature that is not a summary, or
    a line an error catalog names."""
    hits = [h for h in ctx.evidence.hits if ctx.data.signature(h.signature) is not None]
    return any(not ctx.data.signature(h.signature).get("summary") for h in hits) or any(
        not h.covered for h in ctx.evidence.catalog_hits)


def _finding(ctx: CheckContext, hit: SignatureHit, signature: dict, after_others: bool = False) -> Finding:
    """The finding of one matched line; ``after_others``: a summary line (``summary: true``) listed after the other
    error lines of the log, which it then points to."""
    causes, standing, ruled_out, lead, unsupported = _decided(ctx, signature, after_others)
    shows = WORDS("shows", where=hit.first.where(), line=hit.first.text)
    cause_parts = ([_sentence(WORDS("summary-causes", causes=_listed([_cause_title(c) for c in standing])))]
                   if unsupported and standing else _cause_parts(standing, ruled_out))
    parts = [_sentence(_cat(shows, WORDS("more", count=hit.count) if hit.count > 1 else Text("", ""))),
             Text(f"{signature['title']['en']}. {signature['explanation']['en']}",
                  f"{signature['title']['zh']}。{signature['explanation']['zh']}"),
             *([_sentence(WORDS("summary"))] if after_others else []),
             *cause_parts]
    remedy_spec = (None if unsupported else lead.spec if lead is not None else (causes[0].spec if causes else None))
    links = [ctx.data.signature_url(signature["id"], signature.get("printed_by", ""), ctx.options.lang)]
    # documents first (NVIDIA's, PyTorch's, Kubernetes'), then the issue threads the lines come from
    sources = [s.get("url") for s in signature.get("sources") or [] if s.get("url")]
    links += sorted(sources, key=lambda url: "github.com/" in url)
    en, zh = [p.en for p in parts], [p.zh for p in parts]
    return make(ctx, RULE, AREA, Severity(line_severity(signature, lead)), " ".join(en), "".join(zh),
                remedy=_remedy(ctx, remedy_spec) if remedy_spec is not None else None,
                observed=hit.first.where(), links=links,
                brief=(en[0] + " " + en[1].split(". ")[0] + ". " + en[2], zh[0] + zh[1].split("。")[0] + "。" + zh[2]))


def _line_key(line: "LogLine") -> tuple:
    """The line's input and number, or its text for an entry of a list of error lines (which has no number)."""
    return (line.source, line.number) if line.number is not None else (line.source, line.text)


@rule(RULE, AREA, "Error lines in the logs, with their likely cause", "日志中的错误行及其可能原因", order=5)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error per matched signature (an observed failure; the record may say warning or, for a cause that applies,
    info), most likely cause first; error per error line no signature matches (the last exception of a traceback,
    an abort, a quoted ``symptoms.errors`` line: an observed failure whose cause is not known), a warning beside a
    known error line (it may be that one's consequence); warning for the first
    error-level line nothing names; ok when logs were read and show no known error line; skipped when
    no log or error line was given."""
    evidence = ctx.evidence
    if not evidence.read_logs:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-log"))
        return
    hits = [h for h in evidence.hits if ctx.data.signature(h.signature) is not None]
    summaries = [h for h in hits if ctx.data.signature(h.signature).get("summary")]
    for hit in hits:
        if hit not in summaries:
            yield _finding(ctx, hit, ctx.data.signature(hit.signature))
    named = []
    if evidence.catalog_hits:
        from lingjun.checks.rules._catalog_findings import catalog_findings  # deferred: only a log naming a catalog entry needs it

        named = catalog_findings(ctx, RULE, AREA)
    yield from named
    others = _after_others(ctx)  # what failed first, in the log's own words (the one test diagnoses() makes too)
    for hit in summaries:
        yield _finding(ctx, hit, ctx.data.signature(hit.signature), after_others=others)
    named_lines = {_line_key(h.first) for h in evidence.catalog_hits}
    unmatched = [line for line in evidence.unmatched if _line_key(line) not in named_lines]
    # one finding per distinct line (30 copies of one error in symptoms.errors are one error, counted)
    copies: dict[str, list] = {}
    for line in unmatched:
        copies.setdefault(line.text, []).append(line)
    for text, lines in copies.items():
        more = WORDS("more", count=len(lines)) if len(lines) > 1 else Text("", "")
        # the process ended in this line (an exception, an abort): an observed failure, its cause unknown, the error
        # of the report; beside a known error line it may be that one's consequence, a warning
        yield make(ctx, RULE, AREA, Severity.warning if others else Severity.error,
                   WORDS("unknown-line", where=lines[0].where(), line=text, more=more), observed=lines[0].where())
    level = _error_level_line(evidence, named_lines | {_line_key(line) for line in unmatched}
                              | {_line_key(h.first) for h in hits})
    known = [h.first for h in hits if h not in summaries] + [h.first for h in evidence.catalog_hits]
    if level is not None and (not known or _before_all(level, known)):
        yield _error_level(ctx, level, evidence.error_level_count, known=bool(known), failure=_failure_kind(evidence, level))
    for skipped in evidence.not_judged:
        yield _not_judged(ctx, skipped)
    if not hits and not unmatched and not named and not evidence.not_judged and level is None:
        yield make(ctx, RULE, AREA, Severity.ok,
                   WORDS("no-lines", count=len(ctx.data.signatures),
                         sources=Text(", ".join(evidence.sources), "、".join(evidence.sources))))


def _error_level_line(evidence: "Evidence", quoted: set) -> Optional[LogLine]:
    """The first error-level line (``evidence.error_level``) that no other finding quotes, or None."""
    return next((line for line in evidence.error_level if _line_key(line) not in quoted), None)


#: kubectl describe's ``Reason:`` line this close above a known line is that report's own header (its ``Message:``
#: follows), not an earlier failure
_ADJACENT = 3


def _before_all(line: LogLine, known: list[LogLine]) -> bool:
    """True when ``line`` comes before every known error line, in the same input: it may be their cause (a line after
    them is most often a consequence, and is not reported); a ``Reason:`` line within :data:`_ADJACENT` lines above
    one is its header."""
    header = line.text.lstrip().startswith("Reason:")
    return all(k.source == line.source and k.number is not None and line.number is not None
               and line.number < k.number - (_ADJACENT if header else 0) for k in known)


def _failure_kind(evidence: "Evidence", line: LogLine) -> bool:
    """Whether ``line`` (one of ``evidence.error_level``) states that a step failed (a compiler, the loader, a shell,
    Docker, Kubernetes: :data:`~lingjun.checks.knowledge.error_level.FAILURE_KINDS`), not a level a program logged at."""
    from lingjun.checks.knowledge.error_level import FAILURE_KINDS  # deferred: only a log with such a line needs it

    kinds = evidence.error_level_kinds
    at = next((i for i, kept in enumerate(evidence.error_level) if kept is line), None)
    return at is not None and at < len(kinds) and kinds[at] in FAILURE_KINDS


def _error_level(ctx: CheckContext, line: LogLine, count: int, known: bool, failure: bool = False) -> Finding:
    """The first error-level line nothing names (an observed failure, its cause unknown): an error when the line states
    a failed step (``failure``: a build, the loader, a shell, Docker, Kubernetes), else a warning (a level a run may
    survive); or, when signatures or catalogs named later error lines (``known``), an info line after them: it may be
    where it began."""
    more = WORDS("level-more", count=count) if count > 1 else Text("", "")
    if known:
        return make(ctx, RULE, AREA, Severity.info, WORDS("error-level-also", where=line.where(), line=line.text, more=more),
                    observed=line.where())
    return make(ctx, RULE, AREA, Severity.error if failure else Severity.warning,
                WORDS("error-level", where=line.where(), line=line.text, more=more), observed=line.where())


def _not_judged(ctx: CheckContext, skipped: "NotJudged") -> Finding:
    """A warning: lines a signature's expression could not judge in time may be its error (never "no known error")."""
    from lingjun.checks.knowledge.signatures import INPUT_BUDGET_S  # deferred: only a log that ran out of time needs it

    more = WORDS("more", count=skipped.count) if skipped.count > 1 else Text("", "")
    key = "not-judged-input" if skipped.why == "input" else "not-judged-line"
    return make(ctx, RULE, AREA, Severity.warning,
                WORDS(key, where=skipped.first.where(), literal=skipped.literal, signature=skipped.signature, more=more,
                      line=skipped.first.text, seconds=f"{INPUT_BUDGET_S:g}"),
                observed=skipped.first.where())


def diagnoses(ctx: CheckContext) -> dict[str, dict[str, Any]]:
    """For each matched signature, what the finding decided, for tools (the JSON report's ``evidence.matches``):
    ``{"severity", "cause" (the leading cause id, or None), "ruled_out": [cause ids], "places": [...]}``."""
    out: dict[str, dict[str, Any]] = {}
    for hit in ctx.evidence.hits:
        signature = ctx.data.signature(hit.signature)
        if signature is None:
            continue
        after = bool(signature.get("summary")) and _after_others(ctx)
        causes, _standing, ruled_out, lead, _unsupported = _decided(ctx, signature, after)
        out[hit.signature] = {"severity": line_severity(signature, lead), "cause": lead.spec["id"] if lead else None,
                              "ruled_out": [c.spec["id"] for c in ruled_out], "places": places_for(ctx)}
    return out
