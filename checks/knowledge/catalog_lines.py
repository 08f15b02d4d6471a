"""Recognising a log line by the error catalogs: an Xid, a CUDA or NVML error in any printed form, an NCCL warning.

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
* ``(35 vs. 0)``: a status compared with ``cudaSuccess`` (Caffe2, TensorFlow and CUTLASS checks);
* ``Failed to initialize NVML: Driver/library version mismatch``: ``nvidia-smi`` and NVML's users.

Standard library only.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # a plain check imports this module for LITERALS only: the catalogs and expressions wait for a log line
    from lingjun.checks.knowledge.error_catalogs import CudaErrorInfo, ErrorCatalogs, NcclWarnInfo, XidInfo

__all__ = ["LITERALS", "CatalogMatch", "recognise"]

#: what a line must hold to be read here (case-sensitive, as the programs print it)
LITERALS = ("NVRM: Xid", "NCCL WARN", "CUDA error", "CUDA Error", "Cuda error", "cuda error", "Cuda failure",
            "CUDA failure", "cudaError", "CUDA_ERROR_", "NVML_ERROR_", "initialize NVML", "cudaGetDeviceCount",
            "CUDA initialization", " vs. 0)")

#: the expressions that read a line holding one of :data:`LITERALS`, by form (compiled on the first such line)
_FORMS = {
    "xid": r"NVRM: Xid \(([^)]{0,64})\):? ?(\d{1,6})\b",
    "nccl": r"(?:([\w.+/-]{1,200}\.(?:cc|cu|cpp|cxx|c|h|hpp)):(\d{1,7}) (?:\([\w:~<>, ]{0,120}\) )?)?NCCL WARN (.*)",
    "name": r"\b(cudaError[A-Z]\w{1,60}|CUDA_ERROR_[A-Z0-9_]{2,60}|NVML_ERROR_[A-Z0-9_]{2,60})\b",
    "driver": r"CUDA driver error: (.{1,300})",
    "cuda": r"(?:CUDA|Cuda|cuda) (?:error|Error|failure)(?: (\d{1,6}))?(?: ?\((\d{1,6})\))?[:,]? ?'?(.{0,300})",
    "init": r"Error (\d{1,6}): (.{1,300})",
    "versus": r"\((\d{1,6}) vs\. 0\)",
    "nvml": r"(?:initialize NVML|NVML error|nvmlInit\w*\(\) failed):? (.{1,300})",
}


@functools.lru_cache(maxsize=None)
def _form(name: str) -> "re.Pattern[str]":
    return re.compile(_FORMS[name])


@dataclass(frozen=True)
class CatalogMatch:
    """What one line showed, by catalog (``xid``, ``cuda``, ``nccl``).

    ``key`` tells two matches of the same entry apart from two of different ones (``xid:45``,
    ``cuda:runtime:802``, ``cuda:unknown:<message>``, ``nccl:<anchor>``, ``nccl-file:<file>``); ``number`` is the
    Xid or error code the line states (None when it states none); ``info`` the catalog entry or None (the catalog
    does not hold it); ``api`` the CUDA API the printed form belongs to; for NCCL, ``file`` and ``line`` as printed
    and ``subsystem`` (None when neither the format nor the file is known); ``text`` the message as printed."""

    catalog: str
    key: str
    number: Optional[int] = None
    info: "Optional[XidInfo | CudaErrorInfo | NcclWarnInfo]" = None
    api: Optional[str] = None
    file: Optional[str] = None
    line: Optional[int] = None
    subsystem: Optional[str] = None
    text: str = ""


def recognise(line: str, catalogs: "ErrorCatalogs") -> "list[CatalogMatch]":
    """Every catalog entry ``line`` shows, each once, in the order: Xid, NCCL warning, CUDA/NVML errors.

    An NCCL warning that quotes a CUDA error (``NCCL WARN Cuda failure 'out of memory'``) gives both."""
    found: list[CatalogMatch] = []
    xid = _form("xid").search(line)
    if xid:
        number = int(xid.group(2))
        found.append(CatalogMatch("xid", f"xid:{number}", number, catalogs.xid(number), text=line[xid.start():]))
    nccl = _form("nccl").search(line) if "NCCL WARN" in line else None
    if nccl:
        found.append(_nccl(nccl, catalogs))
    for match in _cuda(line, catalogs):
        if all(match.key != m.key for m in found):
            found.append(match)
    return found


def _nccl(m: "re.Match[str]", catalogs: "ErrorCatalogs") -> CatalogMatch:
    file, number, message = m.group(1), m.group(2), m.group(3).strip()
    info = catalogs.nccl_warning(file, message)
    subsystem = info.subsystem if info is not None else (catalogs.subsystem_of(file) if file else None)
    key = f"nccl:{info.anchor}" if info is not None else f"nccl-file:{file or ''}:{subsystem or ''}"
    return CatalogMatch("nccl", key, info=info, file=file, line=int(number) if number else None, subsystem=subsystem,
                        text=message)


def _cuda(line: str, catalogs: "ErrorCatalogs") -> "list[CatalogMatch]":
    """The CUDA and NVML errors of ``line``: by enum name, then by the message of each printed form."""
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
    if out:
        return out
    driver = _form("driver").search(line)
    if driver:
        add(catalogs.cuda_by_message(driver.group(1), ("driver", "runtime")), "driver", None, driver.group(1).strip())
        return out
    nvml = _form("nvml").search(line)
    if nvml:
        info = catalogs.cuda_by_message(nvml.group(1), ("nvml",))
        add(info, "nvml", None, nvml.group(1).strip())
        return out
    if "cudaGetDeviceCount" in line or "CUDA initialization" in line:
        init = _form("init").search(line)
        if init:
            add(catalogs.cuda_error("runtime", int(init.group(1))) or catalogs.cuda_by_message(init.group(2)), "runtime",
                int(init.group(1)), init.group(2).strip())
            return out
    error = _form("cuda").search(line)
    if error:
        number = error.group(1) or error.group(2)
        text = error.group(3).strip().strip("'")
        info = catalogs.cuda_error("runtime", int(number)) if number else None  # a printed code decides
        info = info or (catalogs.cuda_by_message(text) if text else None)
        if info is not None or number or _reads_as_error(text):
            add(info, "runtime", int(number) if number else None, text)
            return out
    versus = _form("versus").search(line)
    if versus and "cuda" in line.lower():
        add(None, "runtime", int(versus.group(1)), line[max(0, versus.start() - 80):versus.end()].strip())
    return out


def _reads_as_error(text: str) -> bool:
    """Whether the words after ``CUDA error`` are an error's message rather than prose that names CUDA errors
    (``CUDA error checking is enabled``, ``CUDA errors might be asynchronously reported``)."""
    words = text.split()
    return bool(words) and words[0].lower() not in {"checking", "check", "checks", "handling", "reporting", "s", "is",
                                                    "was", "will", "might", "may", "can", "could", "messages"}
