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

__all__ = ["DeepSpeedConfigError", "MAX_BYTES", "load", "load_lenient", "loads", "lookup", "NOT_STRICT_JSON"]

#: the note :func:`load_lenient` returns for a config that needed its comments or trailing commas removed
NOT_STRICT_JSON = "comments or trailing commas"

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


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Object hook: DeepSpeed loads configs with ``dict_raise_error_on_duplicate_keys`` and stops on a repeated key."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r} (DeepSpeed refuses a config with a repeated key)")
        result[key] = value
    return result


def _string_end(text: str, start: int) -> int:
    """Index just past the string literal whose opening quote is ``text[start]``.

    A backslash escapes the next character; an unclosed string runs to the
    end (the result may then exceed ``len(text)``, which slicing tolerates).
    """
    j, n = start + 1, len(text)
    while j < n and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _without_comments(text: str) -> str:
    """``text`` with ``//``, ``#`` and ``/* */`` comments outside strings removed and trailing commas dropped.

    A subset of hjson, the format DeepSpeed reads configs with; line breaks are
    kept so that JSON error positions still point at the right line.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = _string_end(text, i)
            out.append(text[i:j])
            i = j
        elif ch == "#" or text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            block = text[i:n if end < 0 else end + 2]
            out.append("\n" * block.count("\n"))
            i = n if end < 0 else end + 2
        else:
            out.append(ch)
            i += 1
    stripped = "".join(out)
    # drop a comma followed (through whitespace only) by a closing bracket, outside strings
    result: list[str] = []
    i, n = 0, len(stripped)
    while i < n:
        ch = stripped[i]
        if ch == '"':
            j = _string_end(stripped, i)
            result.append(stripped[i:j])
            i = j
            continue
        if ch == ",":
            j = i + 1
            while j < n and stripped[j] in " \t\r\n":
                j += 1
            if j < n and stripped[j] in "}]":
                i += 1
                continue
        result.append(ch)
        i += 1
    return "".join(result)


def loads(text: str, path: str = "<config>") -> dict[str, Any]:
    """Parse config text.

    Raises:
        DeepSpeedConfigError: invalid JSON (with line and column), NaN/Infinity, a repeated key, or a non-object top level.
    """
    try:
        data = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as exc:
        raise DeepSpeedConfigError(path, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise DeepSpeedConfigError(path, "invalid JSON: nested too deeply") from None
    except ValueError as exc:
        raise DeepSpeedConfigError(path, f"invalid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DeepSpeedConfigError(path, f"the top level must be a JSON object, not {type(data).__name__}", 1, 1)
    return data


def _read_text(path: "str | Path") -> str:
    """The config file's text (a UTF-8 BOM is dropped).

    Raises:
        DeepSpeedConfigError: the file is missing, unreadable, not a regular file, too large, or not UTF-8.
    """
    from lingjun.checks.inputs.input_file import InputFileError, read_input_file  # deferred: not every check needs it

    try:
        raw = read_input_file(str(path), MAX_BYTES)
    except InputFileError as exc:
        raise DeepSpeedConfigError(str(path), exc.reason) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DeepSpeedConfigError(str(path), "not UTF-8 text", line) from None
    return text


def load(path: "str | Path") -> dict[str, Any]:
    """Read and parse a config file.

    Raises:
        DeepSpeedConfigError: the file is missing, unreadable, too large, not UTF-8, or not a JSON object.
    """
    text = _read_text(path)
    return loads(text, str(path))


def load_lenient(path: "str | Path") -> tuple[dict[str, Any], "str | None"]:
    """Read a config as DeepSpeed does: ``(config, note)``.

    DeepSpeed parses config files with hjson, so ``//``, ``#`` and ``/* */``
    comments and trailing commas are accepted by DeepSpeed itself (but not by
    the ``json.load`` of transformers' and accelerate's ``HfDeepSpeedConfig``).
    Strict JSON gives ``note = None``; JSON that parses only once comments and
    trailing commas are removed gives ``note =`` :data:`NOT_STRICT_JSON`.

    Raises:
        DeepSpeedConfigError: as :func:`load`, with the strict parser's position when the relaxed reading fails too.
    """
    text = _read_text(path)
    try:
        return loads(text, str(path)), None
    except DeepSpeedConfigError as strict_error:
        if not strict_error.message.startswith("invalid JSON: ") or "duplicate key" in strict_error.message:
            raise
        relaxed = _without_comments(text)
        if relaxed == text:
            raise
        try:
            return loads(relaxed, str(path)), NOT_STRICT_JSON
        except DeepSpeedConfigError:
            raise strict_error from None


def lookup(config: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    """``(present, value)`` of a dotted key such as ``zero_optimization.stage3_prefetch_bucket_size``."""
    node: Any = config
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node
