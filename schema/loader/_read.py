"""Step 1: reading a data file's bytes (size limit, plain files only, byte-order marks, UTF-8)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional

from lingjun.checks.core.file_kind import file_kind
from lingjun.schema.loader._documents import DEFAULT_LIMITS, LoadLimits, _problem
from lingjun.schema.problems import Problem, Severity


_UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


def _file_type(mode: int) -> str:
    """What a non-regular file is, in words (``a FIFO``, ``a folder``): :func:`lingjun.checks.core.file_kind.file_kind`."""
    return file_kind(mode)


def _nul_encoding(raw: bytes) -> Optional[str]:
    """``"UTF-16"``/``"UTF-32"`` when NUL bytes make ``raw`` look like one without a BOM, else None.

    ASCII text in UTF-16 has a NUL in every other byte (every 4-byte group
    holds three in UTF-32); a stray NUL in UTF-8 text is left to the YAML
    reader, which reports it as a control character.
    """
    sample = raw[:4096]
    if len(sample) < 4:
        return None
    if sample[2::4].count(0) + sample[1::4].count(0) > len(sample) // 3 or \
            sample[1::4].count(0) + sample[0::4].count(0) > len(sample) // 3:
        return "UTF-32"
    if sample[1::2].count(0) > len(sample) // 4 or sample[0::2].count(0) > len(sample) // 4:
        return "UTF-16"
    return None


def read_text(path: Path, limits: LoadLimits = DEFAULT_LIMITS) -> tuple[Optional[str], list[Problem]]:
    """Read ``path`` as UTF-8 text.

    Returns ``(text, problems)``; ``text`` is None when the file cannot be
    used (too large, unreadable, not UTF-8).  A UTF-8 BOM is removed and
    reported as a warning (``file.bom``).
    """
    problems: list[Problem] = []
    try:
        # O_NONBLOCK: opening a FIFO named *.yaml must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                return None, [_problem(path, None, None, f"not a regular file ({_file_type(info.st_mode)}); "
                                       "a release data file must be a plain file", "file.read")]
            if info.st_size > limits.max_bytes:
                return None, [_problem(path, None, None, f"file is {info.st_size:,} bytes, over the limit of "
                                       f"{limits.max_bytes:,} bytes", "file.size")]
            raw = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        return None, [_problem(path, None, None, f"cannot read file: {exc.strerror or exc}", "file.read")]
    if len(raw) > limits.max_bytes:
        return None, [_problem(path, None, None, f"file is over the limit of {limits.max_bytes:,} bytes", "file.size")]
    if b"\x00" in raw and not raw.startswith((_UTF8_BOM, *_OTHER_BOMS)):
        encoding = _nul_encoding(raw)
        if encoding:
            return None, [_problem(path, 1, 1, f"file looks {encoding}-encoded (NUL bytes, no byte-order mark); "
                                   "save it as UTF-8", "file.encoding")]
    if raw.startswith(_UTF8_BOM):
        raw = raw[len(_UTF8_BOM):]
        problems.append(_problem(path, 1, 1, "file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM",
                                 "file.bom", Severity.warning))
    else:
        for bom, name in _OTHER_BOMS.items():
            if raw.startswith(bom):
                return None, [_problem(path, 1, 1, f"file is {name}-encoded; save it as UTF-8", "file.encoding")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        return None, [_problem(path, line, col,
                               f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8", "file.encoding")]
    return text, problems
