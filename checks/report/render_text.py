"""The human-readable report: a header naming the release and how it was identified, then one line per finding grouped by area.

Each finding line is ``LABEL  rule.id  message [observed X, expected Y]``;
errors and warnings add an indented remedy line and their first link.
Colour (ANSI) is used only when asked (the CLI enables it when stdout is a
terminal, unless ``--no-color`` or ``NO_COLOR``).  Texts are English or
Chinese (``lang``).
"""

from __future__ import annotations

from typing import Optional

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.core.inert_text import inert
from lingjun.checks.core.terminal_text import display_width, hanging_wrap, ljust
from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.record_view import variant_of
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.model import AREA_TITLES, SEVERITY_LABELS, counts, grouped

__all__ = ["render_text", "release_line", "shown"]

_COLOURS = {
    Severity.error: "\033[1;31m",
    Severity.warning: "\033[33m",
    Severity.info: "\033[36m",
    Severity.ok: "\033[32m",
    Severity.skipped: "\033[2m",
}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"
#: the fewest columns a message keeps beside the rule id before it moves under it
_MIN_MESSAGE = 40


def shown(text: str) -> str:
    """``text`` made inert for the terminal: control and bidi characters escaped, shortened past
    :data:`~lingjun.checks.core.inert_text.ECHO_LIMIT` characters (see :func:`~lingjun.checks.core.inert_text.inert`)."""
    return inert(text)


_HOW = {
    "option": Text("chosen with --release", "由 --release 指定"),
    "env": Text("from LINGJUN_RELEASE", "来自 LINGJUN_RELEASE"),
    "manifest": Text("from /etc/lingjun/release.json", "来自 /etc/lingjun/release.json"),
    "fingerprint": Text("identified from installed packages", "根据已安装软件包识别"),
}


def release_line(release: ReleaseMatch, lang: str) -> str:
    """One line saying which release applies and how it was identified (control characters escaped)."""
    return shown(_release_line(release, lang))


def _release_line(release: ReleaseMatch, lang: str) -> str:
    zh = lang == "zh"
    if release.ref and release.record is not None:
        how = _HOW.get(release.how, Text(release.how, release.how)).get(lang)
        score = f", {'匹配度' if zh else 'score'} {release.score:.2f}" if release.score is not None else ""
        return f"{'发布版本' if zh else 'Release'}: {release.image_ref}{_title(release, lang)} ({how}{score}){_image_part(release, zh)}"
    if release.ref:
        how = _HOW.get(release.how, Text(release.how, release.how)).get(lang)
        if release.unrecorded is not None:  # named by an official page, nothing recorded about it
            return f"{'发布版本' if zh else 'Release'}: {release.ref} ({how}) — " + (
                "已发布，尚未收录" if zh else "published, not yet recorded")
        return f"{'发布版本' if zh else 'Release'}: {release.ref} ({how}) — " + (
            "知识库中没有此发布版本的记录" if zh else "no record of this release in the data"
        )
    text = "没有适用的发布版本记录；仅运行环境检查" if zh else "no release record applies; environment checks only"
    if release.candidates:
        best = release.candidates[0]
        text += f" ({'最接近' if zh else 'closest'}: {best[0]}, {'匹配度' if zh else 'score'} {best[1]:.2f})"
    return f"{'发布版本' if zh else 'Release'}: {text}"


def _title(release: ReleaseMatch, lang: str) -> str:
    """``, vLLM image``: the identified variant's title in ``lang``, or empty."""
    variant = variant_of(release.record, release.variant)
    text = (variant.title or {}).get(lang) if variant is not None else None
    return f"{'，' if lang == 'zh' else ', '}{text}" if text else ""


def _image_part(release: ReleaseMatch, zh: bool) -> str:
    """``; variant unknown: vllm or sglang`` / ``; runtime llama-factory-ppu (/opt/runtimes/...)``, or empty."""
    part = ""
    if release.variant_unknown:
        names = (" 或 " if zh else " or ").join(release.variant_candidates)
        part += f"；镜像变体未知：{names}" if zh else f"; variant unknown: {names}"
    if release.runtime:
        runtime = release.runtime
        where = f" ({runtime['path']})" if runtime.get("path") else ""
        part += f"；运行时 {runtime.get('id')}{where}" if zh else f"; runtime {runtime.get('id')}{where}"
    return part


