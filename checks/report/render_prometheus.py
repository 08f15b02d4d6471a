"""The report as Prometheus metrics (``--format prometheus``), for node-exporter's textfile collector.

Text exposition format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/):
``# HELP`` and ``# TYPE`` lines, then the samples of each family; no sample
timestamps (the textfile collector refuses them,
https://github.com/prometheus/node_exporter#textfile-collector).  Every family
is a gauge, and only series that carry information are written::

    lingjun_check_run_success 1
    lingjun_check_exit_code 1
    lingjun_check_last_run_timestamp_seconds 1.764567e+09
    lingjun_check_last_success_timestamp_seconds 1.764567e+09
    lingjun_check_findings_by_severity{severity="error"} 1          (one per severity, 0 included: 5)
    lingjun_check_findings{rule="driver.minimum",severity="error"} 1 (errors and warnings only)
    lingjun_check_info{version="0.1.0",release="training-nv-pytorch:25.07",release_how="fingerprint",origin="live",driver_version="570.124.06"} 1
    lingjun_check_gpu_info{gpu="0",model_name="NVIDIA H20"} 1        (one per GPU)

``lingjun_check_findings`` is the *number* of findings a rule gave with that
severity, written only for errors and warnings, at most
:data:`MAX_RULE_SERIES` of them (errors first, in report order): a rule that
is OK, informational or skipped writes nothing, so a node costs at most
:data:`MAX_NODE_SERIES` series plus one per GPU, not one series per rule and
severity (233 a node before, 12 million at 50,000 nodes).  A fixed problem's
series disappears, which Prometheus marks stale: an alert on
``lingjun_check_findings{severity="error"} > 0`` resolves.  The five totals of
``lingjun_check_findings_by_severity`` hold every finding, those beyond the cap
included, and show rules that could not run (``severity="skipped"``).

A run that failed (usage error, unreadable input, internal error: exit code 3
or more) is written by :func:`render_prometheus_failure`: ``run_success 0``,
its exit code and time, and the time of the last good run carried over from
the file it replaces, so a broken check never looks healthy.

Labels are snake_case as https://prometheus.io/docs/practices/naming/ asks
(``model_name``, ``uuid``, ``hostname``; not dcgm-exporter's ``modelName``,
``UUID``, ``Hostname``, which promtool's lint flags: join with its
``DCGM_FI_*`` series on ``gpu`` and the node's ``instance``).  ``hostname`` (on
every series) and ``uuid`` (on ``lingjun_check_gpu_info``) are written only
when the caller passes them, which the command line does only with
``--include-ids``.  No free-form text (messages, remedies) is ever a label: the
values are rule ids, severities, the tool version, the release reference, how
it was identified, the facts' origin, the driver version, GPU indices and model
names.  Values from input (release references, driver versions, GPU names,
host names) have control and bidi characters written as visible escapes
(:func:`~lingjun.checks.core.inert_text.inert`), are shortened to
:data:`LABEL_LIMIT` characters, and are then escaped as the format requires
(backslash, double quote, line feed).

HELP texts are English and fixed whatever ``--lang`` says: node-exporter
rejects a scrape in which the same metric comes with two different HELP texts
(``node_textfile_scrape_error``), which two nodes' or two runs' files in
different languages would cause.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.core.inert_text import inert
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import SEVERITY_ORDER, Finding

__all__ = ["render_prometheus", "render_prometheus_failure", "label_value", "last_success_time", "LABEL_LIMIT",
           "CONTENT_TYPE", "METRIC_PREFIX", "FAMILIES", "MAX_RULE_SERIES", "MAX_NODE_SERIES"]

#: what a scrape of this text would be served as (for reference; the textfile collector reads files)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: every metric name starts with it (a single-word application prefix, as the naming practices ask)
METRIC_PREFIX = "lingjun_check_"
#: characters of a label value from input kept before it is shortened (a GPU name is ~30, a release reference ~100)
LABEL_LIMIT = 128
#: the most ``lingjun_check_findings`` series one run writes (errors first, then warnings)
MAX_RULE_SERIES = 10
#: the most series a node's file holds besides one per GPU: the rule series, five severity totals and five
#: single series (run_success, exit_code, the two times, info)
MAX_NODE_SERIES = MAX_RULE_SERIES + 5 + 5

_HELP = {
    "run_success": "1 when the last lingjun-check run produced a report, 0 when it failed (usage error, unreadable input, internal error).",
    "exit_code": "Exit code of the last lingjun-check run (0 no errors, 1 errors, 2 warnings with --strict, 3 or more a failed run).",
    "last_run_timestamp_seconds": "Unix time at which the last lingjun-check run ended, good or failed.",
    "last_success_timestamp_seconds": "Unix time at which the last lingjun-check run that produced a report ended.",
    "findings_by_severity": "Findings of the last lingjun-check run per severity (count, 0 included).",
    "findings": "Findings of the last lingjun-check run per rule, for errors and warnings only (count).",
    "info": "The lingjun-check version and the release the last run checked against (value 1).",
    "gpu_info": "A GPU the last lingjun-check run saw (value 1).",
}
#: every metric family a file of ours may hold, without the prefix (also read by report_file to recognise one)
FAMILIES = tuple(_HELP)
_PROBLEMS = ("error", "warning")


def label_value(text: object, limit: int = LABEL_LIMIT) -> str:
    """``text`` as a label value between double quotes: made inert, shortened, then escaped for the format.

    Controls and bidi characters become visible escapes (``\\x1b``), the value is
    cut to ``limit`` characters (``… (N more characters)``), characters that
    cannot be UTF-8 (lone surrogates from undecodable input) become ``?``, and
    backslash, double quote and line feed are written ``\\\\``, ``\\"`` and ``\\n``
    as the exposition format requires.  The quotes are not included.
    """
    shown = inert("" if text is None else text, limit)
    shown = shown.encode("utf-8", "replace").decode("utf-8")
    return shown.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(pairs: Sequence[tuple[str, object]]) -> str:
    if not pairs:
        return ""
    return "{" + ",".join(f'{name}="{label_value(value)}"' for name, value in pairs) + "}"


def _number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 2 ** 53:
        return str(int(value))
    return repr(float(value))


def _family(lines: list[str], name: str, samples: Iterable[tuple[Sequence[tuple[str, object]], float]]) -> None:
    full = METRIC_PREFIX + name
    lines.append(f"# HELP {full} {_HELP[name]}")
    lines.append(f"# TYPE {full} gauge")
    for labels, value in samples:
        lines.append(f"{full}{_labels(labels)} {_number(value)}")


def render_prometheus(
    findings: list[Finding],
    release: ReleaseMatch,
    facts: Facts,
    rule_ids: Iterable[str],
    version: str,
    exit_status: int,
    now: float,
    hostname: Optional[str] = None,
    gpu_uuids: bool = False,
) -> str:
    """The metrics text of a run that produced a report (see the module docstring), ending with a newline.

    At most :data:`MAX_NODE_SERIES` series plus one per distinct GPU.

    Args:
        findings: every finding of the run.
        release: the release the run checked against (``release.ref`` None: no release; the label is empty); the
            label is ``family:release#variant`` when the variant is known (:attr:`ReleaseMatch.image_ref`).
        facts: what the run saw (the driver version and the GPUs are read from it).
        rule_ids: every rule the checker knows, in report order; rule ids of ``findings`` missing from it
            come after them.  Only the order of the rule series depends on it.
        version: the checker's version.
        exit_status: the run's exit code (0, 1 or 2).
        now: Unix time of the run, seconds; also the time of the last good run.
        hostname: written as the ``hostname`` label on every series when given (the command line
            passes it only with ``--include-ids``); None or empty: no such label.
        gpu_uuids: write each GPU's ``uuid`` label when the facts carry one (``--include-ids``).
    """
    host: list[tuple[str, object]] = [("hostname", hostname)] if hostname else []
    tally, totals = _tally(findings)
    order = _rule_order(rule_ids, findings)
    problems = [(rule, severity) for severity in _PROBLEMS for rule in order if (rule, severity) in tally]

    lines: list[str] = []
    _status(lines, host, exit_status, now, now)
    _family(lines, "findings_by_severity", ((host + [("severity", severity)], count) for severity, count in totals.items()))
    if problems:
        _family(lines, "findings", ((host + [("rule", rule), ("severity", severity)], tally[(rule, severity)])
                                    for rule, severity in problems[:MAX_RULE_SERIES]))
    info = host + [("version", version), ("release", release.image_ref or ""), ("release_how", release.how),
                   ("origin", facts.origin), ("driver_version", facts.driver_version or "")]
    _family(lines, "info", [(info, 1)])
    gpus = _gpu_label_sets(facts, host, gpu_uuids)
    if gpus:
        _family(lines, "gpu_info", [(labels, 1) for labels in gpus])
    return "\n".join(lines) + "\n"


def _rule_order(rule_ids: Iterable[str], findings: list[Finding]) -> list[str]:
    """Every rule once: the known rules in report order, then rules of ``findings`` not among them."""
    order: list[str] = []
    seen: set[str] = set()
    for rule in list(rule_ids) + [f.rule for f in findings]:
        if rule not in seen:
            seen.add(rule)
            order.append(rule)
    return order


def _tally(findings: list[Finding]) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """``(count per (rule, severity), count per severity)``; every severity is in the second, 0 where none."""
    tally: dict[tuple[str, str], int] = {}
    totals = {severity.value: 0 for severity in SEVERITY_ORDER}
    for finding in findings:
        key = (finding.rule, finding.severity.value)
        tally[key] = tally.get(key, 0) + 1
        totals[finding.severity.value] += 1
    return tally, totals


def _gpu_label_sets(facts: Facts, host: list[tuple[str, object]], gpu_uuids: bool) -> list[list[tuple[str, object]]]:
    """The label set of each GPU's ``gpu_info`` series (``uuid`` only with ``gpu_uuids`` and a known UUID)."""
    gpus: list[list[tuple[str, object]]] = []
    for gpu in facts.gpus:
        labels: list[tuple[str, object]] = host + [("gpu", gpu.index), ("model_name", gpu.name or "")]
        if gpu_uuids and gpu.uuid:
            labels.append(("uuid", gpu.uuid))
        if labels not in gpus:  # one series per label set: a repeated GPU in the input is not a second series
            gpus.append(labels)
    return gpus


