"""pydantic models of the error catalogs: ``releases/errors/`` (every Xid, CUDA error and NCCL warning).

Unlike an error signature (one error line, written from the reports that printed it), a catalog holds every
entry of an error space as its maker defines it, each entry citing the catalog's source and edition:

==========================  ==========================  =========================================================
kind                        model                       where, and its source
==========================  ==========================  =========================================================
``xid-catalog``             :class:`XidCatalog`         ``releases/errors/xid.yaml``: NVIDIA's Xid catalog
                                                        (https://docs.nvidia.com/deploy/xid-errors/index.html)
``cuda-error-catalog``      :class:`CudaErrorCatalog`   ``releases/errors/cuda-errors.yaml``: ``cudaError_t``,
                                                        ``CUresult`` and ``nvmlReturn_t`` with their messages
``nccl-warning-catalog``    :class:`NcclWarningCatalog` ``releases/errors/nccl-warnings.yaml``: every ``WARN``
                                                        format string of NCCL's source, by subsystem
==========================  ==========================  =========================================================

The checker reads them (compiled into ``checks/data/error-catalogs.json``) only when a log or an error line is
read: :mod:`lingjun.checks.knowledge.error_catalogs`.
"""

from __future__ import annotations

import fnmatch
from typing import Annotated, Literal, Optional

from pydantic import Field, StringConstraints, model_validator

from lingjun.schema.fields import Identifier, ShortText, Url
from lingjun.schema._base import LocalizedText, StrictModel

__all__ = [
    "CatalogSource", "XidEntry", "XidCatalog", "CudaErrorEntry", "CudaErrorCatalog", "CUDA_ERROR_CLASSES",
    "NcclSubsystem", "NcclMessage", "NcclWarningCatalog", "ERROR_CATALOG_MODELS",
]

#: a line as printed by the program that defines it (a message, a format string)
PrintedText = Annotated[str, StringConstraints(min_length=1, max_length=600)]

#: what kind of fault an Xid reports
XidKind = Literal["application", "driver", "memory", "nvlink", "hardware", "power-thermal", "fabric",
                  "virtualization", "other"]

#: the classes of CUDA and NVML errors: the checker words a class's cause and remedy once (a table beside the
#: rule that reports them); ``class`` of every entry is one of them
CUDA_ERROR_CLASSES = ("driver-install", "driver-too-old", "forward-compat", "no-device", "memory", "kernel-fault",
                      "launch-config", "toolchain", "ecc-hardware", "nvlink-fabric", "peer-access", "mps",
                      "graph-stream", "usage", "not-supported", "system", "other")
CudaErrorClass = Literal["driver-install", "driver-too-old", "forward-compat", "no-device", "memory", "kernel-fault",
                         "launch-config", "toolchain", "ecc-hardware", "nvlink-fabric", "peer-access", "mps",
                         "graph-stream", "usage", "not-supported", "system", "other"]


class CatalogSource(StrictModel):
    """A public page or repository a catalog's entries are read from."""

    url: Url
    title: ShortText


class _Catalog(StrictModel):
    """What every catalog states about itself: its edition (what was read: a toolkit, a docs edition, a tag range)
    and its sources."""

    schema_version: Literal[1] = 1
    edition: ShortText
    sources: list[CatalogSource] = Field(min_length=1)


class XidEntry(StrictModel):
    """One Xid of NVIDIA's catalog: its number, NVIDIA's name for it, what it reports and what to do.

    ``action``: NVIDIA's immediate-action code as published (``RESTART_APP``, ``RESET_GPU``, ...), left out where
    the catalog gives none; ``action_text``: what an operator does, in our words, with the commands."""

    xid: int = Field(ge=0, le=100000)
    name: ShortText
    #: NVIDIA's mnemonic (``ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS``), where the catalog gives one
    mnemonic: Optional[Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9_]{1,100}$")]] = None
    kind: XidKind
    action: Optional[Annotated[str, StringConstraints(pattern=r"^[A-Z0-9_]{2,60}$")]] = None
    severity: Literal["error", "warning", "info"] = "error"
    meaning: LocalizedText
    action_text: Optional[LocalizedText] = None


