"""The error catalogs the checker reads a log against: every Xid, every CUDA and NVML error, every NCCL warning.

``lingjun-kb bundle`` compiles ``releases/errors/`` (:mod:`lingjun.schema.error_catalogs`) into
``checks/data/error-catalogs.json`` beside the release bundle; this module reads it the first time a log line
holds what one of the catalogs' programs prints (:mod:`lingjun.checks.knowledge.catalog_lines`), so a check
that reads no log never loads it.  Layout::

    {"format": "lingjun-kb/error-catalogs/1",
     "xid":  {"edition", "sources": [{"url", "title"}], "entries": [XidEntry, ...]},
     "cuda": {"edition", "sources", "runtime": [CudaErrorEntry], "driver": [...], "nvml": [...], "cublas": [...],
              "cudnn": [...]},
     "nccl": {"edition", "sources", "versions": ["2.21.5", ...], "subsystems": [NcclSubsystem, ...],
              "messages": [[file, first line, last line, first version, last version, format], ...]},
     "container-cli": {"edition", "sources", "versions": ["1.14.0", ...], "subsystems": [ContainerCliSubsystem],
              "messages": [[file, first line, last line, first version, last version, format, appends, context]]}}

Where the entries come from: NVIDIA's Xid catalog (https://docs.nvidia.com/deploy/xid-errors/index.html), the
CUDA runtime and driver API references (https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html,
https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html), NVML's reference
(https://docs.nvidia.com/deploy/nvml-api/), cuBLAS's and cuDNN's (https://docs.nvidia.com/cuda/cublas/,
https://docs.nvidia.com/deeplearning/cudnn/), NCCL's source (https://github.com/NVIDIA/nccl) and libnvidia-container's
(https://github.com/NVIDIA/libnvidia-container, what nvidia-container-cli prints); each catalog's
``edition`` says what was read.  Standard library only.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = [
    "CATALOGS_FORMAT", "CATALOGS_FILE", "CatalogError", "XidInfo", "CudaErrorInfo", "NcclSubsystemInfo", "NcclWarnInfo",
    "ContainerCliInfo", "ErrorCatalogs", "FormatPattern", "embedded", "format_regex", "nccl_anchor", "format_anchor",
]

CATALOGS_FORMAT = "lingjun-kb/error-catalogs/1"
#: the CUDA catalog's lists, by API (``lingjun.schema.error_catalogs.CUDA_APIS``, which this module may not import)
CUDA_APIS = ("runtime", "driver", "nvml", "cublas", "cudnn")
#: the file's name in the checker's ``data`` folder
CATALOGS_FILE = "error-catalogs.json"


class CatalogError(ValueError):
    """The catalogs file is missing or of another format."""


@dataclass(frozen=True, eq=False)
class XidInfo:
    """One Xid of NVIDIA's catalog: ``xid`` (45), NVIDIA's ``name`` and ``mnemonic`` (or None), ``kind`` (``application``, ``memory``, ...),
    NVIDIA's immediate ``action`` code (``RESET_GPU``) or None, ``severity`` (``error``/``warning``/``info``),
    ``meaning`` and ``action_text`` as ``{"en", "zh"}`` (``action_text`` may be empty)."""

    xid: int
    name: str
    mnemonic: Optional[str]
    kind: str
    action: Optional[str]
    severity: str
    meaning: dict
    action_text: dict


@dataclass(frozen=True, eq=False)
class CudaErrorInfo:
    """One error code: ``api`` (``runtime`` for ``cudaError_t``, ``driver`` for ``CUresult``, ``nvml`` for
    ``nvmlReturn_t``, ``cublas`` for ``cublasStatus_t``, ``cudnn`` for ``cudnnStatus_t``), ``code`` (802), enum ``name``, the ``message`` its error-string function returns (None where
    no source shows it), its class (``cls``, one of :data:`lingjun.schema.error_catalogs.CUDA_ERROR_CLASSES`),
    ``meaning`` ``{"en", "zh"}`` and the id of the error signature holding its causes, if any."""

    api: str
    code: int
    name: str
    message: Optional[str]
    cls: str
    meaning: dict
    signature: Optional[str] = None
    #: ``{"en", "zh"}`` where the code has a remedy of its own (else its class's)
    remedy: Optional[dict] = None
    #: the messages older releases returned for the code
    older_messages: tuple = ()
    #: the names older releases gave the code (cuDNN 8's ``CUDNN_STATUS_MAPPING_ERROR`` for cuDNN 9's 4006)
    older_names: tuple = ()

    @property
    def anchor(self) -> str:
        """The entry's anchor on the site's CUDA errors page: ``cuda-runtime-802``, ``cuda-driver-999``, ``nvml-9``,
        ``cublas-1``, ``cudnn-1001``."""
        return f"cuda-{self.api}-{self.code}" if self.api in ("runtime", "driver") else f"{self.api}-{self.code}"


@dataclass(frozen=True, eq=False)
class SocketErrnoInfo:
    """A Linux errno a part's messages print: ``errno`` (113), ``name`` (``EHOSTUNREACH``), ``message`` (glibc's
    strerror text, ``No route to host``), ``points_to`` and ``remedy`` (``{"en", "zh"}``), ``source`` (the URL that
    states its meaning)."""

    errno: int
    name: str
    message: str
    points_to: dict
    remedy: dict
    source: str


#: where a line states an errno by number: NCCL's ``returned 113(``, ``errno 113``, torch's ``(errno: 113 - ``
_ERRNO_NUMBER = re.compile(r"returned (\d{1,4})\(|\berrno:? (\d{1,4})\b")


@dataclass(frozen=True, eq=False)
class NcclSubsystemInfo:
    """A part of NCCL: ``id`` (``ib``), the source path ``files`` globs, ``title``, ``points_to`` (what a warning from
    it points to) and ``remedy``, each ``{"en", "zh"}``."""

    id: str
    files: tuple
    title: dict
    points_to: dict
    remedy: dict
    #: libnvidia-container's: the CLI contexts (``mount error``) whose shared helpers' messages the subsystem owns
    stages: tuple = ()
    #: NCCL's: the errnos whose meaning changes what to try first (:class:`SocketErrnoInfo`)
    errnos: tuple = ()

    def errno_in(self, line: str) -> "Optional[SocketErrnoInfo]":
        """The first of :attr:`errnos` that ``line`` prints: by its strerror text (case ignored; the earliest in
        the line wins, so ``returned 113(No route to host) errno 115(Operation now in progress)`` is 113), else by
        a number NCCL or torch writes beside ``returned`` or ``errno``; None when it prints none of them."""
        if not self.errnos:
            return None
        lower = line.lower()
        found = [(lower.find(e.message.lower()), e) for e in self.errnos]
        found = [(at, e) for at, e in found if at >= 0]
        if found:
            return min(found, key=lambda pair: pair[0])[1]
        by_number = {e.errno: e for e in self.errnos}
        for match in _ERRNO_NUMBER.finditer(line):
            entry = by_number.get(int(match.group(1) or match.group(2)))
            if entry is not None:
                return entry
        return None


@dataclass(frozen=True, eq=False)
class NcclWarnInfo:
    """One ``WARN`` format string of NCCL's source: ``file`` (relative to ``src/``), ``lines`` (first, last),
    ``versions`` (first, last NCCL version holding it), ``format`` and the ``subsystem`` id its file belongs to."""

    file: str
    lines: tuple
    versions: tuple
    format: str
    subsystem: str

    @property
    def anchor(self) -> str:
        """The entry's anchor on the site's NCCL warnings page (:func:`nccl_anchor`)."""
        return nccl_anchor(self.file, self.format)


def nccl_anchor(file: str, fmt: str) -> str:
    """``nccl-<8 hex digits>``: a stable anchor of one NCCL format string (SHA-1 of its file and text)."""
    return format_anchor("nccl", file, fmt)


def format_anchor(prefix: str, file: str, fmt: str, appends: Optional[str] = None) -> str:
    """``<prefix>-<8 hex digits>``: a stable anchor of one format string (SHA-1 of its file, text and, where the
    library appends one, what it appends): ``nccl-1a2b3c4d``, ``cli-5e6f7a8b``."""
    import hashlib  # deferred: only a page or a finding naming a message needs it

    key = f"{file}\0{fmt}" + (f"\0{appends}" if appends else "")
    return f"{prefix}-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True, eq=False)
class ContainerCliInfo:
    """One error message of libnvidia-container: ``file`` (the path in its repository: ``src/utils.c``), ``lines``
    and ``versions`` (first, last), the printf ``format``, ``appends`` (``errno``, ``dlerror``, ``nvml``, ``rpc``,
    ``elf`` or None: what the library adds after ``": "``), ``context`` (a CLI prefix, ``"mount error: %s"``) and the
    ``subsystem`` id its file belongs to."""

    file: str
    lines: tuple
    versions: tuple
    format: str
    appends: Optional[str]
    context: bool
    subsystem: str

    @property
    def anchor(self) -> str:
        """The entry's anchor on the site's nvidia-container-cli page: ``cli-<8 hex digits>``."""
        return format_anchor("cli", self.file, self.format, self.appends)

    @property
    def stage(self) -> str:
        """A context's prefix (``mount error`` of ``"mount error: %s"``); ``""`` for another message."""
        return self.format[:-len(": %s")] if self.context and self.format.endswith(": %s") else ""

    @property
    def printed(self) -> str:
        """The format as a line shows it: with ``": %s"`` for what the library appends."""
        return self.format + (": %s" if self.appends else "")


