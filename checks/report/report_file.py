"""``--output FILE``: the report written to a file atomically, replacing only a report written before.

The file is written with :func:`lingjun.checks.core.atomic_write.atomic_write`:
a temporary file ``.NAME.XXXXXXXX.tmp`` in the same folder, then a rename, so
a reader (node-exporter's textfile collector reading ``*.prom``, a
``kubectl cp``) sees the previous report or the new one, never half of one;
the temporary name does not end in ``.prom``, so the collector never reads it.

An existing path is replaced only when it is a regular file holding, as a
whole, a report of one of our formats (:func:`is_previous_report`, which never
follows a link); a folder, a link, a FIFO, a socket, a
device, a ``--collect`` snapshot or any other file is refused before anything
is probed.  Standard library only.
"""

from __future__ import annotations

import json
import re

from lingjun.checks.core.atomic_write import atomic_write, check_output_file, read_whole_text
from lingjun.checks.report.render_npd import is_npd_line

__all__ = ["REPORT_KIND", "is_previous_report", "check_report_path", "write_report"]

#: what :func:`is_previous_report` recognises, for refusal messages
REPORT_KIND = "a lingjun-check report"
#: the largest file recognised as a previous report (a JSON report of every rule is well under 1 MiB)
MAX_REPORT_BYTES = 64 * 1024 * 1024

_BOLD = r"(?:\x1b\[[0-9;]*m)?"
# --format text: the first line is "lingjun-check VERSION  (facts: ORIGIN)" (zh: 数据来源), the last the summary line
_TEXT_HEAD = re.compile(r"\A" + _BOLD + r"lingjun-check [0-9][^\n]*  \((?:facts|数据来源): [^\n]*\n")
_TEXT_TAIL = re.compile(_BOLD + r"(?:Summary: \d+ error\(s\), \d+ warning\(s\), \d+ info, \d+ ok, \d+ skipped(?:; exit code \d+)?"
                        r"|汇总：\d+ 个错误，\d+ 个警告，\d+ 条信息，\d+ 项通过，\d+ 项跳过(?:；退出码 \d+)?)" + _BOLD + r"\n\Z")
# --format prometheus: every line one of our families' HELP, TYPE or sample lines (render_prometheus.FAMILIES, which
# a test holds equal to this list; all of them were already written by earlier versions but the three status ones)
_FAMILY_NAMES = ("run_success", "exit_code", "last_run_timestamp_seconds", "last_success_timestamp_seconds",
                 "findings_by_severity", "findings", "info", "gpu_info")
_FAMILIES = "(?:" + "|".join(_FAMILY_NAMES) + ")"
_PROM_LINE = re.compile(
    r"# HELP lingjun_check_" + _FAMILIES + r" [^\n]*"
    r"|# TYPE lingjun_check_" + _FAMILIES + r" gauge"
    r'|lingjun_check_' + _FAMILIES + r'(?:\{(?:[A-Za-z_][A-Za-z0-9_]*="(?:[^"\\\n]|\\.)*",?)*\})? (?:[-+0-9.eE]+|NaN|[+-]Inf)'
    r"|"
)


def _is_text_report(text: str) -> bool:
    return _TEXT_HEAD.match(text) is not None and _TEXT_TAIL.search(text) is not None


def _is_json_report(text: str) -> bool:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("schema") == "lingjun-check/report/1"


def _is_prometheus_report(text: str) -> bool:
    lines = text.split("\n")
    if not text.endswith("\n") or not lines[0].startswith("# HELP lingjun_check_"):
        return False
    return all(_PROM_LINE.fullmatch(line) for line in lines[:-1])


def is_previous_report(path: str) -> bool:
    """True when the regular file ``path`` is, as a whole, a report of one of our formats: a text report (our
    header line and our summary line last), a JSON report (one object whose ``schema`` is ``lingjun-check/report/1``),
    Prometheus metrics (every line a HELP, TYPE or sample line of our metric families) or exactly one
    ``--format npd`` line (:func:`lingjun.checks.report.render_npd.is_npd_line`).  A file larger than
    :data:`MAX_REPORT_BYTES`, or not UTF-8, is not one."""

    text = read_whole_text(path, MAX_REPORT_BYTES)
    if text is None:
        return False
    if text.startswith("# HELP "):
        return _is_prometheus_report(text)
    if text.lstrip().startswith("{"):
        return _is_json_report(text)
    return _is_text_report(text) or is_npd_line(text)


def check_report_path(path: str) -> None:
    """Refuse ``path`` now when writing the report there later would be refused (nothing is written).

    Raises:
        UnsafeOutputPath: empty, a folder, a link, a FIFO, a socket, a device, or a regular file
            that is not a previous report (see the module docstring).
        OSError: the path cannot be inspected (a folder of it unreadable, a name too long).
    """
    check_output_file(path, is_previous_report, REPORT_KIND)


def write_report(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically as UTF-8 (a character UTF-8 cannot hold is written ``?``).

    Raises:
        UnsafeOutputPath: as :func:`check_report_path`, checked again just before the write.
        OSError: the folder is missing or not writable, the disk is full; nothing is left behind.
    """
    atomic_write(path, text.encode("utf-8", "replace"), replaceable=is_previous_report, ours=REPORT_KIND)
