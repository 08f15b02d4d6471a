"""Reading a DeepSpeed JSON config safely, for pre-flight checks.

Only the standard library is used.  The file is read with a size limit,
must be UTF-8 JSON with an object at the top, and ``NaN``/``Infinity`` are
refused (DeepSpeed would choke on them later).  Errors name the file, line
and column.

Example:
    >>> cfg = loads('{"zero_optimization": {"stage": 3}}', "ds.json")
    >>> lookup(cfg, "zero_optimization.stage")
    (True, 3)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["DeepSpeedConfigError", "MAX_BYTES", "load", "loads", "lookup"]

#: configs larger than this are refused (a DeepSpeed config is a few KiB)
MAX_BYTES = 4 * 1024 * 1024


class DeepSpeedConfigError(ValueError):
    """The config cannot be used; ``str()`` is ``"<file>:<line>:<col>: <what>"`` (line/col when known)."""

    def __init__(self, path: str, message: str, line: int | None = None, column: int | None = None) -> None:
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        where = path if line is None else f"{path}:{line}:{column or 1}"
        super().__init__(f"{where}: {message}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(text: str, path: str = "<config>") -> dict[str, Any]:
    """Parse config text.

    Raises:
        DeepSpeedConfigError: invalid JSON (with line and column), NaN/Infinity, or a non-object top level.
    """
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise DeepSpeedConfigError(path, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise DeepSpeedConfigError(path, "invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise DeepSpeedConfigError(path, f"invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DeepSpeedConfigError(path, f"the top level must be a JSON object, not {type(data).__name__}", 1, 1)
    return data


def load(path: "str | Path") -> dict[str, Any]:
    """Read and parse a config file.

    Raises:
        DeepSpeedConfigError: the file is missing, unreadable, too large, not UTF-8, or not a JSON object.
    """
    from lingjun.checks.input_file import InputFileError, read_input_file

    try:
        raw = read_input_file(str(path), MAX_BYTES)
    except InputFileError as exc:
        raise DeepSpeedConfigError(str(path), exc.reason) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DeepSpeedConfigError(str(path), "not UTF-8 text", line) from None
    return loads(text, str(path))


def lookup(config: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    """``(present, value)`` of a dotted key such as ``zero_optimization.stage3_prefetch_bucket_size``."""
    node: Any = config
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node