def _same_skips(items: list[Finding], lang: str) -> list[tuple[Finding, list[str]]]:
    """``(finding, [rule ids of the next findings it stands for])``: consecutive skipped findings with the same
    message and no observed or expected value (seven GPU rules "No NVIDIA driver in this container.") become one,
    the first, with the other rules' ids; every other finding stands for itself.  Text only: the JSON report
    keeps one finding per rule."""
    out: list[tuple[Finding, list[str]]] = []
    for finding in items:
        plain = finding.severity is Severity.skipped and finding.observed is None and finding.expected is None
        if out and plain:
            first, also = out[-1]
            if (first.severity is Severity.skipped and first.observed is None and first.expected is None
                    and first.message.get(lang) == finding.message.get(lang)):
                also.append(finding.rule)
                continue
        out.append((finding, []))
    return out


def render_text(
    findings: list[Finding],
    release: ReleaseMatch,
    lang: str = "en",
    color: bool = False,
    version: str = "",
    origin: str = "live",
    exit_status: Optional[int] = None,
    coverage: Optional[Text] = None,
    evidence: Optional[Evidence] = None,
    width: Optional[int] = None,
) -> str:
    """The full text report, ending with a newline.

    ``width``: the terminal's width in display columns (:func:`lingjun.checks.core.terminal_text.terminal_width`);
    every line is wrapped to it, a finding's continuation lines under its message (on a terminal too narrow for
    the message beside the rule id, the message goes under the id).  None: one line per finding, unwrapped.
    Columns are padded by display width, so they align after Chinese text.

    ``coverage`` is the header line naming what the input does not show
    (:func:`lingjun.checks.coverage.summary`), None for a complete live run;
    ``evidence`` adds the header line naming the logs read (:func:`evidence_line`).
    With ``origin`` ``"log"`` (a log read alone) the skipped findings are not listed, one line counts them (the
    summary still does); the JSON report keeps each.
    """
    # a log read alone: the rules of the machine it ran on are all skipped; one line says so instead of thirty
    fold = origin == "log"
    folded = [f for f in findings if f.severity is Severity.skipped] if fold else []
    # the columns fit the findings listed (a folded rule's long id does not push the messages right)
    layout = _Layout([f for f in findings if f.severity is not Severity.skipped] if fold else findings, lang, color, width)
    lines = _header(layout, release, version, origin, coverage, evidence)
    for area, items in grouped(findings):
        if fold:
            items = [f for f in items if f.severity is not Severity.skipped]
            if not items:
                continue
        lines.append(layout.paint(_BOLD, AREA_TITLES.get(area, Text(area, area)).get(lang)))
        for finding, also in _same_skips(items, lang):
            lines.extend(_skips_line(layout, finding, also) if also else _finding_lines(layout, finding))
        lines.append("")
    if folded:
        lines.extend(layout.fit(_FOLDED.get(lang).format(count=len(folded))))
        lines.append("")
    lines.extend(layout.paint(_BOLD, part) for part in layout.fit(_summary(findings, lang, exit_status)))
    return "\n".join(lines) + "\n"