#: printf conversions NCCL's format strings use: flags, width, precision, length, conversion; and the placeholders
#: the extraction writes for a macro between literals (``{NAME}``, ``{#name}``), which print like ``%s``
#: distinct lines remembered per lookup before the memo starts over (a log of one repeated warning needs one)
_MEMO_LIMIT = 4096


class _Memo(dict):
    """One lookup's answers by key, at most :data:`_MEMO_LIMIT` of them (then it starts over): a log repeats its
    lines, so each distinct one is read once, and a log of distinct lines does not grow it without bound."""

    def answer(self, key: Any, compute: Any) -> Any:
        """The answer kept for ``key``, else ``compute()``, kept."""
        if key not in self:
            if len(self) >= _MEMO_LIMIT:
                self.clear()
            self[key] = compute()
        return self[key]

_CONVERSION = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcspm%])"
                         r"|\{#?[A-Za-z_][A-Za-z0-9_]{0,60}\}")
#: what a numeric conversion prints
_NUMBER = {"d": r"-?\d{1,20}", "i": r"-?\d{1,20}", "u": r"\d{1,20}", "o": r"[0-7]{1,22}",
           "x": r"(?:0x)?[0-9a-fA-F]{1,16}", "X": r"(?:0x)?[0-9a-fA-F]{1,16}", "p": r"(?:0x[0-9a-fA-F]{1,16}|\(nil\))",
           "e": r"\S{1,40}", "E": r"\S{1,40}", "f": r"\S{1,40}", "g": r"\S{1,40}", "G": r"\S{1,40}", "c": r"."}