class XidCatalog(_Catalog):
    """``releases/errors/xid.yaml``: every Xid of NVIDIA's catalog, by number (each once, ascending)."""

    kind: Literal["xid-catalog"]
    entries: list[XidEntry] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> "XidCatalog":
        numbers = [e.xid for e in self.entries]
        if numbers != sorted(set(numbers)):
            raise ValueError("entries: each Xid once, in ascending order")
        return self


class CudaErrorEntry(StrictModel):
    """One error code: its number, enum name, the message its library's error-string function returns (left out
    where no source shows it), its class and its meaning."""

    code: int = Field(ge=1, le=1_000_000)
    name: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{2,80}$")]
    message: Optional[PrintedText] = None
    #: the class of fault (:data:`CUDA_ERROR_CLASSES`)
    class_: CudaErrorClass = Field(alias="class")
    meaning: LocalizedText
    #: the messages older releases of the library returned for this code, as public logs show them
    older_messages: list[PrintedText] = Field(default_factory=list)
    #: what to do about this code when it differs from its class's remedy (the codes jobs meet most)
    remedy: Optional[LocalizedText] = None
    #: the toolkit (or NVML) release that added the code, where a source shows it
    since: Optional[ShortText] = None
    #: the error signature that holds this error's causes and remedies in detail, where one does
    signature: Optional[Identifier] = None

    model_config = StrictModel.model_config | {"populate_by_name": True}


class CudaErrorCatalog(_Catalog):
    """``releases/errors/cuda-errors.yaml``: ``runtime`` (``cudaError_t``), ``driver`` (``CUresult``) and ``nvml``
    (``nvmlReturn_t``), each sorted by code, each code once."""

    kind: Literal["cuda-error-catalog"]
    runtime: list[CudaErrorEntry] = Field(min_length=1)
    driver: list[CudaErrorEntry] = Field(min_length=1)
    nvml: list[CudaErrorEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _ordered(self) -> "CudaErrorCatalog":
        for section in ("runtime", "driver", "nvml"):
            codes = [e.code for e in getattr(self, section)]
            if codes != sorted(set(codes)):
                raise ValueError(f"{section}: each code once, in ascending order")
        return self


class NcclSubsystem(StrictModel):
    """A part of NCCL, by the source files that make it, with what a warning from it points to and what to try."""

    id: Identifier
    #: glob patterns of source paths relative to NCCL's ``src/`` (``transport/net_ib*``); the first subsystem
    #: whose pattern matches a message's file owns it
    files: list[Annotated[str, StringConstraints(min_length=1, max_length=120)]] = Field(min_length=1)
    title: LocalizedText
    points_to: LocalizedText
    remedy: LocalizedText


class NcclMessage(StrictModel):
    """One ``WARN`` format string of NCCL's source: where it sits (``file`` relative to ``src/``, the first and last
    line seen across the versions read) and the first and last version that hold it."""

    file: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    lines: list[int] = Field(min_length=2, max_length=2)
    versions: list[Annotated[str, StringConstraints(pattern=r"^\d+\.\d+\.\d+$")]] = Field(min_length=2, max_length=2)
    format: PrintedText


class NcclWarningCatalog(_Catalog):
    """``releases/errors/nccl-warnings.yaml``: every ``WARN`` of the NCCL releases read, and the subsystems."""

    kind: Literal["nccl-warning-catalog"]
    versions: list[Annotated[str, StringConstraints(pattern=r"^\d+\.\d+\.\d+$")]] = Field(min_length=1)
    subsystems: list[NcclSubsystem] = Field(min_length=1)
    messages: list[NcclMessage] = Field(min_length=1)

    def subsystem_of(self, file: str) -> Optional[str]:
        """The id of the first subsystem one of whose patterns matches ``file`` (``transport/net_ib.cc`` -> ``ib``)."""
        return next((s.id for s in self.subsystems if any(fnmatch.fnmatchcase(file, p) for p in s.files)), None)

    @model_validator(mode="after")
    def _owned(self) -> "NcclWarningCatalog":
        for i, message in enumerate(self.messages):
            if self.subsystem_of(message.file) is None:
                raise ValueError(f"messages[{i}].file {message.file!r}: no subsystem's files match it")
        return self


#: catalog kind -> model (added to :data:`lingjun.schema.models.DOCUMENT_MODELS`)
ERROR_CATALOG_MODELS = {
    "xid-catalog": XidCatalog,
    "cuda-error-catalog": CudaErrorCatalog,
    "nccl-warning-catalog": NcclWarningCatalog,
}