class _Layout:
    """The columns of one report: language, colour, terminal width and where a finding's parts start."""

    def __init__(self, findings: list[Finding], lang: str, color: bool, width: Optional[int]) -> None:
        self.lang, self.zh, self.color, self.width = lang, lang == "zh", color, width
        # columns are measured in display columns: a Chinese label or count takes two per character
        self.label_width = max(display_width(label.get(lang)) for label in SEVERITY_LABELS.values())
        self.rule_width = max((display_width(f.rule) for f in findings), default=0)
        column = 2 + self.label_width + 2 + self.rule_width + 2  # where a finding's message starts
        # a narrow terminal: the message goes under the rule id, indented past the label, instead of beside it
        self.stacked = bool(width) and width - column < _MIN_MESSAGE
        self.indent = 2 + self.label_width + 2 if self.stacked else column

    def paint(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text

    def fit(self, text: str, indent: int = 2) -> list[str]:
        """A header or summary line, wrapped to ``width`` with its continuation lines indented."""
        return hanging_wrap("", text, self.width, indent) if self.width else [text]

    def finding_lines(self, finding: Finding, rule_text: str, body: str) -> list[str]:
        """A finding's label, rule id and message, wrapped under the message (or under the id, stacked)."""
        width, indent = self.width, self.indent
        label = self.paint(_COLOURS[finding.severity], ljust(SEVERITY_LABELS[finding.severity].get(self.lang), self.label_width))
        if not width:
            return [f"  {label}  {ljust(rule_text, self.rule_width)}  {body}"]
        if self.stacked:
            return [*hanging_wrap(f"  {label}  ", rule_text, width, indent), *hanging_wrap(" " * indent, body, width, indent)]
        return hanging_wrap(f"  {label}  {ljust(rule_text, self.rule_width)}  ", body, width, indent)


def _header(layout: _Layout, release: ReleaseMatch, version: str, origin: str, coverage: Optional[Text],
            evidence: Optional[Evidence]) -> list[str]:
    """The title (version, where the facts came from), the release line, coverage and logs lines, a blank line."""
    zh, lang = layout.zh, layout.lang
    origin_text = {"live": "live" if not zh else "本机", "snapshot": "snapshot" if not zh else "快照", "collect_env": "collect_env", "log": "the log alone" if not zh else "仅凭日志"}.get(origin, origin)
    if origin == "log" and not release.ref:  # a log read alone: the release is not known, not absent
        release_text = "发布版本：日志中未写明（用 --release 指定）" if zh else "Release: not named by the log (--release names it)"
    else:
        release_text = release_line(release, lang)
    lines = [layout.paint(_BOLD, f"lingjun-check {version}".rstrip()) + f"  ({'数据来源' if zh else 'facts'}: {origin_text})",
             *layout.fit(release_text)]
    if coverage is not None:
        lines.extend(layout.fit(coverage.get(lang)))
    logs = evidence_line(evidence)
    if logs is not None:
        lines.extend(layout.fit(inert(logs.get(lang))))
    lines.append("")
    return lines


#: the line standing for the skipped rules of a log read alone (:func:`render_text`)
_FOLDED = Text(
    "Not judged from the log alone: {count} checks of the machine (driver, CUDA, libraries, packages, environment, "
    "RDMA). Run lingjun-check in the container, or on its snapshot (--from FILE), to judge them; --format json "
    "lists each with its reason.",
    "仅凭日志无法判断的 {count} 项机器检查（驱动、CUDA、库、软件包、环境变量、RDMA）未列出。要判断它们，请在容器内运行 "
    "lingjun-check，或对其快照运行（--from FILE）；--format json 会逐项列出并给出原因。",
)


def _skips_line(layout: _Layout, finding: Finding, also: list[str]) -> list[str]:
    """Several rules of the area skipped for one reason: one line naming them all."""
    rules = [finding.rule, *also]
    count = f"（{len(rules)} 条规则）" if layout.zh else f"({len(rules)} rules)"
    message = finding.message.get(layout.lang)
    return layout.finding_lines(finding, shown(count), f"{shown(message)} [{shown(', '.join(rules))}]")


def _finding_lines(layout: _Layout, finding: Finding) -> list[str]:
    """One finding: its message with what was observed and expected, then (errors, warnings) remedy and link."""
    zh, lang = layout.zh, layout.lang
    detail = []
    observed, expected = finding.shown_observed(lang), finding.shown_expected(lang)
    # each part is shortened on its own, so a long message still shows what was observed
    if observed is not None:
        detail.append(f"{'实际' if zh else 'observed'} {shown(observed)}")
    if expected is not None:
        detail.append(f"{'期望' if zh else 'expected'} {shown(expected)}")
    suffix = f" [{'; '.join(detail)}]" if detail else ""
    message = (finding.brief or finding.message).get(lang)
    lines = layout.finding_lines(finding, shown(finding.rule), f"{shown(message)}{suffix}")
    if finding.severity in (Severity.error, Severity.warning):
        lines.extend(_remedy_lines(layout, finding))
    return lines


def _remedy_lines(layout: _Layout, finding: Finding) -> list[str]:
    """The remedy (``-> ...``) and the first link of a finding, under its message."""
    width = layout.width
    lines: list[str] = []
    pad = " " * (layout.indent - 1 if width else 4 + layout.label_width + layout.rule_width + 1)
    if finding.remedy is not None:
        remedy = f"{pad}-> "
        lines.extend(hanging_wrap(remedy, shown(finding.remedy.get(layout.lang)), width, len(remedy))
                     if width else [remedy + shown(finding.remedy.get(layout.lang))])
    if finding.links:
        link = shown(finding.links[0])
        at = len(pad) + 3
        if width:  # a link is copied whole: moved left to fit on one line where it can
            at = max(0, min(at, width - display_width(link)))
            lines.extend(layout.paint(_DIM, part) for part in hanging_wrap(" " * at, link, width, 0))
        else:
            lines.append(layout.paint(_DIM, f"{' ' * at}{link}"))
    return lines


def _summary(findings: list[Finding], lang: str, exit_status: Optional[int]) -> str:
    """The last line: how many findings of each severity, and the exit code where it is known."""
    zh = lang == "zh"
    tally = counts(findings)
    if zh:
        summary = f"汇总：{tally['error']} 个错误，{tally['warning']} 个警告，{tally['info']} 条信息，{tally['ok']} 项通过，{tally['skipped']} 项跳过"
    else:
        summary = f"Summary: {tally['error']} error(s), {tally['warning']} warning(s), {tally['info']} info, {tally['ok']} ok, {tally['skipped']} skipped"
    if exit_status is not None:
        summary += f"{'；退出码' if zh else '; exit code'} {exit_status}"
    return summary


#: how a stated fact is named in the header line
_STATED = {
    "nccl.version": ("NCCL {}", "NCCL {}"),
    "nccl.network": ("NCCL network {}", "NCCL 网络 {}"),
    "driver.cuda": ("driver CUDA {}", "驱动 CUDA {}"),
    "gpu.name": ("GPU {}", "GPU {}"),
    "vllm.version": ("vLLM {}", "vLLM {}"),
    "nccl.bootstrap_interface": ("bootstrap interface {}", "引导网络接口 {}"),
    "place": ("runs in {}", "运行于 {}"),
}


def evidence_line(evidence: Optional[Evidence]) -> Optional[Text]:
    """"Logs read: job.log (1,204 lines): 3 kinds of error line (2 with a known cause, 1 named by an error catalog);
    they show NCCL 2.21.5, driver CUDA 12.8." or None (no log read). A kind is a signature's lines, a catalog
    entry's, or one unknown line's text, counted once each."""
    if evidence is None or not evidence.read_logs:
        return None
    names = ", ".join(evidence.sources)
    size = (f" ({evidence.lines:,} line{'s' if evidence.lines != 1 else ''})" if evidence.lines else "")
    size_zh = f"（共 {evidence.lines:,} 行）" if evidence.lines else ""
    def value(name: str) -> str:
        found = evidence.conflicts.get(name)
        return " or ".join(map(str, found)) + " (lines differ)" if found else str(evidence.stated[name].value)

    shown = [(en.format(value(k)), zh.format(value(k).replace(" or ", " 或 ").replace(" (lines differ)", "（各行不一致）")))
             for k, (en, zh) in _STATED.items() if k in evidence.stated]
    if evidence.xids:
        shown.append((f"Xid {', '.join(map(str, evidence.xids))}", f"Xid {', '.join(map(str, evidence.xids))}"))
    count, named = len(evidence.hits), sum(1 for hit in evidence.catalog_hits if not hit.covered)
    unknown = len({line.text for line in evidence.unmatched})
    # kinds of error line: those a signature explains, those only an error catalog names, those nothing knows
    parts = [(f"{count} with a known cause", f"{count} 种原因已知")] if count or not (named or unknown) else []
    if named:  # lines no signature holds and an error catalog names (evidence.error-lines reports them too)
        parts.append((f"{named} named by an error catalog", f"{named} 种由错误目录识别"))
    if unknown:
        parts.append((f"{unknown} unknown", f"{unknown} 种未知"))
    total = count + named + unknown
    en = (f"Logs read: {names}{size}: {total} kind{'s' if total != 1 else ''} of error line"
          + (f" ({', '.join(p[0] for p in parts)})" if total else ""))
    zh = f"已读取日志：{names}{size_zh}：{total} 种错误行" + (f"（{'，'.join(p[1] for p in parts)}）" if total else "")
    if shown:
        en += "; they show " + ", ".join(s[0] for s in shown)
        zh += "；其中显示 " + "、".join(s[1] for s in shown)
    notes_en = "".join(f" {n[0]}." for n in evidence.notes)
    notes_zh = "".join(f"{n[1]}。" for n in evidence.notes)
    return Text(en + "." + notes_en, zh + "。" + notes_zh)
