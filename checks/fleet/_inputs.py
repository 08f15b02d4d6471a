"""Read the inputs of ``lingjun-check fleet``: snapshot and report files, folders, and JSON-line streams.

An input is one of:

* a file holding one JSON object (a snapshot written by ``--collect FILE``, a
  report printed by ``--format json``);
* a file of lines (``*.jsonl``, ``*.log``, a ``*.json`` file whose first line is
  a whole JSON object followed by more lines, or any file that is not one JSON
  object), read like a stream;
* a folder, walked in name order for ``*.json``, ``*.jsonl`` and ``*.log``
  files (hidden entries and links are skipped; each link skipped is said in a
  note, or, when the folder holds nothing else, in a problem);
* ``-``: standard input, read as a stream.

A stream is what ``kubectl logs --prefix [--timestamps]`` prints for a set of
pods: each line may start with ``[pod/<pod>/<container>] `` and an RFC 3339
time stamp, in either order.  A line whose text then starts with ``{"`` is a
record and must be a complete JSON object; every other line (the text report
``--collect -`` writes to standard error, other programs' output) is skipped.
A JSON object without a ``"schema"`` starting with ``lingjun-check/`` is
skipped too (another program's JSON log line).

Records are snapshots (``lingjun-check/snapshot/1``) and reports
(``lingjun-check/report/1``).  A snapshot of another version of the schema (``lingjun-check/snapshot/2``, written
by a newer checker) is read as ``--from`` reads it: what this checker knows of it, with one note naming the file
(the snapshot reader's problem ``schema: expected ..., got ...; reading it anyway``) and the node's
``checker.snapshot`` warning; a report of another version is refused.  A line or file that starts like a snapshot
(``{"schema": "lingjun-check/snapshot/1",``) and ends with ``}`` is kept as text
and parsed only when needed (:meth:`Record.load`): nodes of one job mostly
carry the same facts, and :mod:`lingjun.checks.fleet._check` recognises a
repeat from the text alone.  Records are produced one at a time
(:func:`iter_records`), so a fleet of any size is never held in memory at once.  Whatever cannot be used is an
:class:`InputProblem` naming the input and line: a file that cannot be read,
a line cut short, a line longer than :data:`MAX_LINE_BYTES` (a one-object file larger than that is refused
too: say so and read it as JSON lines instead), a file of lines is read to its end however large, text that is not
UTF-8, a report of another schema version, an input with no record at all.  Reading never
raises for bad input.  Standard library only.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
import sys
from typing import IO, Any, Iterator, Optional

from lingjun.checks.core.inert_text import NAME_LIMIT, inert
from lingjun.checks.inputs import snapshot_json
from lingjun.checks.inputs.snapshot_json import DuplicateKeyError

__all__ = ["MAX_LINE_BYTES", "MAX_FILE_BYTES", "SNAPSHOT", "SNAPSHOT_VERSIONS", "REPORT", "Record", "RecordError", "InputProblem", "iter_records", "read_inputs",
           "parse_line_prefix"]

#: the longest line (or one-object file) read, in bytes; a longer one is refused, not read into memory
MAX_LINE_BYTES = 16 * 1024 * 1024
#: the most bytes read of one file of lines or stream; None (the default): read to its end, however large (it is
#: read one line at a time and never held whole).  When set, what is past it is one problem, never cut silently
MAX_FILE_BYTES: Optional[int] = None
SNAPSHOT = "lingjun-check/snapshot/1"
REPORT = "lingjun-check/report/1"
#: what every version of the snapshot schema starts with: a record of another version is read as a snapshot too
SNAPSHOT_VERSIONS = "lingjun-check/snapshot/"
_SUFFIXES = (".json", ".jsonl", ".log")

# "[pod/<pod>/<container>] " (kubectl logs --prefix) and "2025-08-01T10:00:00.123456789Z " (--timestamps)
_POD_PREFIX = re.compile(r"\[pod/([^/\]\s]*)(?:/([^\]\s]*))?\] ?")
#: where a lingjun-check record starts, anywhere in a line (after a prefix this reader does not know)
_RECORD_START = re.compile(r'\{\s*"schema"\s*:\s*"lingjun-check/')
#: characters before a prefix that are not part of it: white space, a byte order mark (a file concatenated mid-stream)
_LEAD = " \t\ufeff"
#: the byte order marks of UTF-16 and UTF-32 text (PowerShell's `>` writes UTF-16 LE)
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))
_SNAPSHOT_TEXT = re.compile(r'\{\s*"schema"\s*:\s*"lingjun-check/snapshot/1"\s*,')
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:?\d\d) ")


class RecordError(ValueError):
    """The text of a record is not a usable JSON object; ``str(error)`` says why."""


@dataclass
class Record:
    """One snapshot or report found in an input.

    ``input`` is the input's name as shown (inert); ``line`` the 1-based line of a stream, None for a
    one-object file; ``pod`` the pod name of a ``kubectl logs --prefix`` line, else None; ``kind``
    :data:`SNAPSHOT` or :data:`REPORT`; ``data`` the parsed JSON object, or None while only ``text``
    (the JSON text of a snapshot, not parsed yet) is kept.
    """

    input: str
    line: Optional[int]
    pod: Optional[str]
    kind: str
    data: Optional[dict]
    text: Optional[str] = None
    #: the command-line input it was found in (a folder, a file, ``stdin``), as shown; set by :func:`iter_records`
    origin: Optional[str] = None

    def load(self) -> dict:
        """``data``, parsed from ``text`` first when needed (then ``text`` is dropped).

        Raises:
            RecordError: the text is not one complete JSON object of the snapshot schema.
        """
        if self.data is None:
            self.data = _parse_snapshot_text(self.text or "")
            self.text = None
        return self.data

    def load_members(self) -> "tuple[dict, Optional[dict]]":
        """``(data, members)``: :meth:`load`, and when the record was still text the JSON text of each top-level
        member (``{key: text}``, read in the same pass: no second dump), else None.

        Raises:
            RecordError: as :meth:`load`.
        """
        if self.data is not None:
            return self.data, None
        try:
            found = _top_members(self.text or "")
        except DuplicateKeyError as exc:
            raise RecordError(f"{exc}; skipped") from None
        if found is None or found[0].get("schema") != SNAPSHOT:
            return self.load(), None  # not one object: load says why, in its words
        self.data, self.text = found[0], None
        return found


    @property
    def where(self) -> str:
        """``input`` or ``input:line``, as ``pod/NAME (input:line)`` for a ``kubectl logs --prefix`` line."""
        return _where(self.input, self.line, self.pod)


_DECODER = snapshot_json.DECODER  # the readers of --from's: long numbers kept as text, repeated keys refused
_BLANK = re.compile(r"[ \t\n\r]*")


def _top_members(text: str) -> "Optional[tuple[dict, dict]]":
    """``(object, {key: value text})`` of a JSON object's text, each member's value decoded by the standard decoder
    (as :func:`lingjun.checks.inputs.snapshot_json.loads` would); None when the text is not one JSON object.

    Raises:
        DuplicateKeyError: a key repeated in the object or inside a member's value.
    """
    at = _BLANK.match(text, 0).end()
    if not text.startswith("{", at):
        return None
    data: dict = {}
    members: dict = {}
    at = _BLANK.match(text, at + 1).end()
    if text.startswith("}", at):
        return (data, members) if not text[at + 1:].strip(" \t\n\r") else None
    try:
        while True:
            if not text.startswith('"', at):
                return None
            key, at = _DECODER.raw_decode(text, at)
            if key in data:
                raise DuplicateKeyError(key)
            at = _BLANK.match(text, at).end()
            if not text.startswith(":", at):
                return None
            start = _BLANK.match(text, at + 1).end()
            value, end = _DECODER.raw_decode(text, start)
            data[key] = value
            members[key] = text[start:end]
            at = _BLANK.match(text, end).end()
            if text.startswith(",", at):
                at = _BLANK.match(text, at + 1).end()
                continue
            if text.startswith("}", at) and not text[at + 1:].strip(" \t\n\r"):
                return data, members
            return None
    except DuplicateKeyError:
        raise
    except (ValueError, RecursionError):
        return None


def _where(name: str, line: Optional[int], pod: Optional[str]) -> str:
    """How a record's input is named in the report: its path (and line), its pod; secrets in them masked whole first
    (:func:`~lingjun.checks.core.redaction.mask_text`), then cut."""
    from lingjun.checks.core.redaction import mask_text  # deferred: as the report is written

    name = mask_text(name, identifiers=False)
    at = name if line is None else f"{name}:{line}"
    return f"pod/{inert(mask_text(pod, identifiers=False), NAME_LIMIT)} ({at})" if pod else at


@dataclass
class InputProblem:
    """An input (or one line of it) that could not be used: ``where`` (``input``, ``input:line`` or
    ``pod/NAME (input:line)``) and ``reason``.  ``note``: not a problem, only said (a retried pod's second
    snapshot of the same facts); ``warning``: not a problem either, but what the inputs claim looks wrong (a
    cluster left at the manifests' placeholder, two clusters under one name), naming ``inputs``, the inputs it
    is about (``input`` is them listed).  Notes and warnings leave the exit code alone."""

    input: str
    line: Optional[int]
    reason: str
    pod: Optional[str] = None
    note: bool = False
    warning: bool = False
    inputs: "tuple[str, ...]" = ()

    @property
    def is_problem(self) -> bool:
        """Whether it counts against the exit code (neither a note nor a warning)."""
        return not (self.note or self.warning)

    @property
    def where(self) -> str:
        """``input`` or ``input:line`` (``pod/NAME (input:line)`` for a ``kubectl logs --prefix`` line)."""
        return _where(self.input, self.line, self.pod)

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


def _size_text(size: int) -> str:
    """``16 MiB`` for a whole number of MiB, else ``65536 bytes``."""
    return f"{size // (1024 * 1024)} MiB" if size % (1024 * 1024) == 0 else f"{size} bytes"


def _parse_snapshot_text(text: str) -> dict:
    try:
        obj = snapshot_json.loads(text)
    except DuplicateKeyError as exc:
        raise RecordError(f"{exc}; skipped") from None
    except RecursionError:
        raise RecordError("JSON nested too deeply; skipped") from None
    except ValueError as exc:
        raise RecordError(f"not a complete JSON object (cut short?): {exc}; skipped") from None
    if not isinstance(obj, dict) or obj.get("schema") != SNAPSHOT:  # the text started like one, so it is one
        raise RecordError("not a complete JSON object (cut short?); skipped")
    return obj


def _shown(path: str) -> str:
    return inert(path, NAME_LIMIT)


def parse_line_prefix(text: str) -> "tuple[Optional[str], str]":
    """``(pod, rest)``: the pod of a ``[pod/<pod>/<container>]`` prefix (None without one, or with an empty pod
    name) and the line without its prefixes (one or more ``[pod/...]``, with or without the space after them),
    without RFC 3339 time stamps (before or after a prefix) and without leading white space or byte order marks."""
    pod = None
    text = text.lstrip(_LEAD)
    for _ in range(4):
        match = _POD_PREFIX.match(text)
        if match:
            if pod is None and match.group(1):
                pod = match.group(1)
            text = text[match.end():].lstrip(_LEAD)
            continue
        match = _TIMESTAMP.match(text)
        if match:
            text = text[match.end():].lstrip(_LEAD)
            continue
        break
    return pod, text


def _wide_encoding(raw: bytes) -> Optional[str]:
    """"UTF-16" or "UTF-32" when ``raw`` (the start of a file or line) is text of that encoding, else None."""
    for bom, name in _WIDE_BOMS:
        if raw.startswith(bom):
            return name
    if b'{\x00"\x00' in raw[:400] or b'\x00{\x00"' in raw[:400]:
        return "UTF-16"
    return None


def _classify(obj: Any, name: str, line: Optional[int], pod: Optional[str], problems: list, strict: bool) -> Optional[Record]:
    """``obj`` as a record, or None (a problem added when it is lingjun-check output of another kind or version).

    ``strict``: a JSON object that is not lingjun-check output is a problem too (a one-object file), else skipped.
    """
    schema = obj.get("schema") if isinstance(obj, dict) else None
    if schema in (SNAPSHOT, REPORT):
        return Record(name, line, pod, schema, obj)
    if isinstance(schema, str) and schema.startswith(SNAPSHOT_VERSIONS):  # read as --from reads it, the reader warns
        return Record(name, line, pod, SNAPSHOT, obj)
    if isinstance(schema, str) and schema.startswith("lingjun-check/"):
        if schema.startswith("lingjun-check/fleet/"):
            reason = "a fleet report, not one node's snapshot or report; give the inputs it was made from"
        else:
            reason = (f"schema {inert(schema, 80)!r} is not supported: this lingjun-check reads {SNAPSHOT} and {REPORT} "
                      "(use the lingjun-check that wrote it, or collect again)")
        problems.append(InputProblem(name, line, reason, pod))
    elif strict:
        problems.append(InputProblem(name, line, "a JSON object that is not a lingjun-check snapshot or report (no \"schema\": \"lingjun-check/...\")"))
    return None


def _stream(handle: IO[bytes], name: str, problems: list, limit: Optional[int] = None) -> Iterator[Record]:
    """The records of the JSON lines of the binary ``handle`` (see the module docstring), to its end; with a ``limit``
    (:data:`MAX_FILE_BYTES` when set) at most that many bytes, over-long lines skipped included: past it, one
    problem and the rest is not read.

    A line ends with LF, CR LF or a lone CR.  A line that holds a lingjun-check record anywhere (after a prefix
    this reader does not know) is read from where the record starts; one that cannot be read is a problem,
    never skipped silently.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    number = 0
    seen = 0
    found = 0
    problems_before = len(problems)

    def over() -> bool:
        if limit is not None and seen > limit:
            problems.append(InputProblem(name, number, f"more than {_size_text(limit)}; the rest is not read"))
            return True
        return False

    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            break
        number += 1
        seen += len(raw)
        if over():
            break
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            problems.append(InputProblem(name, number, f"line longer than {_size_text(MAX_LINE_BYTES)}; skipped"))
            stop = False
            while True:  # skip the rest of the line without keeping it, still counting towards the limit
                rest = handle.readline(1024 * 1024)
                seen += len(rest)
                if over():
                    stop = True
                    break
                if not rest or rest.endswith(b"\n"):
                    break
            if stop:
                break
            continue
        if number == 1:
            wide = _wide_encoding(raw)
            if wide:
                problems.append(InputProblem(name, None, f"{wide} text, not UTF-8: convert it first "
                                             f"(iconv -f {wide} -t UTF-8); not read"))
                return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if b'{"' in raw[:200] or b'"lingjun-check/' in raw:
                problems.append(InputProblem(name, number, "a JSON line that is not UTF-8 text; skipped"))
            continue
        for part in _LINE_BREAK.split(text.rstrip("\r\n")):
            for record in _records_of_line(part, name, number, problems):
                found += 1
                yield record
    if found == 0 and len(problems) == problems_before:
        problems.append(InputProblem(name, None, f"no lingjun-check snapshot or report in it ({number} line{'' if number == 1 else 's'} read)"))


_LINE_BREAK = re.compile(r"\r\n?")


def _records_of_line(line: str, name: str, number: int, problems: list) -> Iterator[Record]:
    """The record of one line of a stream (none for a line that is not one; a problem for one that cannot be read)."""
    pod, rest = parse_line_prefix(line)
    body = rest.strip()
    if not body.startswith('{"'):
        match = _RECORD_START.search(body)
        if match is None:
            return
        body = body[match.start():]  # after a prefix this reader does not know: read from the record
    if body.endswith("}") and _SNAPSHOT_TEXT.match(body):  # parsed later, only when its facts are new
        yield Record(name, number, pod, SNAPSHOT, None, body)
        return
    try:
        obj = snapshot_json.loads(body)
    except DuplicateKeyError as exc:
        problems.append(InputProblem(name, number, f"{exc}; skipped", pod))
        return
    except RecursionError:
        problems.append(InputProblem(name, number, "JSON nested too deeply; skipped", pod))
        return
    except ValueError as exc:
        problems.append(InputProblem(name, number, f"not a complete JSON object (cut short?): {exc}; skipped", pod))
        return
    record = _classify(obj, name, number, pod, problems, strict=False)
    if record is not None:
        yield record


def _file(path: str, name: str, problems: list) -> Iterator[Record]:
    """The records of one file: one JSON object, or else lines (see the module docstring)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        problems.append(InputProblem(name, None, "no such file or folder"))
        return
    except OSError as exc:
        problems.append(InputProblem(name, None, f"cannot read: {exc.strerror or exc}"))
        return
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        problems.append(InputProblem(name, None, f"cannot read: {exc.strerror or exc}"))
        return
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        problems.append(InputProblem(name, None, "not a regular file, a folder or -"))
        return
    with os.fdopen(fd, "rb") as handle:
        try:
            head = handle.read(64)
            handle.seek(0)
            lines_wanted = path.endswith((".jsonl", ".log"))
            start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
            if not lines_wanted and start.startswith(b"{") and info.st_size <= MAX_LINE_BYTES:
                whole = handle.read(MAX_LINE_BYTES + 1)
                try:
                    text = whole.decode("utf-8-sig").strip()
                except UnicodeDecodeError:
                    text = ""
                first_line = text.split("\n", 1)[0].rstrip()
                if first_line != text and first_line.endswith("}"):  # JSON lines in a *.json file (kubectl logs > x.json)
                    handle.seek(0)
                    yield from _stream(handle, name, problems)
                    return
                if text.endswith("}") and _SNAPSHOT_TEXT.match(text):  # one snapshot, parsed later if its facts are new
                    yield Record(name, None, None, SNAPSHOT, None, text)
                    return
                obj = _one_object(whole)
                if obj is not None:
                    record = _classify(obj, name, None, None, problems, strict=True)
                    if record is not None:
                        yield record
                    return
                handle.seek(0)
            elif not lines_wanted and start.startswith(b"{") and not start[1:].startswith(b'"'):  # one indented object
                problems.append(InputProblem(name, None, f"larger than {_size_text(MAX_LINE_BYTES)}; not read"))
                return
            yield from _stream(handle, name, problems)
        except OSError as exc:
            problems.append(InputProblem(name, None, f"cannot read: {exc.strerror or exc}"))


def _one_object(raw: bytes) -> Optional[Any]:
    """The JSON value of a whole file, or None when it is not one JSON document (then it is read as lines)."""
    try:
        return snapshot_json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):  # a repeated key too: read as lines, where the record is refused naming it
        return None


#: the skipped links of a folder named one by one in notes; more are counted in one more note
LINK_NOTES = 20


def _walk(folder: str, name: str, problems: list) -> Iterator[Record]:
    """The records of the ``*.json``, ``*.jsonl`` and ``*.log`` files under ``folder`` (name order; links and hidden
    entries skipped).  A folder that cannot be read (the top one or one below it) is a problem naming it; a folder
    whose only matching entries are links says so."""
    found = 0
    links = 0
    linked: list[str] = []  # the links skipped, each said in a note when real files sit beside them
    unreadable = []

    def refused(exc: OSError) -> None:
        where = _shown(exc.filename) if isinstance(exc.filename, str) else name
        unreadable.append(where)
        problems.append(InputProblem(where, None, f"cannot read this folder: {exc.strerror or exc}; its files are not read"))

    for top, dirs, files in os.walk(folder, onerror=refused, followlinks=False):
        for entry in sorted(dirs):
            if os.path.islink(os.path.join(top, entry)) and not entry.startswith("."):
                links += 1
                linked.append(os.path.join(top, entry))
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for entry in sorted(files):
            path = os.path.join(top, entry)
            if entry.startswith(".") or not entry.endswith(_SUFFIXES):
                continue
            if os.path.islink(path):
                links += 1
                linked.append(path)
                continue
            found += 1
            yield from _file(path, _shown(path), problems)
    if found and linked:  # said, never silent; a note: the files beside them were read
        for path in sorted(linked)[:LINK_NOTES]:
            problems.append(InputProblem(_shown(path), None, "a symbolic link, skipped: links inside a folder are not "
                                         "followed (one may lead outside it, or to a file read twice); give the file it "
                                         "points to on the command line", note=True))
        if len(linked) > LINK_NOTES:
            problems.append(InputProblem(name, None, f"and {len(linked) - LINK_NOTES} more symbolic links, skipped",
                                         note=True))
    if not found and name not in unreadable:
        if links:
            problems.append(InputProblem(name, None, f"folder without *.json, *.jsonl or *.log files but with {links} link{'' if links == 1 else 's'}, "
                                         "which are not followed: give the files they point to"))
        else:
            problems.append(InputProblem(name, None, "folder without *.json, *.jsonl or *.log files"))


def iter_records(paths: "list[str]", problems: "list[InputProblem]", stdin: Optional[IO[bytes]] = None) -> Iterator[Record]:
    """The records of ``paths``, in order, one at a time; the problems met are appended to ``problems``.

    ``-`` reads ``stdin`` (a binary stream; standard input's buffer when None).  Never raises for
    bad input; every name in a record or problem is inert (controls escaped, shortened).
    """
    for path in paths:
        if path == "-":
            name = "stdin"
            found = _stream(stdin if stdin is not None else sys.stdin.buffer, name, problems)
        else:
            name = _shown(path)
            try:
                is_dir = stat.S_ISDIR(os.stat(path).st_mode)
            except OSError:
                is_dir = False
            found = _walk(path, name, problems) if is_dir else _file(path, name, problems)
        for record in found:
            record.origin = name
            yield record


def read_inputs(paths: "list[str]", stdin: Optional[IO[bytes]] = None) -> "tuple[list[Record], list[InputProblem]]":
    """All records of ``paths`` (:func:`iter_records`) as a list, and the problems met."""
    problems: list[InputProblem] = []
    records = list(iter_records(paths, problems, stdin))
    return records, problems