class FormatPattern:
    """What ``printf(fmt, ...)`` prints, matched in one left-to-right pass (no backtracking, so a line crafted
    against a format with many ``%s`` costs no more than a plain one).

    Only the format's first line counts (a log holds each printed line on its own line).  The format is cut into
    literal text, numbers and strings; a string ends where the next literal text first
    occurs.  White space runs count as one blank on both sides.  ``length`` is the format's literal text (the most
    specific of two formats that both match has the longer)."""

    __slots__ = ("parts", "length", "longest")

    def __init__(self, fmt: str) -> None:
        fmt = fmt.split("\n", 1)[0]  # a log line holds what the format prints up to its first line break
        parts: list = []  # ("lit", text) / ("num", compiled) / ("str", None)
        at = 0
        for m in _CONVERSION.finditer(fmt):
            self._literal(parts, fmt[at:m.start()])
            conversion = m.group(5)
            if conversion == "%":
                self._literal(parts, "%")
            elif conversion is None or conversion in "sm":
                if not parts or parts[-1][0] != "str":
                    parts.append(("str", None))
            else:
                parts.append(("num", re.compile(_NUMBER[conversion])))
            at = m.end()
        self._literal(parts, fmt[at:].rstrip())
        self.parts = tuple(parts)
        self.length = sum(len(p[1]) for p in parts if p[0] == "lit")
        #: the longest literal part, blanks at its ends dropped: a text lacking it cannot match (a cheap first test)
        self.longest = max((p[1].strip() for p in parts if p[0] == "lit"), key=len, default="")

    @staticmethod
    def _literal(parts: list, text: str) -> None:
        text = re.sub(r"\s+", " ", text)
        if not text:
            return
        if parts and parts[-1][0] == "lit":
            parts[-1] = ("lit", parts[-1][1] + text)
        else:
            parts.append(("lit", text))

    def match(self, text: str, whole: bool = True, folded: bool = False) -> bool:
        """Whether ``text`` (the words after ``NCCL WARN``) is what the format prints; ``whole``: nothing may follow;
        ``folded``: ``text`` is already :func:`fold_blanks` of itself (the caller folds once for many formats)."""
        if not folded:
            text = fold_blanks(text)
        pos, parts = 0, self.parts
        for i, (kind, value) in enumerate(parts):
            if kind == "lit":
                literal = value.lstrip() if pos == 0 else value
                if not text.startswith(literal, pos):
                    return False
                pos += len(literal)
            elif kind == "num":
                found = value.match(text, pos)
                if found is None:
                    return False
                pos = found.end()
            else:  # a string: up to the next literal text, or to the end
                following = parts[i + 1] if i + 1 < len(parts) else None
                if following is None:
                    return True
                if following[0] == "lit":
                    at = text.find(following[1], pos)
                    if at < 0:
                        return False
                    pos = at
                else:  # a number right after a string: the first place it reads
                    found = following[1].search(text, pos)
                    if found is None:
                        return False
                    pos = found.start()
        return pos >= len(text) or not whole


