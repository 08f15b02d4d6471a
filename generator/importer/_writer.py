"""Writing the draft or the conflicts: YAML in the style ``lingjun-kb new`` writes, never over a file.

The YAML is rendered by the same block writer as ``lingjun-kb new``
(:mod:`lingjun.generator.new_release`): the ``# yaml-language-server``
header, short flat mappings on one line, versions always quoted.  The
file is created with :func:`lingjun.generator.new_release.write_new` (a
hard link from a temporary file: it fails if the target exists, even if
it appeared meanwhile), after the project's output-path check
(:func:`lingjun.checks.core.atomic_write.check_output_file`, which refuses
folders, links, FIFOs, devices and every existing file).
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

from lingjun.checks.core.atomic_write import UnsafeOutputPath, check_output_file
from lingjun.generator.importer._errors import REFUSED, USAGE, ImportRefused
from lingjun.generator.new_release import NewReleaseError, SCHEMA_COMMENT, render_block, write_new

__all__ = ["render_draft", "render_conflicts", "check_output", "write_output", "check_output_folder"]


def _one_line(text: str) -> str:
    """``text`` safe inside a one-line YAML comment: control and line-breaking characters become ``?``."""
    return "".join("?" if (ord(c) < 32 or 0x7f <= ord(c) <= 0x9f or c in "\u2028\u2029\x85") else c for c in text)


def render_draft(draft: dict[str, Any], page_name: str) -> str:
    """The draft record as YAML text, with the schema header and a comment saying what to do."""
    lines = [
        SCHEMA_COMMENT,
        f"# Drafted by `lingjun-kb import` from {_one_line(page_name)}.",
        "# The page's sentences sit behind 'reword' placeholders: facts are taken from the pages, prose is not.",
        "# Replace every TODO(lingjun-kb new) value, or delete its entry, until `lingjun-kb validate` passes.",
    ]
    for key, value in draft.items():
        lines += render_block(key, value, 0)
    return "\n".join(lines) + "\n"


def render_conflicts(found: dict[str, Any], ref: str, record_path: str, page_name: str, compared: bool = True,
                     cited: bool = True) -> str:
    """The conflicts and missing sources as YAML to merge into the existing record by hand.

    ``compared`` False: the record's file exists but does not load, so nothing could be compared.
    ``cited`` False: the page shows no address, so it cannot be told whether the record cites it.
    """
    lines = [f"# `lingjun-kb import` of {_one_line(page_name)}: {ref} already has a record ({_one_line(record_path)}).",
             "# Nothing was written there: merge what applies into it by hand.",
             "# Each source_conflicts entry needs its reason (and `kept`).",
             ]
    if not compared:
        lines.append("# The record does not load (run `lingjun-kb validate` on it), so the page was not compared with it.")
        return "\n".join(lines) + "\n"
    if not found:
        lines.append("# The page agrees with the record on every value compared"
                     + (", and the record cites it." if cited else "."))
        if not cited:
            lines.append("# The page shows no address, so whether the record cites it is not known: "
                         "check the record's sources.")
        lines.append("source_conflicts: []")
    for key, value in found.items():
        lines += render_block(key, value, 0)
    return "\n".join(lines) + "\n"


#: refusals of the output path itself (empty, a folder) or of its folder (a path through a file, a read-only file
#: system, no permission, missing): usage errors, exit 2, as for every lingjun-kb output option
_USAGE_ERRNOS = (errno.EISDIR, errno.EINVAL, errno.ENOTDIR, errno.EROFS, errno.EACCES, errno.ENOENT)


def check_output(path: Path) -> None:
    """Refuse an output path ``import`` may not create (the project's output-path check, nothing replaced).

    Raises:
        ImportRefused: the path exists, or is a link, FIFO, socket or device (status 1); an empty name, a folder,
            a path through a file, a folder on a read-only file system or not writable, or a missing folder
            (status 2).
    """
    try:
        check_output_file(path, replaceable=lambda _p: False, ours="a file to replace", make_parents=False)
    except UnsafeOutputPath as exc:
        if exc.errno == errno.EEXIST and path.is_file() and not path.is_symlink():
            raise ImportRefused(f"{path} exists; import never replaces a file: choose a new path", REFUSED) from None
        raise ImportRefused(f"output {path}: {exc.strerror}", USAGE if exc.errno in _USAGE_ERRNOS else REFUSED) from None
    except OSError as exc:
        raise ImportRefused(f"output {path}: {exc.strerror or exc}", USAGE) from None


def write_output(path: Path, content: str) -> None:
    """Create ``path`` holding ``content``; never replace anything (checked again: :func:`check_output`).

    Raises:
        ImportRefused: as :func:`check_output`; a file that cannot be written (status 1).
    """
    check_output(path)
    try:
        write_new(path, content)
    except NewReleaseError as exc:
        raise ImportRefused(str(exc), REFUSED) from None


def check_output_folder(path: Path) -> None:
    """Refuse an ``-o`` path whose folder does not exist (a typo must not make a tree of folders).

    Raises:
        ImportRefused: the folder is missing or is not a folder (status 2).
    """
    folder = path.parent
    if not folder.is_dir():
        raise ImportRefused(f"output {path}: the folder {folder} does not exist; create it first", USAGE)