def render_prometheus_failure(exit_status: int, now: float, last_success: Optional[float],
                              hostname: Optional[str] = None) -> str:
    """The metrics text of a run that failed (exit code 3 or more): ``run_success 0``, the exit code, the time of
    this run and, when known, of the last good run (``last_success``, Unix seconds; None: none is known, and the
    series is left out rather than written as 0).  Ends with a newline."""
    host: list[tuple[str, object]] = [("hostname", hostname)] if hostname else []
    lines: list[str] = []
    _status(lines, host, exit_status, now, last_success)
    return "\n".join(lines) + "\n"


def _status(lines: list[str], host: list, exit_status: int, now: float, last_success: Optional[float]) -> None:
    _family(lines, "run_success", [(host, 1 if exit_status in (0, 1, 2) else 0)])
    _family(lines, "exit_code", [(host, exit_status)])
    _family(lines, "last_run_timestamp_seconds", [(host, now)])
    if last_success is not None:
        _family(lines, "last_success_timestamp_seconds", [(host, last_success)])


def last_success_time(text: str) -> Optional[float]:
    """The ``lingjun_check_last_success_timestamp_seconds`` value in ``text`` (a file of ours), else the
    ``last_run_timestamp_seconds`` of a file written before that family existed, when the run it describes
    succeeded; None when neither says.  ``text`` is trusted to be one of our files (report_file checks it)."""
    values: dict[str, float] = {}
    for line in text.splitlines():
        if not line.startswith(METRIC_PREFIX) or " " not in line:
            continue
        name = line.split("{", 1)[0].split(" ", 1)[0][len(METRIC_PREFIX):]
        try:  # the value is the last word: label values never hold a line break, and a sample has no time stamp
            values[name] = float(line.rsplit(" ", 1)[1])
        except ValueError:
            continue
    if "last_success_timestamp_seconds" in values:
        return values["last_success_timestamp_seconds"]
    if "run_success" not in values and values.get("exit_code") in (0.0, 1.0, 2.0):
        return values.get("last_run_timestamp_seconds")
    return None