def fold_blanks(text: str) -> str:
    """``text`` with each run of white space as one blank and none at its ends (how :class:`FormatPattern` reads)."""
    return " ".join(text.split())


def format_regex(fmt: str) -> FormatPattern:
    """The :class:`FormatPattern` of ``fmt`` (``"NET/IB : Got async event : %s"``)."""
    return FormatPattern(fmt)


def _folded(name: str) -> str:
    """``DRIVER_NOT_LOADED`` and ``DriverNotLoaded`` alike: ``drivernotloaded``."""
    return name.replace("_", "").lower()


def _texts(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


@dataclass
class ErrorCatalogs:
    """The three catalogs, indexed for the lookups a log line needs.

    Raises (from :meth:`from_dict`):
        CatalogError: ``raw`` is not a catalogs dict of :data:`CATALOGS_FORMAT`.
    """

    raw: dict
    xids: dict = field(default_factory=dict)
    cuda: dict = field(default_factory=dict)  # (api, code) -> CudaErrorInfo
    subsystems: dict = field(default_factory=dict)
    nccl: list = field(default_factory=list)
    #: libnvidia-container: subsystem id -> NcclSubsystemInfo (its ``stages`` set), and the messages
    cli_subsystems: dict = field(default_factory=dict)
    cli: list = field(default_factory=list)

    @classmethod
    def from_dict(cls, raw: Any) -> "ErrorCatalogs":
        """The catalogs of a parsed ``error-catalogs.json``.

        Raises:
            CatalogError: ``raw`` is not of :data:`CATALOGS_FORMAT`, or one of its parts is not of the shape that
                format gives it (a list where an object belongs, an entry without its number)."""
        if not isinstance(raw, dict) or raw.get("format") != CATALOGS_FORMAT:
            raise CatalogError(f"not lingjun-kb error catalogs of format {CATALOGS_FORMAT}")
        try:
            return cls._indexed(raw)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:  # a damaged or hand-edited file
            raise CatalogError(f"the error catalogs are not of the shape of format {CATALOGS_FORMAT} "
                               f"({type(exc).__name__}: {exc})") from None

    @classmethod
    def _indexed(cls, raw: dict) -> "ErrorCatalogs":
        """:meth:`from_dict` once the format is known; the lookups' indexes built from ``raw``."""
        out = cls(raw=raw)
        for entry in (raw.get("xid") or {}).get("entries") or []:
            out.xids[entry["xid"]] = XidInfo(entry["xid"], entry["name"], entry.get("mnemonic"), entry.get("kind", "other"), entry.get("action"),
                                             entry.get("severity", "error"), _texts(entry.get("meaning")),
                                             _texts(entry.get("action_text")))
        for api in CUDA_APIS:
            for entry in (raw.get("cuda") or {}).get(api) or []:
                out.cuda[(api, entry["code"])] = CudaErrorInfo(api, entry["code"], entry["name"], entry.get("message"),
                                                               entry.get("class", "other"), _texts(entry.get("meaning")),
                                                               entry.get("signature"), entry.get("remedy"),
                                                               tuple(entry.get("older_messages") or ()),
                                                               tuple(entry.get("older_names") or ()))
        nccl = raw.get("nccl") or {}
        for sub in nccl.get("subsystems") or []:
            errnos = tuple(SocketErrnoInfo(e["errno"], e["name"], e["message"], _texts(e.get("points_to")),
                                           _texts(e.get("remedy")), e.get("source") or "") for e in sub.get("errnos") or ())
            out.subsystems[sub["id"]] = NcclSubsystemInfo(sub["id"], tuple(sub.get("files") or ()), _texts(sub.get("title")),
                                                          _texts(sub.get("points_to")), _texts(sub.get("remedy")),
                                                          errnos=errnos)
        for file, first, last, since, until, fmt in nccl.get("messages") or []:
            out.nccl.append(NcclWarnInfo(file, (first, last), (since, until), fmt, out._owner(file) or "misc"))
        cli = raw.get("container-cli") or {}
        import fnmatch  # deferred as in _owner: only a catalog holding format strings needs it

        for sub in cli.get("subsystems") or []:
            out.cli_subsystems[sub["id"]] = NcclSubsystemInfo(
                sub["id"], tuple(sub.get("files") or ()), _texts(sub.get("title")), _texts(sub.get("points_to")),
                _texts(sub.get("remedy")), tuple(sub.get("stages") or ()))
        for file, first, last, since, until, fmt, appends, context in cli.get("messages") or []:
            owner = next((s.id for s in out.cli_subsystems.values()
                          if any(fnmatch.fnmatchcase(file, p) for p in s.files)), "system")
            out.cli.append(ContainerCliInfo(file, (first, last), (since, until), fmt, appends, bool(context), owner))
        return out

    def edition(self, catalog: str) -> str:
        """What was read for ``catalog`` (``xid``, ``cuda``, ``nccl``), e.g. ``NCCL v2.21.5-1 to v2.28.9-1``."""
        return str((self.raw.get(catalog) or {}).get("edition") or "")

    def sources(self, catalog: str) -> list[str]:
        """The URLs ``catalog`` cites, in its order."""
        return [s["url"] for s in (self.raw.get(catalog) or {}).get("sources") or [] if s.get("url")]

    def xid(self, number: int) -> Optional[XidInfo]:
        """The catalog's entry for Xid ``number``, or None when NVIDIA's catalog does not list it."""
        return self.xids.get(number)

    def cuda_error(self, api: str, code: int) -> Optional[CudaErrorInfo]:
        """The entry of ``code`` in ``api`` (``runtime``, ``driver``, ``nvml``, ``cublas``, ``cudnn``), or None."""
        return self.cuda.get((api, code))

    @functools.cached_property
    def _by_name(self) -> dict:
        """enum name -> entry; an older name (cuDNN 8's ``CUDNN_STATUS_MAPPING_ERROR``) names its entry unless it is
        some entry's own name."""
        out = {name: info for info in self.cuda.values() for name in info.older_names}
        out.update({info.name: info for info in self.cuda.values()})
        return out

    def cuda_by_name(self, name: str, api: Optional[str] = None) -> Optional[CudaErrorInfo]:
        """The entry whose enum name is ``name`` (``cudaErrorSystemNotReady``, ``CUDA_ERROR_NO_DEVICE``), or None; with
        ``api``, also a name written another way (NVML's ``DriverNotLoaded`` as pynvml's ``NVMLError_DriverNotLoaded``
        and nvml-wrapper print it, for ``NVML_ERROR_DRIVER_NOT_LOADED``)."""
        found = self._by_name.get(name)
        if found is None and api is not None:
            found = self._by_folded_name.get((api, _folded(name)))
        return found

    @functools.cached_property
    def _by_folded_name(self) -> dict:
        prefixes = ("NVML_ERROR_", "CUDA_ERROR_", "cudaError")
        out: dict = {}
        for info in self.cuda.values():
            bare = next((info.name[len(p):] for p in prefixes if info.name.startswith(p)), info.name)
            out.setdefault((info.api, _folded(bare)), info)
        return out

    @functools.cached_property
    def _messages(self) -> dict:
        """api -> [(message, info)], longest message first (so the most specific message wins a prefix match)."""
        out: dict = {}
        for info in self.cuda.values():
            for message in ([info.message] if info.message else []) + list(info.older_messages):
                out.setdefault(info.api, []).append((message, info))
        for rows in out.values():
            rows.sort(key=lambda row: -len(row[0]))
        return out

    def cuda_messages(self, api: str) -> "list[tuple[str, CudaErrorInfo]]":
        """``[(message, entry)]`` of ``api`` (``runtime``, ``driver``, ``nvml``): every message an entry's error-string
        function returns or returned, longest first."""
        return list(self._messages.get(api, ()))

    def cuda_by_message(self, text: str, apis: tuple = ("runtime", "driver")) -> Optional[CudaErrorInfo]:
        """The entry whose message ``text`` starts with (case-insensitive, the first of ``apis`` holding one), or None:
        ``"uncorrectable ECC error encountered\\nCUDA kernel errors..."`` -> ``cudaErrorECCUncorrectable``."""
        folded = text.strip().lower()
        return self._memo["message"].answer((folded, apis), lambda: next(
            (info for api in apis for message, info in self._messages_folded.get(api, ()) if folded.startswith(message)),
            None))

    def same_message(self, info: "CudaErrorInfo") -> "list[CudaErrorInfo]":
        """The other entries of ``info``'s API that print the same message (runtime and driver 200 and 300 both print
        "device kernel image is invalid"), in code order; empty for a message of one entry."""
        if not info.message:
            return []
        folded = info.message.lower()
        return sorted((other for (api, _), other in self.cuda.items()
                       if api == info.api and other is not info and (other.message or "").lower() == folded),
                      key=lambda other: other.code)

    @functools.cached_property
    def _memo(self) -> dict:
        """The :class:`_Memo` of each lookup: ``message``, ``owner``, ``nccl``."""
        return {"message": _Memo(), "owner": _Memo(), "nccl": _Memo()}

    @functools.cached_property
    def _messages_folded(self) -> dict:
        """:attr:`_messages` with each message lower-cased once."""
        return {api: [(message.lower(), info) for message, info in rows] for api, rows in self._messages.items()}

    def subsystem_of(self, file: str) -> Optional[str]:
        """The subsystem whose file globs match ``file`` (a path relative to NCCL's ``src/`` or a bare file name, which
        is matched against the paths the catalog's messages name: ``connect.cc`` is both ``graph/connect.cc`` and
        ``transport/net_ib/connect.cc``, so it names no subsystem by itself), or None."""
        if "/" not in file and file in self._paths_by_name:  # a bare name (a log quoted short): its paths' subsystem
            owners = {self._owner(path) for path in self._paths_by_name[file]}
            return owners.pop() if len(owners) == 1 else None
        return self._owner(file)

    def named_subsystem_of(self, file: str) -> Optional[str]:
        """The subsystem a glob of its own names for ``file`` (a path relative to ``src/``), or None when only the
        catch-all (``**`` or ``*``, which fnmatch lets match ``/`` too) matches it or it is a bare name: the part an older layout's file belongs to
        (``include/shm.h`` held the shared-memory code up to 2.11) though no message of the catalog comes from it."""
        if "/" not in file:
            return None
        owner = self._owner(file)
        sub = self.subsystems.get(owner or "")
        return owner if sub is not None and not {"*", "**"} & set(sub.files) else None

    def knows_file(self, file: str) -> bool:
        """Whether a message of the catalog comes from ``file`` (a path relative to ``src/``, or its bare name)."""
        return os.path.basename(file) in self._paths_by_name

    def _owner(self, path: str) -> Optional[str]:
        """The first subsystem one of whose globs matches ``path``, or None (each path's answer is kept: a log names
        the same few files again and again)."""
        return self._memo["owner"].answer(path, lambda: self._first_owner(path))

    def _first_owner(self, path: str) -> Optional[str]:
        """:meth:`_owner` of ``path``, read from the subsystems' globs."""
        import fnmatch  # deferred: only an NCCL warning needs it

        return next((sub["id"] for sub in self.raw.get("nccl", {}).get("subsystems") or []
                     if any(fnmatch.fnmatchcase(path, pattern) for pattern in sub.get("files") or ())), None)

    @functools.cached_property
    def _paths_by_name(self) -> dict:
        out: dict = {}
        for row in (self.raw.get("nccl") or {}).get("messages") or []:
            names = out.setdefault(os.path.basename(row[0]), [])
            if row[0] not in names:
                names.append(row[0])
        return out

    @functools.cached_property
    def _nccl_by_name(self) -> dict:
        """bare file name -> [(compiled format, info)]; and ``""`` -> every message (a line that names no file)."""
        out: dict = {"": []}
        for info in self.nccl:
            row = (FormatPattern(info.format), info)
            out.setdefault(os.path.basename(info.file), []).append(row)
            out[""].append(row)
        return out

    def nccl_warning(self, file: Optional[str], message: str) -> Optional[NcclWarnInfo]:
        """The format string that printed ``message`` (the text after ``NCCL WARN``), or None when no format of the
        catalog prints it; the longest format that matches wins, and a format with no literal text of its own
        (``"%s"``) names no line.

        Where it is looked for: a line that names a file the catalog knows (``transport/net_ib.cc`` or, quoted
        short, ``connect.cc``) among that file's formats, then among the headers' (``include/*.h``: a macro such as
        ``SYSCHECK`` prints where it is used); a line naming another file (a net plugin's, an older layout) or none,
        among all formats."""
        text = fold_blanks(message)
        name = os.path.basename(file) if file else ""
        return self._memo["nccl"].answer((name, text), lambda: self._nccl_warning(name, text))

    def _nccl_warning(self, name: str, text: str) -> Optional[NcclWarnInfo]:
        """:meth:`nccl_warning` of a bare file name and a blank-folded message."""
        known = bool(name) and name in self._nccl_by_name
        places = [(name, False), ("", True)] if known else [("", False)]
        for key, headers_only in places:
            best = None
            for pattern, info in self._nccl_by_name.get(key, ()):
                if headers_only and not info.file.startswith("include/"):
                    continue
                if pattern.length and pattern.longest in text and pattern.match(text, whole=not known, folded=True) \
                        and (best is None or pattern.length > best[0].length):
                    best = (pattern, info)
            if best is not None:
                return best[1]
        return None


    @functools.cached_property
    def _cli_patterns(self) -> tuple:
        """(contexts, messages): ``[(prefix, info)]`` longest first, and ``[(FormatPattern of the printed format,
        info)]`` of every other message with literal text of its own."""
        contexts, messages = [], []
        for info in self.cli:
            if info.stage:
                contexts.append((info.stage + ": ", info))
            else:
                pattern = FormatPattern(info.printed)
                if pattern.length >= 3:
                    messages.append((pattern, info))
        contexts.sort(key=lambda row: -len(row[0]))
        return contexts, messages

    def cli_subsystem_of_stage(self, stage: str) -> Optional[str]:
        """The libnvidia-container subsystem that owns the CLI context ``stage`` (``mount error`` -> ``mount``)."""
        return next((s.id for s in self.cli_subsystems.values() if stage in s.stages), None)

    def container_cli(self, text: str) -> "tuple[Optional[ContainerCliInfo], Optional[ContainerCliInfo]]":
        """(context, message) of what ``nvidia-container-cli`` printed after its ``nvidia-container-cli: ``: the CLI
        context the text opens with (``initialization error: ``, None when none) and the library message after it
        (None when no message of the catalog prints it).  The message is looked for at the start of the rest, then
        after each of its first four ``": "`` (a device's name, ``error adding GPU device: 0: ...``); the format
        with the most literal text that matches wins."""
        contexts, messages = self._cli_patterns
        context = next((info for prefix, info in contexts if text.startswith(prefix)), None)
        if context is None:  # err(3)'s own: "memory allocation failed: <errno>", a context of no stage
            for pattern, info in messages:
                if info.file.startswith("src/cli/") and pattern.match(text, whole=False):
                    return None, info
        rest = text[len(context.stage) + 2:] if context is not None else text
        for _ in range(5):
            best = None
            for pattern, info in messages:
                if pattern.match(rest, whole=False) and (best is None or pattern.length > best[0].length):
                    best = (pattern, info)
            if best is not None:
                return context, best[1]
            at = rest.find(": ")
            if at < 0:
                break
            rest = rest[at + 2:]
        return context, None


def _read_embedded() -> dict:
    """The parsed embedded catalogs (the zipapp's xz copy or the checkout's JSON).

    Raises:
        CatalogError: the file is missing, damaged or not JSON."""
    from lingjun.checks.knowledge._package_data import PackageDataError, read  # deferred: with the catalogs

    try:
        raw = read(CATALOGS_FILE)
    except PackageDataError as exc:
        raise CatalogError(f"the embedded error catalogs are unreadable: {exc}") from None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:  # cut short or overwritten
        raise CatalogError(f"the embedded error catalogs are not JSON ({exc})") from None


@functools.lru_cache(maxsize=1)
def embedded() -> ErrorCatalogs:
    """The catalogs embedded as package data, read once per process (on the first log line that needs them).

    Raises:
        CatalogError: the file is missing or not of :data:`CATALOGS_FORMAT`.
    """
    return ErrorCatalogs.from_dict(_read_embedded())
