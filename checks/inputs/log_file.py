"""Reading a job's log (``lingjun-check --log FILE``, ``-`` for standard input) into the signature scanner.

A log can be anything a user pastes: a plain file, ``kubectl logs --prefix`` output, ``NCCL_DEBUG=INFO``
output, a Python traceback, ``dmesg``, a file of several GiB, one line of a GiB, UTF-16 from a Windows
editor, or not text at all.  :func:`scan_log` streams it in blocks of :data:`BLOCK` bytes, so memory stays
bounded (at most a block plus one line cut at :data:`MAX_LINE` bytes) and time linear, and hands the
scanner whole lines only:

* UTF-16 and UTF-32 with a byte-order mark, and UTF-16 without one (a NUL in every other byte), are decoded;
* a compressed file, an archive, an image or an executable (known by its first bytes) or data that is not text
  (NUL or control bytes in the first block) is refused with :class:`LogError`;
* a line longer than :data:`MAX_LINE` is cut there (the evidence notes it), the rest of it skipped.

The path is opened without blocking and must be a regular file (a FIFO or device is refused), except
``-``.  Standard library only.
"""

from __future__ import annotations

import codecs
import os
import re
import shlex
import stat
import sys
from typing import BinaryIO, Callable, Optional

from lingjun.checks.core.redaction import mask_text
from lingjun.checks.evidence import Evidence, LogLine, nothing_to_read, reported_errors
from lingjun.checks.inputs._binary_formats import binary_format
from lingjun.checks.knowledge.signatures import Scanner, SignatureSet, quote

__all__ = ["BLOCK", "MAX_LINE", "LogError", "scan_log", "scan_lines", "log_name"]

#: bytes read at a time
BLOCK = 4 << 20
#: the longest line examined, in bytes; the rest of a longer line is skipped
MAX_LINE = 1 << 20

#: control bytes that do not occur in text (tab, line feed, carriage return, form feed and ESC do)
_BINARY_CONTROLS = bytes(c for c in range(1, 32) if c not in (9, 10, 12, 13, 27))
_POD_PREFIX = re.compile(rb"^\[pod/[a-z0-9][a-z0-9.-]{0,252}/[a-z0-9][a-z0-9-]{0,62}\] ")


class LogError(ValueError):
    """The log cannot be read; ``str(error)`` is ``"<name>: <reason>"``."""


def log_name(path: str) -> str:
    """How a log is named in reports: ``standard input`` for ``-``, else the path as given, masked as a quoted line is
    (:func:`~lingjun.checks.core.redaction.mask_text`: a token in a file name, the user name of a home folder,
    ``/home/***/job.log``)."""
    return "standard input" if path == "-" else mask_text(path)


def _open(path: str) -> BinaryIO:
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise LogError("standard input: is closed")
        return stream
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise LogError(f"{path}: {kind}; give a log file or - for standard input")
    return os.fdopen(fd, "rb", buffering=0)


