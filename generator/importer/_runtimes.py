"""Framework runtimes (separate Python environments in one image): the runtime table and their lists.

The runtime table has a column per field (``runtime`` name, ``id``,
upstream source, path in the image, status, in English or Chinese);
a second table may give each runtime's component list in a column headed
by the runtime's name (``cosmos-framework==1.2.2; torch==2.10.0``).  A list
cut off in the copy is partial; a cell the copy could not show gives no list.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.generator.importer._blocks import Block
from lingjun.generator.importer._components import Group, Note, add_entries, table_runs

__all__ = ["read_runtimes"]

_FIELDS = {"runtime": "name", "name": "name", "名称": "name", "id": "id", "runtime id": "id",
           "训练框架官方源": "upstream", "官方源": "upstream", "upstream": "upstream", "source": "upstream",
           "镜像内路径": "path", "path": "path", "path in the image": "path", "状态": "status", "status": "status"}
_STATUS = {"维护中": "maintained", "maintained": "maintained", "不再维护": "unmaintained", "停止维护": "unmaintained",
           "unmaintained": "unmaintained", "deprecated": "unmaintained"}
_RUNTIME_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}(/[a-z0-9][a-z0-9._-]{0,63})?$")
_PATH = re.compile(r"^/[A-Za-z0-9._/-]{0,255}$")


def _runtime_rows(rows: list[Block], fields: list[Optional[str]], notes: list[Note]) -> list[dict[str, Any]]:
    """The runtimes of a table headed by id and name, one entry per row (a row without an id is left out)."""
    runtimes: list[dict[str, Any]] = []
    for row in rows[1:]:
        values = dict(zip(fields, row.cells))
        rid = (values.get("id") or "").strip()
        if not _RUNTIME_ID.match(rid):
            notes.append(Note("unparsed", row.line, f"runtime id {rid[:60]!r} is not an id; row left out"))
            continue
        entry: dict[str, Any] = {"id": rid, "name": values.get("name") or rid}
        if (values.get("upstream") or "").startswith(("http://", "https://")):
            entry["upstream"] = values["upstream"]
        if _PATH.match(values.get("path") or ""):
            entry["path"] = values["path"]
        status = _STATUS.get((values.get("status") or "").strip().lower())
        if status:
            entry["status"] = status
        runtimes.append(entry)
    return runtimes


def _runtime_lists(rows: list[Block], runtimes: list[dict[str, Any]], notes: list[Note]) -> None:
    """Give each runtime its component list from a table whose columns are headed by the runtimes' names."""
    for column, label in enumerate(rows[0].cells[1:], start=1):
        runtime = next((r for r in runtimes if r["name"].lower() == label.strip().lower()), None)
        if runtime is None:
            continue
        group = Group(label=label)
        for row in rows[1:]:
            if column < len(row.cells) and row.cells[column]:
                add_entries(group, row.cells[column], row.line, notes)
        if group.entries:
            runtime["component_list"] = "partial" if group.cut else "complete"
            runtime["_entries"] = group.entries
        elif group.cut:  # the page has the list; the copy shows none of it
            runtime["component_list"] = "not-captured"


def read_runtimes(section: list[Block], notes: list[Note]) -> list[dict[str, Any]]:
    """The runtimes of the runtime section as record entries (``id``, ``name``, ``upstream``, ``path``,
    ``status``, and ``component_list``/``components`` where the page shows a list)."""
    runtimes: list[dict[str, Any]] = []
    for rows in table_runs(section):
        header = [c.strip().lower() for c in rows[0].cells]
        fields = [_FIELDS.get(c) for c in header]
        if "id" in fields and "name" in fields:
            runtimes += _runtime_rows(rows, fields, notes)
        elif runtimes and len(header) > 1:
            # the per-runtime lists: columns headed by the runtimes' names
            _runtime_lists(rows, runtimes, notes)
    return runtimes
