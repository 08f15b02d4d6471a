"""Write the fleet report to ``--output FILE`` atomically, never over a file it did not write.

:func:`lingjun.checks.core.atomic_write.atomic_write` refuses a folder, a link, a
FIFO, a device and an empty name; an existing regular file is replaced only when
:func:`is_previous_fleet_output` recognises it from its first 4 KiB: a JSON
report (``{"schema": "lingjun-check/fleet/1"``), an HTML page carrying
:data:`~lingjun.checks.fleet._render_html.HTML_MARKER`, or a text report
starting with ``lingjun-check fleet``.
"""

from __future__ import annotations

import re

from lingjun.checks.core.atomic_write import atomic_write, read_prefix
from lingjun.checks.fleet._model import FLEET_SCHEMA
from lingjun.checks.fleet._render_html import HTML_MARKER

__all__ = ["FLEET_KIND", "is_previous_fleet_output", "write_output"]

#: what :func:`is_previous_fleet_output` recognises, for refusal messages
FLEET_KIND = "a lingjun-check fleet report"
_JSON_START = re.compile(rb'\A\s*\{\s*"schema"\s*:\s*"' + re.escape(FLEET_SCHEMA.encode("ascii")) + rb'"')


def is_previous_fleet_output(path: str) -> bool:
    """True when the regular file ``path`` is a fleet report this command wrote (any format; see the module docstring)."""
    head = read_prefix(path, 4096)
    return bool(_JSON_START.match(head) or HTML_MARKER.encode("ascii") in head or head.startswith(b"lingjun-check fleet"))


def write_output(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically.

    Raises:
        UnsafeOutputPath: ``path`` is not new and not a previous fleet report; nothing is written.
        OSError: the file cannot be written; nothing is left behind.
    """
    atomic_write(path, text, replaceable=is_previous_fleet_output, ours=FLEET_KIND)
