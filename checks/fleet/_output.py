"""Write the fleet report to ``--output FILE`` atomically, never over a file it did not write.

:func:`lingjun.checks.core.atomic_write.atomic_write` refuses a folder, a link, a
FIFO, a device and an empty name; an existing regular file is replaced only when
:func:`is_previous_fleet_output` recognises the whole file as a fleet report of
one of our formats: a JSON object whose ``schema`` is ``lingjun-check/fleet/1``;
an HTML page that starts with ``<!DOCTYPE html>``, carries
:data:`~lingjun.checks.fleet._render_html.HTML_MARKER` in its head and ends with
``</html>``; or a text report whose first line is our title line and that has
our "Findings by rule" heading.  A file larger than :data:`MAX_FLEET_BYTES`, or
not UTF-8, is not one.
"""

from __future__ import annotations

import json
import re

from lingjun.checks.core.atomic_write import atomic_write, read_whole_text
from lingjun.checks.fleet._model import FLEET_SCHEMA
from lingjun.checks.fleet._render_html import HTML_MARKER

__all__ = ["FLEET_KIND", "MAX_FLEET_BYTES", "is_previous_fleet_output", "write_output"]

#: what :func:`is_previous_fleet_output` recognises, for refusal messages
FLEET_KIND = "a lingjun-check fleet report"
#: the largest file recognised as a previous fleet report (the JSON report of 2,000 nodes is a few MiB)
MAX_FLEET_BYTES = 256 * 1024 * 1024
_BOLD = r"(?:\x1b\[[0-9;]*m)?"
_TEXT_TITLE = re.compile(r"\A" + _BOLD + r"(?:lingjun-check fleet: \d+ nodes?, exit code \d|lingjun-check fleet：\d+ 个节点，退出码 \d)"
                         + _BOLD + r"\n  ")
_TEXT_RULES = re.compile(r"^" + _BOLD + r"(?:Findings by rule|按规则汇总的发现)" + _BOLD + r"$", re.M)


def _is_json(text: str) -> bool:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("schema") == FLEET_SCHEMA


def _is_html(text: str) -> bool:
    head_end = text.find("</head>")
    return (text.startswith("<!DOCTYPE html>") and head_end > 0 and HTML_MARKER in text[:head_end]
            and text.rstrip().endswith("</html>"))


def is_previous_fleet_output(path: str) -> bool:
    """True when the regular file ``path`` is, as a whole, a fleet report this command wrote (any format; see the
    module docstring)."""
    text = read_whole_text(path, MAX_FLEET_BYTES)
    if text is None:
        return False
    if text.lstrip().startswith("{"):
        return _is_json(text)
    if text.startswith("<"):
        return _is_html(text)
    return _TEXT_TITLE.match(text) is not None and _TEXT_RULES.search(text) is not None


def write_output(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        UnsafeOutputPath: ``path`` is not new and not a previous fleet report; nothing is written.
        OSError: the file cannot be written; nothing is left behind.
    """
    atomic_write(path, text, replaceable=is_previous_fleet_output, ours=FLEET_KIND)
