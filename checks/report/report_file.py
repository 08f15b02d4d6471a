"""``--output FILE``: the report written to a file atomically, replacing only a report written before.

The file is written with :func:`lingjun.checks.core.atomic_write.atomic_write`:
a temporary file ``.NAME.XXXXXXXX.tmp`` in the same folder, then a rename, so
a reader (node-exporter's textfile collector reading ``*.prom``, a
``kubectl cp``) sees the previous report or the new one, never half of one;
the temporary name does not end in ``.prom``, so the collector never reads it.

An existing path is replaced only when it is a regular file holding a report
of one of our formats (:func:`is_previous_report`, which reads at most the
first 4 KiB and never follows a link); a folder, a link, a FIFO, a socket, a
device, a ``--collect`` snapshot or any other file is refused before anything
is probed.  Standard library only.
"""

from __future__ import annotations

import re

from lingjun.checks.core.atomic_write import atomic_write, check_output_file, read_prefix

__all__ = ["REPORT_KIND", "is_previous_report", "check_report_path", "write_report"]

#: what :func:`is_previous_report` recognises, for refusal messages
REPORT_KIND = "a lingjun-check report"

_STARTS = [
    # --format text: the first line is "lingjun-check VERSION  (facts: ORIGIN)" (zh: 数据来源); ANSI bold when coloured
    re.compile(r"\A(?:\x1b\[1m)?lingjun-check [0-9][^\n]*  \((?:facts|数据来源): ".encode("utf-8")),
    # --format json
    re.compile(rb'\A\s*\{\s*"schema"\s*:\s*"lingjun-check/report/1"'),
    # --format prometheus
    re.compile(rb"\A# HELP lingjun_check_[a-z_]+ "),
]


def is_previous_report(path: str) -> bool:
    """True when the regular file ``path`` starts as a report of ours does (text, JSON, Prometheus) or is
    exactly one ``--format npd`` line (:func:`lingjun.checks.report.render_npd.is_npd_line`)."""
    from lingjun.checks.report.render_npd import is_npd_line

    head = read_prefix(path, 4096)
    if any(start.match(head) for start in _STARTS):
        return True
    try:
        return len(head) < 4096 and is_npd_line(head.decode("utf-8"))
    except UnicodeDecodeError:
        return False


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
