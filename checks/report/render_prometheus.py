"""The report as Prometheus metrics (``--format prometheus``), for node-exporter's textfile collector.

Text exposition format 0.0.4 (https://prometheus.io/docs/instrumenting/exposition_formats/):
``# HELP`` and ``# TYPE`` lines, then the samples of each family; no sample
timestamps (the textfile collector refuses them,
https://github.com/prometheus/node_exporter#textfile-collector).  Every family
is a gauge::

    lingjun_check_findings{rule="driver.minimum",severity="error"} 1
    lingjun_check_last_run_timestamp_seconds 1.764567e+09
    lingjun_check_exit_code 1
    lingjun_check_info{version="0.1.0",release="training-nv-pytorch:25.07",release_how="fingerprint",origin="live",driver_version="570.124.06"} 1
    lingjun_check_gpu_info{gpu="0",modelName="NVIDIA H20"} 1

``lingjun_check_findings`` is the *number* of findings a rule gave with that
severity, written for every rule the checker knows and every severity
(``error``, ``warning``, ``info``, ``ok``, ``skipped``), zeros included: a
problem that is fixed brings its series back to 0 instead of making it
disappear (an alert on ``lingjun_check_findings{severity="error"} > 0``
resolves), and a rule that could not run is visible as ``severity="skipped"``.
Most rules give one finding; a few give several (``checker.snapshot``, one per
unusable snapshot value), hence a count rather than 0/1.  About 45 rules x 5
severities: some 225 series per node.

Labels follow https://prometheus.io/docs/practices/naming/ (snake_case), except
the GPU ones, which are spelled as NVIDIA's dcgm-exporter spells them (``gpu``,
``modelName``, ``UUID``, ``Hostname``) so that our series join with its
``DCGM_FI_*`` series.  ``Hostname`` (on every series) and ``UUID`` (on
``lingjun_check_gpu_info``) are written only when the caller passes them, which
the command line does only with ``--include-ids``.  No free-form text (messages,
remedies) is ever a label: the values are rule ids, severities, the tool
version, the release reference, how it was identified, the facts' origin, the
driver version, GPU indices and model names.  Values from input (release
references, driver versions, GPU names, host names) have control and bidi
characters written as visible escapes (:func:`~lingjun.checks.core.inert_text.inert`),
are shortened to :data:`LABEL_LIMIT` characters, and are then escaped as the
format requires (backslash, double quote, line feed).

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

__all__ = ["render_prometheus", "label_value", "LABEL_LIMIT", "CONTENT_TYPE", "METRIC_PREFIX"]

#: what a scrape of this text would be served as (for reference; the textfile collector reads files)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: every metric name starts with it (a single-word application prefix, as the naming practices ask)
METRIC_PREFIX = "lingjun_check_"
#: characters of a label value from input kept before it is shortened (a GPU name is ~30, a release reference ~100)
LABEL_LIMIT = 128

_HELP = {
    "findings": "Findings of the last lingjun-check run per rule and severity (count; 0 when the rule gave none of that severity).",
    "last_run_timestamp_seconds": "Unix time at which the last lingjun-check run ended.",
    "exit_code": "Exit code of the last lingjun-check run (0 no errors, 1 errors, 2 warnings with --strict).",
    "info": "The lingjun-check version and the release the last run checked against (value 1).",
    "gpu_info": "A GPU the last lingjun-check run saw, labelled as dcgm-exporter labels it (value 1).",
}


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
    """The metrics text (see the module docstring), ending with a newline.

    Args:
        findings: every finding of the run.
        release: the release the run checked against (``release.ref`` None: no release; the label is empty); the
            label is ``family:release#variant`` when the variant is known (:attr:`ReleaseMatch.image_ref`).
        facts: what the run saw (the driver version and the GPUs are read from it).
        rule_ids: every rule the checker knows, so that each gets its zero series; rule ids of
            ``findings`` missing from it are added after them.
        version: the checker's version.
        exit_status: the run's exit code (0, 1 or 2).
        now: Unix time of the run, seconds.
        hostname: written as the ``Hostname`` label on every series when given (the command line
            passes it only with ``--include-ids``); None or empty: no such label.
        gpu_uuids: write each GPU's ``UUID`` label when the facts carry one (``--include-ids``).
    """
    host: list[tuple[str, object]] = [("Hostname", hostname)] if hostname else []
    order: list[str] = []
    seen: set[str] = set()
    for rule in list(rule_ids) + [f.rule for f in findings]:
        if rule not in seen:
            seen.add(rule)
            order.append(rule)
    tally = {(rule, severity.value): 0 for rule in order for severity in SEVERITY_ORDER}
    for finding in findings:
        tally[(finding.rule, finding.severity.value)] += 1

    lines: list[str] = []
    _family(lines, "findings", ((host + [("rule", rule), ("severity", severity.value)], tally[(rule, severity.value)])
                                for rule in order for severity in SEVERITY_ORDER))
    _family(lines, "last_run_timestamp_seconds", [(host, now)])
    _family(lines, "exit_code", [(host, exit_status)])
    info = host + [("version", version), ("release", release.image_ref or ""), ("release_how", release.how),
                   ("origin", facts.origin), ("driver_version", facts.driver_version or "")]
    _family(lines, "info", [(info, 1)])
    gpus: list[list[tuple[str, object]]] = []
    for gpu in facts.gpus:
        labels: list[tuple[str, object]] = host + [("gpu", gpu.index), ("modelName", gpu.name or "")]
        if gpu_uuids and gpu.uuid:
            labels.append(("UUID", gpu.uuid))
        if labels not in gpus:  # one series per label set: a repeated GPU in the input is not a second series
            gpus.append(labels)
    if gpus:
        _family(lines, "gpu_info", [(labels, 1) for labels in gpus])
    return "\n".join(lines) + "\n"
