"""Printing the result of ``lingjun-kb validate`` as text, GitHub Actions annotations or JSON.

JSON format (``--format json``): one JSON array on standard output, one
object per reported problem, sorted by file, line and column::

    [{"path": "releases/training-nv-pytorch/25.07.yaml",  # file, as named on the command line
      "line": 3,            # 1-based line, or null when the file could not be read
      "col": 10,            # 1-based column (characters), or null
      "field": "version",   # dotted field path in the document ("" for the whole file)
      "message": "...",     # what is wrong and how to fix it
      "severity": "error",  # "error" | "warning" | "info"; only errors fail validation
      "rule": "yaml.unquoted-string"}]  # file.*, yaml.*, schema.*, data.* (gate rules) or internal

Nothing else is written to standard output in JSON mode.
"""

from __future__ import annotations

from typing import Iterable, TextIO

from lingjun.checks.core.inert_text import dumps
from lingjun.schema.gate.validate import Validation
from lingjun.schema.kb import KnowledgeBase, release_sort_key
from lingjun.schema.models import DriverVendor, FamilyRole
from lingjun.schema.problems import Problem, Severity, count_by_severity, one_line
from lingjun.schema.release_images import release_images

__all__ = ["print_text", "print_github", "print_json", "summary_rows", "summary_table", "counts_line"]

_GITHUB_COMMANDS = {Severity.error: "error", Severity.warning: "warning", Severity.info: "notice"}


def _github_escape(text: str, property_value: bool = False) -> str:
    """Escape per the GitHub workflow-command rules (``%``, CR, LF; also ``:`` and ``,`` in properties)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_annotation(problem: Problem) -> str:
    """``::error file=...,line=...,col=...,title=<rule>::<field>: <message>`` for one problem."""
    props = [f"file={_github_escape(one_line(problem.path), True)}"]
    if problem.line is not None:
        props.append(f"line={problem.line}")
        props.append(f"col={problem.col or 1}")
    props.append(f"title={_github_escape(problem.rule, True)}")
    body = f"{problem.field}: {problem.message}" if problem.field else problem.message
    # control characters from the data are escaped; line breaks become %0A (GitHub's own escape)
    return f"::{_GITHUB_COMMANDS[problem.severity]} {','.join(props)}::{_github_escape(one_line(body, keep_line_breaks=True))}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def counts_line(validation: Validation) -> str:
    """``3 errors, 1 warning, 0 notes in 12 files`` (plus the count of problems in files not named)."""
    counts = count_by_severity(validation.problems)
    plural = _plural

    line = (f"{plural(counts[Severity.error], 'error')}, {plural(counts[Severity.warning], 'warning')}, "
            f"{plural(counts[Severity.info], 'note')} in {plural(validation.files, 'file')}")
    if validation.hidden:
        line += (f" ({plural(len(validation.hidden), 'more problem')} in other files of the releases tree; "
                 "run `lingjun-kb validate` without paths to see them)")
    return line


def _per_image(values: list[str]) -> str:
    """One value per image, joined with ``/`` when the images differ (``2.6.0`` or ``2.6.0/2.5.1``)."""
    distinct = list(dict.fromkeys(values))
    return "/".join(distinct) if len(distinct) > 1 else distinct[0]


def summary_rows(kb: KnowledgeBase) -> list[list[str]]:
    """One row per release: family, version, status, CUDA, torch, driver minimum, components.

    Product families come first, then base images; newest release first within a family (date order,
    :func:`~lingjun.schema.kb.release_sort_key`).  A release with variants shows each image's CUDA and
    torch, joined with ``/`` where they differ, and each image's number of components joined with ``+``.
    A missing value is shown as ``-``.
    """
    role_rank = {f.id: (0 if f.role is FamilyRole.product else 1) for f in kb.families.values()}
    records = sorted(kb.releases, key=release_sort_key, reverse=True)  # newest first within a family
    records.sort(key=lambda r: (role_rank.get(r.family, 2), r.family))  # stable: keeps the date order
    rows = []
    for record in records:
        images = release_images(record)
        torch = _per_image([next((c.version for c in i.components if c.id == "torch"), "-") for i in images])
        cuda = _per_image([i.cuda or "-" for i in images])
        driver = "-"
        if record.driver is not None:
            prefix = "R" if record.driver.vendor is DriverVendor.nvidia and "." not in record.driver.minimum else ""
            driver = f"{prefix}{record.driver.minimum}" + ("" if record.driver.vendor is DriverVendor.nvidia else " (PPU)")
        rows.append([record.family, record.version, record.status.value, cuda, torch, driver,
                     "+".join(str(len(i.components)) for i in images)])
    return rows


def summary_table(kb: KnowledgeBase) -> str:
    """The releases as an aligned plain-text table (empty string when there is no release)."""
    header = ["family", "version", "status", "CUDA", "torch", "driver min", "components"]
    rows = [[one_line(cell) for cell in row] for row in summary_rows(kb)]  # record values, shown inert
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    right = {6}

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    previous_family = None
    for row in rows:
        if previous_family is not None and row[0] != previous_family:
            out.append("")
        out.append(line(row))
        previous_family = row[0]
    return "\n".join(out)


def _families_line(kb: KnowledgeBase) -> str:
    families = sorted({r.family for r in kb.releases})
    return (f"{_plural(len(kb.releases), 'release')} in {len(families)} famil{'y' if len(families) == 1 else 'ies'}, "
            f"{_plural(len(kb.components), 'catalog component')}, {_plural(len(kb.known_issues), 'known issue')}")


def print_text(validation: Validation, out: TextIO, summary: bool = True) -> None:
    """Problems one per line (``path:line:col: field: message [severity rule]``), then the counts.

    When there is no error and ``summary`` is true, the release table follows.
    """
    for problem in validation.problems:
        print(problem.format(), file=out)
    if validation.problems:
        print(file=out)
    verdict = "FAILED" if not validation.ok else "OK"
    print(f"{verdict}: {counts_line(validation)}", file=out)
    if validation.ok and summary:
        table = summary_table(validation.kb)
        if table:
            print(_families_line(validation.kb), file=out)
            print(file=out)
            print(table, file=out)


def print_github(validation: Validation, out: TextIO, summary: bool = True) -> None:
    """GitHub Actions annotations (``::error``/``::warning``/``::notice``), then the text summary."""
    for problem in validation.problems:
        print(github_annotation(problem), file=out)
    verdict = "FAILED" if not validation.ok else "OK"
    print(f"{verdict}: {counts_line(validation)}", file=out)
    if validation.ok and summary:
        table = summary_table(validation.kb)
        if table:
            print(table, file=out)


def print_json(problems: Iterable[Problem], out: TextIO) -> None:
    """The documented JSON array (see the module docstring).

    Non-ASCII characters are written as they are to a UTF-8 stream and as
    ``\\uXXXX`` escapes to any other (``PYTHONIOENCODING=ascii``, a C locale);
    control and bidi characters are always escapes (:func:`lingjun.checks.core.inert_text.dumps`).
    """
    encoding = (getattr(out, "encoding", None) or "utf-8").lower().replace("_", "-")
    # strings shortened past ECHO_LIMIT characters; C1 controls, DEL and bidi controls as \\uNNNN like C0
    out.write(dumps([p.to_json() for p in problems], ensure_ascii=encoding not in ("utf-8", "utf8"), indent=2))
    out.write("\n")