def _decoder(first: bytes) -> tuple[Optional[Callable[[bytes, bool], str]], int]:
    """A decoder for text that is not UTF-8 (None for UTF-8 and its BOM) and how many bytes of BOM to skip."""
    boms = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
            (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
    for bom, encoding in boms:
        if first.startswith(bom):
            return codecs.getincrementaldecoder(encoding)("replace").decode, len(bom)
    if first.startswith(codecs.BOM_UTF8):
        return None, len(codecs.BOM_UTF8)
    sample = first[:4096]
    if len(sample) >= 8:
        odd, even = sample[1::2], sample[0::2]
        if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
            return codecs.getincrementaldecoder("utf-16-le")("replace").decode, 0
        if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
            return codecs.getincrementaldecoder("utf-16-be")("replace").decode, 0
    return None, 0


def _refusal(name: str, first: bytes) -> Optional[str]:
    """Why ``first`` (the first block) is not a text log, or None: a compressed file, an archive, an image or an
    executable known by its first bytes (:func:`~lingjun.checks.inputs._binary_formats.binary_format`), or more
    than 1 % NUL / 2 % other control bytes in its first 64 KiB (a log cut short by a crash may hold a run of NULs;
    that alone is not binary).  Random bytes hold about 0.4 % NUL and 11 % other controls; a text log, tabs,
    carriage returns and ANSI colours aside, almost none."""
    known = binary_format(first)
    if known is not None:
        kind, command = known
        if command and name != "standard input":
            command = command.replace("FILE", shlex.quote(name))
        how = f"; read the text inside with {command}" if command else ""
        return f"{name}: is {kind}, not a text log{how}"
    if first and not first.strip(b"\x00"):  # zero-filled (a log whose writer crashed before it wrote any text)
        return f"{name}: holds only NUL bytes (a file zero-filled by a crash?), no text to read"
    # a run of NULs is what a writer that crashed leaves (a zero-filled page), not binary data: left out of the count
    sample = re.sub(rb"\x00{16,}", b"", first[:65536])
    nul = sample.count(0)
    controls = sum(sample.count(c) for c in _BINARY_CONTROLS)
    if sample and (nul > max(len(sample) // 100, 4) or controls > max(len(sample) // 50, 16)):
        return f"{name}: is not a text log (binary data: {nul} NUL and {controls} other control bytes in its first 64 KiB)"
    return None


def scan_log(path: str, sigset: SignatureSet, evidence: Evidence) -> None:
    """Scan the log ``path`` (``-``: standard input) into ``evidence``; a ``kubectl logs --prefix`` log
    also states ``place: kubernetes``.

    Raises:
        LogError: the log cannot be opened, is not a regular file, is compressed or is not text.
    """
    name = log_name(path)
    stream = _open(path)
    try:
        _scan_stream(stream, name, sigset.scanner(evidence, name), evidence)
    except OSError as exc:
        raise LogError(f"{name}: cannot read: {exc.strerror or exc}") from None
    finally:
        if path != "-":
            stream.close()


def _read(stream: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes (fewer only at the end of the stream)."""
    parts: list[bytes] = []
    got = 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _scan_stream(stream: BinaryIO, name: str, scanner: Scanner, evidence: Evidence) -> None:
    decode, data = _opening(_read(stream, BLOCK), name)
    blocks = _Blocks(stream, decode)
    data = blocks.lines_of(data)
    if _POD_PREFIX.match(data):
        from lingjun.checks.evidence import LogLine, StatedFact

        line = data[:data.find(b"\n")] if b"\n" in data else data[:200]
        evidence.stated.setdefault("place", StatedFact("place", "kubernetes",
                                                       LogLine(name, 1, line[:120].decode("utf-8", "replace"))))
    lines = _Lines(scanner)
    blocks.at_end = not data and not blocks.held_cr
    while not blocks.at_end or lines.carry or data:
        if not data and not blocks.at_end:
            data = blocks.next_block()
        buffer = lines.carry + data
        lines.carry, data = b"", b""
        if lines.take(buffer, blocks.at_end):
            break
    scanner.finish()
    evidence.lines += scanner.lines
    cut_lines = lines.cut_lines
    if cut_lines:
        evidence.notes.append((f"{name}: {cut_lines} line(s) longer than {MAX_LINE // 1024} KiB were read only up to that length",
                               f"{name}：{cut_lines} 行超过 {MAX_LINE // 1024} KiB，只读取了前 {MAX_LINE // 1024} KiB"))


def _opening(first: bytes, name: str) -> tuple[Optional[Callable[[bytes, bool], str]], bytes]:
    """``(decode, data)``: the decoder the first block's BOM calls for (None: read as UTF-8) and that block decoded.

    Raises:
        LogError: the log is not text (see :func:`_refusal`), or is binary once decoded as UTF-16/32.
    """
    decode, skip = _decoder(first)
    if decode is None:
        problem = _refusal(name, first)
        if problem:
            raise LogError(problem)
    data = first[skip:]
    if decode is not None:
        data = decode(data, False).encode("utf-8", "replace")
        if b"\x00" in data[:65536]:
            raise LogError(f"{name}: is not a text log (binary data after decoding it as UTF-16/32)")
    return decode, data


class _Blocks:
    """The stream's further blocks, as UTF-8 with LF line ends; ``at_end`` once a read returns nothing."""

    def __init__(self, stream: BinaryIO, decode: Optional[Callable[[bytes, bool], str]]) -> None:
        self.stream, self.decode = stream, decode
        self.held_cr = False  # a block ended in CR: its LF may open the next one (CR LF is one line end)
        self.at_end = False

    def lines_of(self, raw: bytes) -> bytes:
        """``raw`` with CR LF and a lone CR (a progress bar's line end) as LF, as Python's universal newlines read them."""
        if self.held_cr:
            raw = b"\r" + raw
        self.held_cr = raw.endswith(b"\r") and not self.at_end
        if self.held_cr:
            raw = raw[:-1]
        return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in raw else raw

    def next_block(self) -> bytes:
        raw = _read(self.stream, BLOCK)
        self.at_end = not raw
        return self.lines_of(self.decode(raw, self.at_end).encode("utf-8", "replace") if self.decode is not None else raw)


class _Lines:
    """Whole lines to the scanner: a line's start held (``carry``) until its end comes, a line past
    :data:`MAX_LINE` fed only up to that length and the rest of it skipped (counted in ``cut_lines``)."""

    def __init__(self, scanner: Scanner) -> None:
        self.scanner = scanner
        self.carry = b""
        self.skipping = False  # inside the rest of a line already cut at MAX_LINE
        self.cut_lines = 0

    def take(self, buffer: bytes, at_end: bool) -> bool:
        """Feed the complete lines of ``buffer`` (all of it ``at_end``); True when the scan is over."""
        if self.skipping:
            cut = buffer.find(b"\n")
            if cut < 0:
                return at_end
            buffer = buffer[cut + 1:]
            self.skipping = False
            self.scanner.lines += 1  # the cut line ends here
        if at_end:
            if buffer:
                self.scanner.feed_block(buffer)
            return True
        last = buffer.rfind(b"\n")
        if last < 0:
            self._hold(buffer)
            return False
        self.scanner.feed_block(buffer[:last + 1])
        self.carry = buffer[last + 1:]
        return False

    def _hold(self, buffer: bytes) -> None:
        """A line with no end yet: kept for the next block, or fed cut when it is already past :data:`MAX_LINE`."""
        if len(buffer) > MAX_LINE:
            # cut at the last blank before MAX_LINE: the rest of the line is never read, so a word cut in two could
            # not be masked whole (a token's first characters would lack the length masking knows it by)
            cut = max(buffer.rfind(b" ", 0, MAX_LINE), buffer.rfind(b"\t", 0, MAX_LINE))
            self.scanner.feed_block(buffer[:cut if cut > 0 else MAX_LINE] + b"\n")
            self.scanner.lines -= 1  # counted when its newline comes
            self.skipping = True
            self.cut_lines += 1
        else:
            self.carry = buffer


def scan_lines(lines: list[str], source: str, sigset: SignatureSet, evidence: Evidence, numbered: bool = False) -> None:
    """Scan a list of lines (a snapshot's ``symptoms.errors``: ``numbered`` False; a paste's lines: True)."""
    scanner = sigset.scanner(evidence, source)
    for i, line in enumerate(lines, 1):
        before = sum(h.count for h in evidence.hits)
        for part in str(line).splitlines() or [""]:
            scanner.feed_line(part, i if numbered else None)
        if not numbered and sum(h.count for h in evidence.hits) == before and str(line).strip():
            evidence.unmatched.append(LogLine(source, None, quote(str(line), "")))
    if numbered:
        scanner.finish()
        evidence.lines += len(lines)


def gather_evidence(data: object, facts: object, logs: list[str], input_path: Optional[str] = None,
                    paste: Optional[str] = None) -> Evidence:
    """Everything the user's logs show: each ``--log`` file, the snapshot's ``symptoms.errors`` (named after
    ``input_path``) and the lines of a collect_env ``paste`` (torch's warnings printed above it), matched
    against the signatures of ``data`` (:class:`~lingjun.checks.knowledge.bundle.KnowledgeData`).

    Raises:
        LogError: a log cannot be read (see :func:`scan_log`).
    """
    evidence = Evidence()
    if nothing_to_read(facts, logs, paste):
        return evidence  # nothing to read: the signatures are not even loaded (the zipapp keeps them apart)
    errors = reported_errors(facts)
    signatures = getattr(data, "signatures", [])
    sigset = SignatureSet(signatures, getattr(data, "catalog_message_literals", ()))
    if paste is not None and input_path:
        # the paste's own lines, numbered; the errors its parser quoted come from these lines, so they are only
        # checked for lines no signature knows
        scan_lines(paste.splitlines(), input_path, sigset, evidence, numbered=True)
        judge = sigset.scanner(evidence, input_path)  # the quoted lines under one time budget of their own
        for line in errors:
            if not line.strip():
                continue
            judged = sigset.matches_any(line, judge.search)
            # a line a pattern could not judge in time was reported as not judged by the paste's own scan (the
            # quoted lines are its lines); only with no such report is it quoted here, as an error line
            if judged is False or (judged is None and not evidence.not_judged):
                evidence.unmatched.append(LogLine(input_path, None, quote(line, "")))
    elif errors:
        where = f"{input_path}: symptoms.errors" if input_path else "the reported errors"
        scan_lines(errors, where, sigset, evidence)
    seen: set[tuple[int, int]] = set()
    for path in logs:
        if path != "-":
            try:
                info = os.stat(path)
            except OSError:
                info = None
            if info is not None and (info.st_dev, info.st_ino) in seen:
                note = (f"{log_name(path)} was given more than once and is read once",
                        f"{log_name(path)} 被多次给出，只读取一次")
                if note not in evidence.notes:
                    evidence.notes.append(note)
                continue
            if info is not None:
                seen.add((info.st_dev, info.st_ino))
        scan_log(path, sigset, evidence)
    return evidence
