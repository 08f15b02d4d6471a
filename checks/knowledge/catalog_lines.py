"""Recognising a log line by the error catalogs: an Xid, a CUDA, NVML, cuBLAS or cuDNN error in any printed form, an
NCCL warning.

A line is looked at only when it holds one of :data:`LITERALS` (searched with the signatures' literals over the
whole log in one pass, :mod:`lingjun.checks.knowledge.signatures`); :func:`recognise` then reads it with the
expressions below and names the catalog entry, or says that the catalog has none (a CUDA error whose message it
does not hold, an Xid NVIDIA's catalog does not list), so that such a line is still an error line, never "OK".

The printed forms (where each is printed):

* ``NVRM: Xid (PCI:0000:dc:00): 45, pid=..., ...``: the NVIDIA kernel module, in ``dmesg``
  (https://docs.nvidia.com/deploy/xid-errors/index.html);
* ``transport/net_ib.cc:1160 NCCL WARN NET/IB : ...``: NCCL's ``WARN`` (``src/debug.cc`` of
  https://github.com/NVIDIA/nccl prints the file, as the build gave it, and the line before ``NCCL WARN``; from 2.30
  the function too: ``transport/net_ib/connect.cc:372 (ncclIbCreateQp) NCCL WARN``);
* ``CUDA error: an illegal memory access was encountered``: torch's ``C10_CUDA_CHECK`` (c10/cuda/CUDAException.cpp
  of https://github.com/pytorch/pytorch); ``CUDA driver error: ...`` its driver API form;
* ``Cuda failure 'out of memory'`` and ``Cuda failure 2 'out of memory'``: NCCL's ``CUDACHECK``
  (src/include/checks.h);
* ``Error 802: system not yet initialized`` after ``cudaGetDeviceCount()`` or ``CUDA initialization:``: torch's
  start-up warning (torch/cuda/__init__.py);
* ``code=2(cudaErrorMemoryAllocation)``, ``CUDA_ERROR_NO_DEVICE``, ``NVML_ERROR_DRIVER_NOT_LOADED``: an enum name
  anywhere (the CUDA samples' ``checkCudaErrors``, TensorFlow's and JAX's ``cuInit`` failures, NVML bindings);
* ``CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)```, ``cuDNN error:
  CUDNN_STATUS_MAPPING_ERROR``: torch's cuBLAS and cuDNN checks (aten/src/ATen/cuda/Exceptions.h), like Caffe's
  ``(8 vs. 0) CUDNN_STATUS_EXECUTION_FAILED`` and TensorFlow's ``failed to run cuBLAS routine ...``, print the
  status's enum name, which decides the entry (cuDNN 8's names too: :attr:`CudaErrorInfo.older_names`);
* ``Failed to allocate device vector A (error code system not yet initialized)!``: the CUDA samples' own checks
  (vectorAdd, the GPU Operator's CUDA validator), ``cudaGetErrorString`` in brackets after ``error code``;
* ``(35 vs. 0)``: a status compared with ``cudaSuccess`` (Caffe2, TensorFlow and CUTLASS checks);
* ``Failed to initialize NVML: Driver/library version mismatch``: ``nvidia-smi`` and NVML's users;
* ``nvidia-container-cli: mount error: file creation failed: PATH: file exists``: libnvidia-container's CLI, run by
  the NVIDIA Container Toolkit's prestart hook (https://github.com/NVIDIA/libnvidia-container ``src/cli/``), as
  Docker, containerd and kubelet quote it (``... stderr: nvidia-container-cli: ...: unknown``);
* a CUDA runtime or driver message as another program's wrapper quotes it, with none of the forms above:
  ``ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected`` (llama.cpp),
  ``CUDA runtime implicit initialization on GPU:0 failed. Status: device kernel image is invalid`` (TensorFlow).
  A line is looked at for this when it quotes a message after ``: `` or a quote (:func:`message_literals`) and no
  other catalog reads it. A message that names CUDA, PTX, a GPU or MPS, or has five words or more, names its entry
  wherever it stands between word boundaries; a shorter one (``unspecified launch failure``, ``out of memory``) only
  after ``:``, a quote or a bracket, on a line that names CUDA (``cuda`` in any case, or a driver API call such as
  ``cuInit``), since the same words end errors of other programs (NVML's ``Unknown Error``).

Standard library only.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # a plain check imports this module for LITERALS only: the catalogs and expressions wait for a log line
    from lingjun.checks.knowledge.error_catalogs import ContainerCliInfo, CudaErrorInfo, ErrorCatalogs, NcclWarnInfo, XidInfo

__all__ = ["LITERALS", "CatalogMatch", "message_literals", "recognise", "stands_alone", "tail_messages"]

#: what a line must hold to be read here (case-sensitive, as the programs print it)
LITERALS = ("NVRM: Xid", "Xid=", "NCCL WARN", "CUDA error", "CUDA driver error", "CUDA Error", "Cuda error", "cuda error", "Cuda failure",
            "CUDA failure", "cuda runtime error", "CUDA failed with error", "Cuda API error", "THCudaCheck FAIL",
            "cudaError", "CUDA_ERROR_", "NVML_ERROR_", "CUBLAS_STATUS_", "CUDNN_STATUS_",
            "NVMLError_", "initialize NVML", "initialize nvml", "NVML error",
            "nvml error", "cudaGetDeviceCount", "CUDA initialization", " vs. 0)", "nvidia-container-cli",
            " init failure: ", "(error code ")

#: the longest file, line and function NCCL prints before ``NCCL WARN`` that the ``nccl`` form reads (200 + ":" + 7
#: digits + " " + "(" + 120 + ") "), with room to spare
_NCCL_PREFIX = 340

#: the expressions that read a line holding one of :data:`LITERALS`, by form (compiled on the first such line)
_FORMS = {
    "xid": r"NVRM: Xid \(([^)]{0,64})\):? ?(\d{1,6})\b|\bXid=(\d{1,6})\b",
    "nccl": r"(?:([\w.+/-]{1,200}\.(?:cc|cu|cpp|cxx|c|h|hpp)):(\d{1,7}) (?:\([\w:~<>, ]{0,120}\) )?)?NCCL WARN (.*)",
    "name": r"\b(cudaError[A-Z]\w{1,60}|CUDA_ERROR_[A-Z0-9_]{2,60}|NVML_ERROR_[A-Z0-9_]{2,60}"
            r"|CUBLAS_STATUS_[A-Z0-9_]{2,80}|CUDNN_STATUS_[A-Z0-9_]{2,80})\b",
    "pynvml": r"\bNVMLError_([A-Za-z]\w{1,60})",
    "driver": r"CUDA driver error: (.{1,300})",
    "nccl-cu": r"Cuda failure (\d{1,6}) '([^']{1,300})'",
    "old": r"cuda runtime error \((\d{1,6})\) : (.{1,300})|THCudaCheck FAIL .{0,300}?error=(\d{1,6}) : (.{1,300})",
    "failed-with": r"CUDA failed with error (.{1,300})",
    "returned": r"\b(cuda[A-Z]\w{2,60}) returned \(?(0x[0-9a-fA-F]{1,8}|\d{1,6})\)?",
    "init-failure": r"\b(cuda driver library|nvcuda|cudart) init failure: (\d{1,6})\b",
    "samples": r"\(error code ([^()]{3,300})\)",
    "cuda": r"(?:CUDA|Cuda|cuda) (?:error|Error|failure)(?: (\d{1,6}))?(?: ?\((\d{1,6})\))?[:,]? ?(.{0,300})",
    "init": r"Error (\d{1,6}): (.{1,300})",
    "versus": r"\((\d{1,6}) vs\. 0\)",
    "nvml": r"(?:initialize NVML|initialize nvml|NVML error|nvml error|nvmlInit\w*\(\) failed):? (.{1,300})",
    "container-cli": r"nvidia-container-cli(?:\.real)?: (.{1,600})",
}

#: a number that opens a message (``222 the provided PTX ...``, ``2[cudaMalloc(...)]``)
_LEADING_NUMBER = r"^(\d{1,6})(?=[\s\[:(]|$)[\s:\]]*"


@functools.lru_cache(maxsize=None)
def _form(name: str) -> "re.Pattern[str]":
    return re.compile(_FORMS[name])


@dataclass(frozen=True)
class CatalogMatch:
    """What one line showed, by catalog (``xid``, ``cuda``, ``nccl``, ``container-cli``).

    ``key`` tells two matches of the same entry apart from two of different ones (``xid:45``,
    ``cuda:runtime:802``, ``cuda:unknown:<message>``, ``nccl:<anchor>``, ``nccl-file:<file>``, ``container-cli:<anchor>``,
    ``container-cli-stage:<context anchor>``); ``number`` is the
    Xid or error code the line states (None when it states none); ``info`` the catalog entry or None (the catalog
    does not hold it); ``api`` the CUDA API the printed form belongs to; for NCCL, ``file`` and ``line`` as printed
    and ``subsystem`` (None when neither the format nor the file is known); for nvidia-container-cli, ``context`` the
    CLI context entry (``mount error: %s``) or None and ``subsystem``; ``text`` the message as printed."""

    catalog: str
    key: str
    number: Optional[int] = None
    info: "Optional[XidInfo | CudaErrorInfo | NcclWarnInfo]" = None
    api: Optional[str] = None
    file: Optional[str] = None
    line: Optional[int] = None
    subsystem: Optional[str] = None
    text: str = ""
    context: "Optional[ContainerCliInfo]" = None


def recognise(line: str, catalogs: "ErrorCatalogs") -> "list[CatalogMatch]":
    """Every catalog entry ``line`` shows, each once, in the order: Xid, NCCL warning, nvidia-container-cli message,
    CUDA/NVML errors.

    An NCCL warning that quotes a CUDA error (``NCCL WARN Cuda failure 'out of memory'``) gives both, and so does
    nvidia-container-cli quoting NVML (``initialization error: nvml error: driver not loaded``)."""
    found: list[CatalogMatch] = []
    xid = _form("xid").search(line)
    if xid:
        number = int(xid.group(2) or xid.group(3))
        found.append(CatalogMatch("xid", f"xid:{number}", number, catalogs.xid(number), text=line[xid.start():]))
    at = line.find("NCCL WARN")
    # the file and line printed before "NCCL WARN" are at most _NCCL_PREFIX characters long: searching from there
    # finds what searching the whole line finds, without trying every earlier position
    nccl = _form("nccl").search(line, max(0, at - _NCCL_PREFIX)) if at >= 0 else None
    if nccl:
        found.append(_nccl(nccl, catalogs))
    cli = _form("container-cli").search(line) if "nvidia-container-cli" in line else None
    if cli:
        found += _container_cli(cli.group(1), catalogs)
    for match in _cuda(line, catalogs, tail=not found):
        if all(match.key != m.key for m in found):
            found.append(match)
    return found


def _nccl(m: "re.Match[str]", catalogs: "ErrorCatalogs") -> CatalogMatch:
    file, number, message = m.group(1), m.group(2), m.group(3).strip()
    info = catalogs.nccl_warning(file, message)
    subsystem = _nccl_subsystem(file, info, catalogs)
    key = f"nccl:{info.anchor}" if info is not None else f"nccl-file:{file or ''}:{subsystem or ''}"
    return CatalogMatch("nccl", key, info=info, file=file, line=int(number) if number else None, subsystem=subsystem,
                        text=message)


def _nccl_subsystem(file: Optional[str], info: "Optional[NcclWarnInfo]", catalogs: "ErrorCatalogs") -> Optional[str]:
    """The part of NCCL a warning comes from: its format's file's, except for a macro's format (a header's:
    ``SYSCHECK``, ``CUDACHECK``), which prints where the macro was used, so the file the line names decides, also a
    file of an older layout that no format of the catalog names but a part's globs do (``include/shm.h:27 NCCL WARN
    Call to shm_open failed``: the shared-memory part, not include/checks.h's CUDA calls); with no format, the file
    the line names (by its globs; a file the catalog does not know falls to the catch-all)."""
    printed = catalogs.subsystem_of(file) if file and catalogs.knows_file(file) else None
    if info is not None:
        if not info.file.startswith("include/"):
            return info.subsystem
        return printed or (catalogs.named_subsystem_of(file) if file else None) or info.subsystem
    return printed or (catalogs.subsystem_of(file) if file else None)


#: where what nvidia-container-cli printed ends in the text a runtime quotes it in: an escaped or real line break,
#: a closing quote (``... stderr: nvidia-container-cli: ...\\n\\"\""``)
_CLI_END = re.compile(r'\\+n|\n|\\*"')


def _container_cli(text: str, catalogs: "ErrorCatalogs") -> "list[CatalogMatch]":
    """The catalog entry of what follows ``nvidia-container-cli: ``: the library message (subsystem: its file's,
    except a shared helper's, which the CLI context decides), else the context alone; nothing when the text starts
    with no context and holds no message (the CLI's usage or help text)."""
    end = _CLI_END.search(text)
    text = (text[:end.start()] if end else text).strip().rstrip("`'.")
    if text.endswith(": unknown"):  # runc's and containerd's own ending
        text = text[:-len(": unknown")]
    context, info = catalogs.container_cli(text)
    if context is None and info is None:
        return []
    staged = catalogs.cli_subsystem_of_stage(context.stage) if context is not None else None
    if info is not None:
        subsystem = staged if info.subsystem == "system" and staged else info.subsystem
        return [CatalogMatch("container-cli", f"container-cli:{info.anchor}", info=info, subsystem=subsystem,
                             text=text, context=context)]
    assert context is not None
    return [CatalogMatch("container-cli", f"container-cli-stage:{context.anchor}", info=None,
                         subsystem=staged or context.subsystem, text=text, context=context)]


def _cuda(line: str, catalogs: "ErrorCatalogs", tail: bool = True) -> "list[CatalogMatch]":
    """The CUDA and NVML errors of ``line``: by enum name, then by the number and message of each printed form, then
    (with ``tail``: no other catalog read the line, so an NCCL warning or an Xid report is never searched for every
    message) by the message it holds."""
    out: list[CatalogMatch] = []

    def add(info: "Optional[CudaErrorInfo]", api: str, number: Optional[int], text: str) -> None:
        if info is None and number is not None:
            info = catalogs.cuda_error(api, number)
        key = f"cuda:{info.api}:{info.code}" if info is not None else f"cuda:unknown:{api}:{number}:{text[:60]}"
        if all(key != m.key for m in out):
            out.append(CatalogMatch("cuda", key, info.code if info is not None else number, info,
                                    info.api if info is not None else api, text=text))

    for name in _form("name").findall(line):
        info = catalogs.cuda_by_name(name)
        if info is not None:
            add(info, info.api, info.code, name)
    for name in _form("pynvml").findall(line):  # pynvml's exception classes: NVMLError_DriverNotLoaded
        info = catalogs.cuda_by_name(name, "nvml")
        if info is not None:
            add(info, "nvml", info.code, name)
    if out:
        return out
    for form, reader in _READERS:
        found = _form(form).search(line)
        if found and reader(found, line, catalogs, add):
            break
    if tail and all(m.info is None for m in out):  # no form named an entry: a message quoted by another program's wrapper
        tail = _tail(line, catalogs)
        if tail is not None:
            return [CatalogMatch("cuda", f"cuda:{tail.api}:{tail.code}", tail.code, tail, tail.api, text=tail.message or "")]
    return out


def _message(text: str, catalogs: "ErrorCatalogs", apis: tuple = ("runtime", "driver")) -> "Optional[CudaErrorInfo]":
    """The entry whose message ``text`` shows: the text itself, then after a number that opens it, then each quoted
    part (``/csrc/x.cuh:307 'peer access is not supported between these two devices'``), then an enum-like name
    (``DriverNotLoaded``)."""
    candidates = [text, re.sub(_LEADING_NUMBER, "", text), *re.findall(r"'([^']{3,300})'", text)]
    for candidate in candidates:
        info = catalogs.cuda_by_message(candidate.strip().strip("'\""), apis) if candidate.strip() else None
        if info is not None:
            return info
    word = re.match(r"\s*([A-Z][A-Za-z]{2,60})\b", text)
    return catalogs.cuda_by_name(word.group(1), apis[0]) if word and len(apis) == 1 else None


def _leading_number(text: str) -> Optional[int]:
    found = re.match(_LEADING_NUMBER, text.strip())
    return int(found.group(1)) if found else None


def _read_driver(m, line, catalogs, add) -> bool:  # torch's driver API form: CUDA driver error: MESSAGE
    add(_message(m.group(1), catalogs, ("driver", "runtime")), "driver", None, m.group(1).strip())
    return True


def _read_nccl_cu(m, line, catalogs, add) -> bool:  # NCCL's CUCHECK: Cuda failure N 'cuGetErrorString' (a CUresult)
    number = int(m.group(1))
    info = catalogs.cuda_error("driver", number)
    add(info if info is not None else _message(m.group(2), catalogs, ("driver",)), "driver", number, m.group(2))
    return True


def _read_old(m, line, catalogs, add) -> bool:
    """torch's THC errors (before CUDA 10.1 renumbered the codes): the message decides, the number only names it."""
    number, text = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    info = _message(text, catalogs, ("runtime",))
    add(info, "runtime", None if info is not None else int(number), text.strip())
    return True


def _read_failed_with(m, line, catalogs, add) -> bool:  # CTranslate2: CUDA failed with error MESSAGE
    add(_message(m.group(1), catalogs), "runtime", None, m.group(1).strip())
    return True


def _read_samples(m, line, catalogs, add) -> bool:
    """The CUDA samples' check (``Failed to allocate device vector A (error code system not yet initialized)!``,
    vectorAdd's ``cudaGetErrorString``): a message only when the catalog holds it, since other programs print
    "(error code N)" too."""
    info = _message(m.group(1), catalogs)
    if info is None:
        return False
    add(info, "runtime", None, m.group(1).strip())
    return True


def _read_returned(m, line, catalogs, add) -> bool:  # deviceQuery, cuda-gdb: cudaX returned 35 / (0x2c0)
    value = m.group(2)
    add(None, "runtime", int(value, 16) if value.lower().startswith("0x") else int(value), line[m.start():m.end()])
    return True


def _read_init_failure(m, line, catalogs, add) -> bool:
    """Ollama's GPU discovery (``discover/gpu_info_*.c``): ``cuda driver library init failure: 999`` and
    ``nvcuda init failure: N`` print cuInit's CUresult, ``cudart init failure: N`` cudaSetDevice's cudaError_t."""
    api = "runtime" if m.group(1) == "cudart" else "driver"
    add(None, api, int(m.group(2)), m.group(0))
    return True


def _read_nvml(m, line, catalogs, add) -> bool:  # nvidia-smi, nvidia-container-cli, NVML bindings
    add(_message(m.group(1), catalogs, ("nvml",)), "nvml", None, m.group(1).strip())
    return True


def _read_init(m, line, catalogs, add) -> bool:  # torch's start-up warning: ... cudaGetDeviceCount() ... Error N: MESSAGE
    if "cudaGetDeviceCount" not in line and "CUDA initialization" not in line:
        return False
    number = int(m.group(1))
    add(catalogs.cuda_error("runtime", number) or _message(m.group(2), catalogs), "runtime", number, m.group(2).strip())
    return True


def _read_cuda(m, line, catalogs, add) -> bool:
    """``CUDA error: MESSAGE`` (torch), ``Cuda failure 'MESSAGE'`` (NCCL's CUDACHECK), ``Cuda error: 2[...]``,
    ``Cuda failure: 222 MESSAGE``, ``Failed: Cuda error FILE:LINE 'MESSAGE'``: a printed code decides, else the
    message."""
    text = m.group(3).strip()
    number = m.group(1) or m.group(2)
    number = int(number) if number else _leading_number(text)
    info = catalogs.cuda_error("runtime", number) if number is not None else None
    info = info or (_message(text, catalogs) if text else None)
    if info is None and number is None and not _reads_as_error(text.strip("'")):
        return False
    add(info, "runtime", number, text.strip("'"))
    return True


def _read_versus(m, line, catalogs, add) -> bool:  # a status compared with cudaSuccess: (35 vs. 0)
    if "cuda" not in line.lower():
        return False
    add(None, "runtime", int(m.group(1)), line[max(0, m.start() - 80):m.end()].strip())
    return True


#: the printed forms, most specific first; the first that reads the line decides
_READERS = (("driver", _read_driver), ("nccl-cu", _read_nccl_cu), ("old", _read_old), ("failed-with", _read_failed_with),
            ("returned", _read_returned), ("init-failure", _read_init_failure), ("samples", _read_samples), ("nvml", _read_nvml), ("init", _read_init), ("cuda", _read_cuda),
            ("versus", _read_versus))


#: words that make a message CUDA's wherever it stands (``no CUDA-capable device``, ``a PTX JIT compilation failed``)
_CUDA_WORDS = re.compile(r"CUDA|PTX|GPU|MPS|NVLink|nvlink|ECC|__\w")
#: a message with this many words or more is read wherever it stands
_STANDALONE_WORDS = 5
#: what tells that a line is about CUDA, for a short message: the word ``cuda`` in any case (not a path, version or name
#: part: ``/usr/local/cuda-12.2/``, ``cuda-vectoradd``, ``barracuda``), or a driver API call (``cuInit``)
_CUDA_CONTEXT = re.compile(r"\b[Cc][Uu][Dd][Aa]\b(?![-/.])|\bcu[A-Z][A-Za-z]{2,40}\b")
#: what may stand just before a short message: ``: ``, a quote, an opening bracket or ``=``
_TAIL_OPENERS = (":", "'", '"', "(", "[", "=")
#: the shortest message read this way (and made a literal)
_TAIL_MIN_LENGTH = 8
#: a character that continues a word, so that a message it touches is part of a longer text
_WORD_CHAR = re.compile(r"[A-Za-z0-9_-]")
#: ASCII upper case to lower case only: the folded line keeps the length of the line (``str.lower`` may not)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def stands_alone(message: str) -> bool:
    """Whether ``message`` (a ``cudaGetErrorString`` text) names a CUDA error wherever a line holds it: it names CUDA,
    PTX, a GPU, MPS, NVLink or ECC, or has :data:`_STANDALONE_WORDS` words or more (``device kernel image is invalid``);
    a shorter one (``misaligned address``) is read only after ``: `` on a line that names CUDA."""
    return bool(_CUDA_WORDS.search(message)) or len(message.split()) >= _STANDALONE_WORDS


def tail_messages(messages: "list[str] | tuple[str, ...]") -> "list[str]":
    """The ``messages`` read by the message alone: each of :data:`_TAIL_MIN_LENGTH` characters or more, stripped,
    sorted, each once (what the bundle stores as ``catalog_messages``)."""
    return sorted({m.strip() for m in messages if isinstance(m, str) and len(m.strip()) >= _TAIL_MIN_LENGTH})


def message_literals(messages: "list[str] | tuple[str, ...]") -> "list[str]":
    """The literals that bring a line quoting one of ``messages`` (runtime and driver ``cudaGetErrorString`` texts)
    to :func:`recognise`: each message after ``": "``, also with its first letter upper-cased (``: No CUDA-capable
    device is detected``), and after a quote (``'out of memory``, ``error="unspecified launch failure"`` as Go and JSON
    logs write it), sorted, each once. ``lingjun-kb bundle`` stores
    the messages in the bundle (:func:`tail_messages`), so a log is searched for them without reading the catalogs
    first.

    Wrappers quote a message after a colon (``Status: MESSAGE``, ``failed to initialize CUDA: MESSAGE``) or in quotes;
    a literal that opens with the message's own first letter would stop the log's search at most letters of every
    line (measured with bench/log_scan.py: 14 % slower), one that opens with ``:`` or a quote does not (the double
    quote, for ``error="unspecified launch failure"`` as Go and JSON logs write it: 2.13 s -> 2.18 s on 32 MiB)."""
    out = set()
    for message in tail_messages(messages):
        out.update((": " + message, ": " + message[0].upper() + message[1:], "'" + message, "\"" + message))
    return sorted(out)


def _tail(line: str, catalogs: "ErrorCatalogs") -> "Optional[CudaErrorInfo]":
    """The runtime or driver entry whose message ``line`` holds between word boundaries (the longest, runtime first):
    anywhere for a message that :func:`stands_alone`, else after one of :data:`_TAIL_OPENERS` on a line that names
    CUDA (:data:`_CUDA_CONTEXT`); None when it holds none."""
    folded = line.translate(_ASCII_LOWER)
    context: Optional[bool] = None
    by_word = _tail_index(catalogs)
    # only the messages whose first word the line holds (a few, most lines none), in the rows' order
    picked = sorted({at for word in set(_FIRST_WORD.findall(folded)) for at in by_word.get(word, ())})
    if not picked:
        return None
    rows = _tail_rows(catalogs)
    for message, alone, info in (rows[at] for at in picked):
        at = folded.find(message)
        while at >= 0:
            end = at + len(message)
            if _bounded(folded, at, end):
                if alone:
                    return info
                if context is None:
                    context = bool(_CUDA_CONTEXT.search(line[:at] + line[end:]))
                if context and line[:at].rstrip().endswith(_TAIL_OPENERS):
                    return info
            at = folded.find(message, at + 1)
    return None


#: a word of a lower-cased line or message, as :func:`_tail_index` keys the messages by their first one
_FIRST_WORD = re.compile(r"[a-z0-9]+")


def _tail_index(catalogs: "ErrorCatalogs") -> "dict[str, tuple[int, ...]]":
    """The rows of :func:`_tail_rows` by the first word of their message (``{"out": (3, 17), ...}``): a line is
    searched only for the messages whose first word it holds; made once per catalogs object."""
    index = catalogs.__dict__.get("_catalog_lines_tail_index")
    if index is None:
        grouped: dict[str, list[int]] = {}
        for at, (message, _alone, _info) in enumerate(_tail_rows(catalogs)):
            words = _FIRST_WORD.findall(message)
            grouped.setdefault(words[0] if words else "", []).append(at)
        index = {word: tuple(rows) for word, rows in grouped.items()}
        catalogs.__dict__["_catalog_lines_tail_index"] = index
    return index


def _tail_rows(catalogs: "ErrorCatalogs") -> "list[tuple[str, bool, CudaErrorInfo]]":
    """``[(message lower-cased, stands alone, entry)]`` of the runtime then the driver messages, longest first within
    each; made once per catalogs object."""
    rows = catalogs.__dict__.get("_catalog_lines_tails")
    if rows is None:
        rows = [(message.translate(_ASCII_LOWER), stands_alone(message), info)
                for api in ("runtime", "driver") for message, info in catalogs.cuda_messages(api)
                if len(message.strip()) >= _TAIL_MIN_LENGTH]
        catalogs.__dict__["_catalog_lines_tails"] = rows
    return rows


def _bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is not part of a longer word (no letter, digit, ``_`` or ``-`` touches it)."""
    return ((start == 0 or not _WORD_CHAR.match(text[start - 1]))
            and (end == len(text) or not _WORD_CHAR.match(text[end])))


def _reads_as_error(text: str) -> bool:
    """Whether the words after ``CUDA error`` are an error's message rather than prose that names CUDA errors
    (``CUDA error checking is enabled``, ``CUDA errors might be asynchronously reported``)."""
    words = text.split()
    return bool(words) and words[0].lower() not in {"checking", "check", "checks", "handling", "reporting", "s", "is",
                                                    "was", "will", "might", "may", "can", "could", "messages"}
