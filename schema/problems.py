"""Problems found in the release data: the one report type of the loader and the gate.

A :class:`Problem` names the file, the 1-based line and column, the dotted
field path inside the document (``components.3.version``), a message, a
severity and the id of the rule that found it.  The YAML loader
(:mod:`lingjun.schema.loader`) and the cross-record gate
(:mod:`lingjun.schema.gate`) both report with it; ``lingjun-kb validate``
prints it.

Rule ids used by the loader itself:

==========================  ==============================================
``file.*``                  reading the file (size, encoding, BOM, empty)
``yaml.*``                  YAML syntax and the safety checks (tags, aliases,
                            duplicate keys, tabs, unquoted non-strings)
``schema.*``                pydantic validation of the document
``internal``                an unexpected exception while handling the file
``data.*``                  the gate's cross-record rules
==========================  ==============================================

Examples:
    >>> p = Problem("releases/a/25.07.yaml", 3, 10, "version", "quote it", Severity.error, "yaml.unquoted-string")
    >>> p.format()
    'releases/a/25.07.yaml:3:10: version: quote it [error yaml.unquoted-string]'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence, Union

from lingjun.checks.core.inert_text import inert
from lingjun.schema.models import Severity

__all__ = ["Problem", "Severity", "field_path", "one_line", "sort_problems", "count_by_severity"]

#: one element of a location inside a document: a mapping key or a sequence index
LocPart = Union[str, int]

_SEVERITY_ORDER = {Severity.error: 0, Severity.warning: 1, Severity.info: 2}


def one_line(text: str, keep_line_breaks: bool = False) -> str:
    """``text`` with control and bidirectional characters written as escapes (``\\n``, ``\\u202e``),
    shortened past :data:`~lingjun.checks.core.inert_text.ECHO_LIMIT` characters.

    The text format prints one problem per line; a file name, key or value
    holding a newline must not start a line of its own (it could forge an
    ``OK`` line or a problem in another file).  The one implementation is
    :func:`lingjun.checks.core.inert_text.inert`, which ``lingjun-check`` uses too.

    >>> one_line("a\\nb\\u202ec")
    'a\\\\nb\\\\u202ec'

    With ``keep_line_breaks`` ``\\n`` and ``\\r`` are left for the caller
    (GitHub annotations encode them as ``%0A``/``%0D``).
    """
    return inert(text, keep_line_breaks=keep_line_breaks)


def field_path(loc: Sequence[LocPart]) -> str:
    """Dotted form of a location: ``("components", 3, "version")`` -> ``"components.3.version"``."""
    return ".".join(str(part) for part in loc)


@dataclass(frozen=True)
class Problem:
    """One problem in one file.

    Attributes:
        path: the file, as given to the loader (relative paths stay relative).
        line: 1-based line, or None when the problem has no position (a file that cannot be read).
        col: 1-based column (characters, not bytes), or None.
        field: dotted field path inside the document (``components.3.version``); ``""`` for the whole file.
        message: what is wrong and, where possible, how to fix it.
        severity: :class:`~lingjun.schema.models.Severity`: ``error`` fails validation,
            ``warning`` and ``info`` do not.
        rule: id of the check that found it (``yaml.duplicate-key``, ``schema.missing``, ``data.unique-release``).
    """

    path: str
    line: int | None
    col: int | None
    field: str
    message: str
    severity: Severity
    rule: str

    @property
    def is_error(self) -> bool:
        """True for ``error`` severity."""
        return self.severity is Severity.error

    def location(self) -> str:
        """``path:line:col`` (or ``path`` alone when there is no position)."""
        path = one_line(str(self.path))
        if self.line is None:
            return path
        return f"{path}:{self.line}:{self.col if self.col is not None else 1}"

    def format(self) -> str:
        """``path:line:col: field.path: message [severity rule]`` (the field part is left out when empty).

        Always one line: control characters in the path, field or message are
        escaped (see :func:`one_line`).
        """
        field = f"{one_line(self.field)}: " if self.field else ""
        return f"{self.location()}: {field}{one_line(self.message)} [{self.severity.value} {self.rule}]"

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``lingjun-kb validate --format json`` prints for this problem."""
        return {
            "path": str(self.path),
            "line": self.line,
            "col": self.col,
            "field": self.field,
            "message": self.message,
            "severity": self.severity.value,
            "rule": self.rule,
        }

    def sort_key(self) -> tuple:
        """Order by file, position, then severity."""
        return (str(self.path), self.line or 0, self.col or 0, _SEVERITY_ORDER[self.severity], self.rule, self.message)


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Problems ordered by file, line, column and severity, duplicates removed."""
    return sorted(set(problems), key=Problem.sort_key)


def count_by_severity(problems: Iterable[Problem]) -> dict[Severity, int]:
    """``{Severity.error: n, Severity.warning: n, Severity.info: n}``."""
    counts = {s: 0 for s in Severity}
    for problem in problems:
        counts[problem.severity] += 1
    return counts

