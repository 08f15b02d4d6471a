"""The report as one short line for node-problem-detector's custom plugin monitor (``--format npd``).

node-problem-detector runs a plugin, takes its trimmed standard output as the
message, cuts it to ``max_output_length`` bytes (80 by default, cut at a byte,
not at a character) and reads its exit status: 0 OK, 1 a problem (NonOK),
anything else Unknown
(https://github.com/kubernetes/node-problem-detector/blob/master/docs/custom_plugin_monitor.md,
``pkg/custompluginmonitor/plugin/plugin.go``).  So the line written here is at
most :data:`NPD_MAX_BYTES` bytes of UTF-8 (Chinese text counted in bytes, cut
between characters) and names the key finding first::

    ERROR driver.minimum: Driver 535.104.05 is older than the minimum… (+2)
    WARN container.shm-size: /dev/shm is 64 MiB… (+1)        (--strict only)
    OK lingjun-check: 0 errors, 1 warning, 12 ok, 9 skipped
    UNKNOWN lingjun-check: --root /host: not a directory

The key finding is the first error in report order, else (with ``--strict``)
the first warning; ``(+N)`` counts the other errors and warnings.

Exit codes (:func:`npd_exit_code`): our 0 -> 0 (OK); 1 (errors) -> 1; 2
(warnings with ``--strict``) -> 1, since whoever passes ``--strict`` asked for
warnings to count as problems; without ``--strict`` warnings leave the node OK
(the line still counts them).  3 (usage error, unreadable input, internal
error), 130 (interrupted) and anything else -> 2, which NPD reports as Unknown:
the checker could not say whether the node is healthy.
"""

from __future__ import annotations

import re
from typing import Optional

from lingjun.checks.core.inert_text import inert
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.model import EXIT_ERRORS, EXIT_OK, EXIT_WARNINGS, SEVERITY_LABELS, counts

__all__ = ["render_npd", "unknown_line", "npd_exit_code", "fit_bytes", "is_npd_line", "NPD_MAX_BYTES",
           "NPD_OK", "NPD_PROBLEM", "NPD_UNKNOWN"]

#: node-problem-detector's default ``max_output_length``: bytes of the message it keeps
NPD_MAX_BYTES = 80
#: node-problem-detector's exit statuses
NPD_OK, NPD_PROBLEM, NPD_UNKNOWN = 0, 1, 2

_UNKNOWN = Text("UNKNOWN", "未知")
_ELLIPSIS = "…"
_SOURCE = "lingjun-check"


def npd_exit_code(status: int) -> int:
    """node-problem-detector's exit status for our exit code ``status`` (see the module docstring)."""
    if status == EXIT_OK:
        return NPD_OK
    if status in (EXIT_ERRORS, EXIT_WARNINGS):
        return NPD_PROBLEM
    return NPD_UNKNOWN


def fit_bytes(text: str, limit: int = NPD_MAX_BYTES) -> str:
    """``text`` when its UTF-8 encoding has at most ``limit`` bytes, else its longest start that fits
    with ``…`` (3 bytes) appended (without it below 3 bytes); never cut inside a character.  Lone surrogates
    count as ``?``."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    raw = text.encode("utf-8")
    if len(raw) <= limit:
        return text
    room = limit - len(_ELLIPSIS.encode("utf-8"))
    if room < 0:  # no room even for the ellipsis
        return raw[:max(limit, 0)].decode("utf-8", "ignore")
    return raw[:room].decode("utf-8", "ignore") + _ELLIPSIS


def _one_line(text: str) -> str:
    # controls (line breaks included) become visible escapes: NPD keeps one line, a terminal stays unchanged
    return inert(" ".join(text.split()), limit=None)


def _problem_line(finding: Finding, others: int, lang: str, limit: int) -> str:
    head = f"{SEVERITY_LABELS[finding.severity].get(lang)} {finding.rule}: "
    tail = f" (+{others})" if others else ""
    message = _one_line((finding.brief or finding.message).get(lang))
    room = limit - len(head.encode("utf-8")) - len(tail.encode("utf-8"))
    if room < 8:  # no useful room for the message: keep the label and the rule
        return fit_bytes(head.rstrip(": ") + tail, limit)
    return head + fit_bytes(message, room) + tail


def render_npd(findings: list[Finding], status: int, lang: str = "en", limit: int = NPD_MAX_BYTES) -> str:
    """The line for exit code ``status`` (0, 1 or 2), at most ``limit`` bytes, ending with a newline.

    Args:
        findings: every finding of the run.
        status: the run's exit code (:func:`lingjun.checks.report.model.exit_code`).
        lang: ``"en"`` or ``"zh"`` (labels and the message of the key finding).
        limit: bytes the line may have without its newline (``max_output_length``).
    """
    tally = counts(findings)
    problems = [f for f in findings if f.severity is Severity.error]
    if not problems and status == EXIT_WARNINGS:
        problems = [f for f in findings if f.severity is Severity.warning]
    if problems and status in (EXIT_ERRORS, EXIT_WARNINGS):
        others = tally["error"] + tally["warning"] - 1
        return _problem_line(problems[0], others, lang, limit) + "\n"
    ok = SEVERITY_LABELS[Severity.ok].get(lang)
    if lang == "zh":
        text = (f"{ok} {_SOURCE}：{tally['error']} 个错误，{tally['warning']} 个警告，"
                f"{tally['ok']} 项通过，{tally['skipped']} 项跳过")
    else:
        warnings = f"{tally['warning']} warning" + ("" if tally["warning"] == 1 else "s")
        errors = f"{tally['error']} error" + ("" if tally["error"] == 1 else "s")
        text = f"{ok} {_SOURCE}: {errors}, {warnings}, {tally['ok']} ok, {tally['skipped']} skipped"
    return fit_bytes(text, limit) + "\n"


def unknown_line(reason: Optional[str], lang: str = "en", limit: int = NPD_MAX_BYTES) -> str:
    """The line when the checker could not decide (usage error, unreadable input, internal error): ``UNKNOWN
    lingjun-check: REASON`` at most ``limit`` bytes, ending with a newline.  ``reason`` is the checker's own
    one-line message, with a leading ``lingjun-check: `` dropped; None: "no report"."""
    text = (reason or "").strip()
    if text.startswith(_SOURCE + ":"):
        text = text[len(_SOURCE) + 1:].strip()
    if not text:
        text = "没有生成报告" if lang == "zh" else "no report"
    sep = "：" if lang == "zh" else ": "
    return fit_bytes(f"{_UNKNOWN.get(lang)} {_SOURCE}{sep}{_one_line(text)}", limit) + "\n"


_LABELS = "|".join(re.escape(w) for t in [*SEVERITY_LABELS.values(), _UNKNOWN] for w in (t.en, t.zh))
_LINE = re.compile(r"\A(?:" + _LABELS + r") (?:lingjun-check|[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)(?::|：)")


def is_npd_line(text: str) -> bool:
    """True when ``text`` is one line this module writes (a label, a rule id or ``lingjun-check``, a colon),
    at most :data:`NPD_MAX_BYTES` bytes plus its newline.  Used to recognise a previous ``--output`` file."""
    body = text[:-1] if text.endswith("\n") else text
    return "\n" not in body and len(body.encode("utf-8")) <= NPD_MAX_BYTES and _LINE.match(body) is not None
