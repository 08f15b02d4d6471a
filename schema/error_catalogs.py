"""pydantic models of the error catalogs: ``releases/errors/`` (every Xid, CUDA error and NCCL warning).

The two catalogs of format strings share one shape (:class:`_FormatCatalog`: versions, subsystems by source
file globs, messages with file, line range, version range and printf format).

Unlike an error signature (one error line, written from the reports that printed it), a catalog holds every
entry of an error space as its maker defines it, each entry citing the catalog's source and edition:

==========================  ==========================  =========================================================
kind                        model                       where, and its source
==========================  ==========================  =========================================================
``xid-catalog``             :class:`XidCatalog`         ``releases/errors/xid.yaml``: NVIDIA's Xid catalog
                                                        (https://docs.nvidia.com/deploy/xid-errors/index.html)
``cuda-error-catalog``      :class:`CudaErrorCatalog`   ``releases/errors/cuda-errors.yaml``: ``cudaError_t``,
                                                        ``CUresult``, ``nvmlReturn_t``, ``cublasStatus_t`` and
                                                        ``cudnnStatus_t`` with their messages
``nccl-warning-catalog``    :class:`NcclWarningCatalog` ``releases/errors/nccl-warnings.yaml``: every ``WARN``
                                                        format string of NCCL's source, by subsystem
==========================  ==========================  =========================================================

and ``container-cli-error-catalog`` (:class:`ContainerCliCatalog`), ``releases/errors/nvidia-container-cli.yaml``:
every error message of libnvidia-container, what ``nvidia-container-cli`` prints when a GPU container fails to start.

The checker reads them (compiled into ``checks/data/error-catalogs.json``) only when a log or an error line is
read: :mod:`lingjun.checks.knowledge.error_catalogs`.
"""

from __future__ import annotations

import fnmatch
import re
from typing import Annotated, Literal, Optional

from pydantic import Field, StrictInt, StringConstraints, field_validator, model_validator

from lingjun.schema.fields import Identifier, ShortText, Url
from lingjun.schema._base import LocalizedText, StrictModel

__all__ = [
    "CatalogSource", "XidEntry", "XidCatalog", "CudaErrorEntry", "CudaErrorCatalog", "CUDA_ERROR_CLASSES", "CUDA_APIS",
    "FormatSubsystem", "FormatMessage", "NcclSubsystem", "SocketErrno", "NcclMessage", "NcclWarningCatalog", "ContainerCliSubsystem",
    "ContainerCliMessage", "ContainerCliCatalog", "ERROR_CATALOG_MODELS",
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


#: the lists of :class:`CudaErrorCatalog`, one per API, in the order the checker and the site read them
CUDA_APIS = ("runtime", "driver", "nvml", "cublas", "cudnn")


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

    xid: StrictInt = Field(ge=0, le=100000)
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
    #: the toolkit (or NVML, cuDNN) release that added the code, where a source shows it
    since: Optional[ShortText] = None
    #: the names older releases of the library gave this code, still printed by programs built on them (cuDNN 8's
    #: ``CUDNN_STATUS_MAPPING_ERROR``, a deprecated alias of cuDNN 9's ``CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED``)
    older_names: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{2,80}$")]] = Field(default_factory=list)
    #: the error signature that holds this error's causes and remedies in detail, where one does
    signature: Optional[Identifier] = None

    model_config = StrictModel.model_config | {"populate_by_name": True}


class CudaErrorCatalog(_Catalog):
    """``releases/errors/cuda-errors.yaml``: ``runtime`` (``cudaError_t``), ``driver`` (``CUresult``), ``nvml``
    (``nvmlReturn_t``), ``cublas`` (``cublasStatus_t``) and ``cudnn`` (``cudnnStatus_t``), each sorted by code, each
    code once; a name (or an older name) belongs to one entry of its list."""

    kind: Literal["cuda-error-catalog"]
    runtime: list[CudaErrorEntry] = Field(min_length=1)
    driver: list[CudaErrorEntry] = Field(min_length=1)
    nvml: list[CudaErrorEntry] = Field(default_factory=list)
    cublas: list[CudaErrorEntry] = Field(default_factory=list)
    cudnn: list[CudaErrorEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _ordered(self) -> "CudaErrorCatalog":
        for section in CUDA_APIS:
            entries = getattr(self, section)
            codes = [e.code for e in entries]
            if codes != sorted(set(codes)):
                raise ValueError(f"{section}: each code once, in ascending order")
            names = [n for e in entries for n in [e.name, *e.older_names]]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                raise ValueError(f"{section}: each name once (an entry's name or older name): {', '.join(twice)}")
        return self

    def remedy_of(self, api: str, entry: CudaErrorEntry) -> Optional[LocalizedText]:
        """What to do about ``entry`` of ``api``: its own remedy, else, for a driver-API code (``CUresult``), the
        remedy of the runtime code with the same number and message (the driver API's 801 ``operation not
        supported`` is the runtime's ``cudaErrorNotSupported``: torch prints ``CUDA driver error: ...`` for it);
        None when neither has one (the class's remedy applies)."""
        if entry.remedy is not None or api != "driver" or not entry.message:
            return entry.remedy
        twin = next((e for e in self.runtime if e.code == entry.code), None)
        if twin is not None and twin.message and twin.message.lower() == entry.message.lower():
            return twin.remedy
        return None


class FormatSubsystem(StrictModel):
    """A part of a program, by the source files that make it, with what a message from it points to and what to try.

    Shared by the catalogs of format strings (NCCL's warnings, libnvidia-container's errors)."""

    id: Identifier
    #: glob patterns of source paths (``transport/net_ib*``; ``fnmatch``, ``*`` also matches ``/``); the first
    #: subsystem whose pattern matches a message's file owns it.  Path characters, ``*`` and ``?`` only: a bracket
    #: class (``[z-a]``) reads differently in Python and in the site's JavaScript, which may refuse it
    files: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.*?/+-]{1,120}$")]] = Field(min_length=1)
    title: LocalizedText
    points_to: LocalizedText
    remedy: LocalizedText

    @field_validator("id")
    @classmethod
    def _not_an_anchor(cls, value: str) -> str:
        if re.fullmatch(r"[0-9a-f]{8}", value):
            raise ValueError("8 hexadecimal digits is the shape of a message's anchor on the site; name the part in words")
        return value


#: a release a format catalog read (``2.21.5``, ``1.17.0``)
ReleaseVersion = Annotated[str, StringConstraints(pattern=r"^\d{1,6}\.\d{1,6}\.\d{1,6}$")]


class FormatMessage(StrictModel):
    """One format string of a program's source: where it sits (``file``, the first and last line seen across the
    versions read), the first and last version that hold it, and the printf ``format``."""

    file: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    lines: list[Annotated[StrictInt, Field(ge=1, le=10_000_000)]] = Field(min_length=2, max_length=2)
    versions: list[ReleaseVersion] = Field(min_length=2, max_length=2)
    format: PrintedText

    @model_validator(mode="after")
    def _ranges_in_order(self) -> "FormatMessage":
        if self.lines[0] > self.lines[1]:
            raise ValueError(f"lines {self.lines[0]} to {self.lines[1]}: the first line seen comes after the last")
        first, last = (tuple(int(part) for part in v.split(".")) for v in self.versions)
        if first > last:
            raise ValueError(f"versions {self.versions[0]} to {self.versions[1]}: the first version comes after the last")
        return self


class _FormatCatalog(_Catalog):
    """A catalog of format strings read from a program's source releases: ``versions`` (oldest first), the
    ``subsystems`` and the ``messages``; every message's file belongs to a subsystem and its versions are read ones.

    Subclasses narrow ``subsystems`` and ``messages`` to their own models."""

    versions: list[ReleaseVersion] = Field(min_length=1)
    subsystems: list[FormatSubsystem] = Field(min_length=1)
    messages: list[FormatMessage] = Field(min_length=1)

    def subsystem_of(self, file: str) -> Optional[str]:
        """The id of the first subsystem one of whose patterns matches ``file`` (``transport/net_ib.cc`` -> ``ib``)."""
        return next((s.id for s in self.subsystems if any(fnmatch.fnmatchcase(file, p) for p in s.files)), None)

    @model_validator(mode="after")
    def _owned(self) -> "_FormatCatalog":
        for i, message in enumerate(self.messages):
            if self.subsystem_of(message.file) is None:
                raise ValueError(f"messages[{i}].file {message.file!r}: no subsystem's files match it")
        return self

    def contexts(self) -> set[str]:
        """The prefixes of the messages that wrap another one (``mount error`` of ``"mount error: %s"``); none
        unless the catalog's messages say ``context``."""
        return {m.format[:-len(": %s")] for m in self.messages
                if getattr(m, "context", False) and m.format.endswith(": %s")}


class SocketErrno(StrictModel):
    """One Linux ``errno`` a part's messages print (NCCL's ``returned 113(No route to host)``, ``failed : Connection
    refused``): its number and name (``include/uapi/asm-generic/errno.h``), the text glibc's ``strerror`` gives it,
    what it says about the connection, what to try, and the page that states its meaning."""

    errno: StrictInt = Field(ge=1, le=4095)
    name: Annotated[str, StringConstraints(pattern=r"^E[A-Z0-9]{2,20}$")]
    #: glibc's ``strerror`` text, as the line prints it (``No route to host``)
    message: Annotated[str, StringConstraints(min_length=4, max_length=80)]
    points_to: LocalizedText
    remedy: LocalizedText
    source: Url


class NcclSubsystem(FormatSubsystem):
    """A part of NCCL; ``errnos``: the system errors its messages print whose meaning changes what to try first
    (a firewall's reject for 113, nothing listening for 111), each once."""

    errnos: list[SocketErrno] = Field(default_factory=list)

    @model_validator(mode="after")
    def _each_errno_once(self) -> "NcclSubsystem":
        numbers = [e.errno for e in self.errnos]
        messages = [e.message.lower() for e in self.errnos]
        if len(set(numbers)) != len(numbers) or len(set(messages)) != len(messages):
            raise ValueError("errnos: each errno, and each message, once")
        return self


#: the NCCL catalog's messages (the name its code and JSON Schema have always used)
NcclMessage = FormatMessage


class NcclWarningCatalog(_FormatCatalog):
    """``releases/errors/nccl-warnings.yaml``: every ``WARN`` of the NCCL releases read (``file`` relative to NCCL's
    ``src/``), and the subsystems."""

    kind: Literal["nccl-warning-catalog"]
    subsystems: list[NcclSubsystem] = Field(min_length=1)


class ContainerCliSubsystem(FormatSubsystem):
    """A part of libnvidia-container; ``stages``: the CLI contexts (``mount error``) whose messages from the shared
    helpers (``src/utils.c``, ``src/xfuncs.h``) it owns, as the context decides where such a message was met."""

    stages: list[Annotated[str, StringConstraints(min_length=2, max_length=60)]] = Field(default_factory=list)


class ContainerCliMessage(FormatMessage):
    """One error message libnvidia-container sets or ``nvidia-container-cli`` prints (``file``: the path in the
    repository).  ``appends``: what the library adds after ``": "`` (``errno``: ``strerror(errno)``; ``dlerror``;
    ``nvml``: ``nvmlErrorString``; ``rpc``: the RPC status; ``elf``: libelf's message); ``context``: a CLI format
    whose ``%s`` is another message (``"mount error: %s"``)."""

    appends: Optional[Literal["errno", "dlerror", "nvml", "rpc", "elf"]] = None
    context: bool = False


class ContainerCliCatalog(_FormatCatalog):
    """``releases/errors/nvidia-container-cli.yaml``: every error message of the libnvidia-container commits read
    (``commits``: one per version, the commit NVIDIA Container Toolkit's release of that number pins)."""

    kind: Literal["container-cli-error-catalog"]
    commits: list[Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]] = Field(min_length=1)
    subsystems: list[ContainerCliSubsystem] = Field(min_length=1)
    messages: list[ContainerCliMessage] = Field(min_length=1)



#: catalog kind -> model (added to :data:`lingjun.schema.models.DOCUMENT_MODELS`)
ERROR_CATALOG_MODELS = {
    "xid-catalog": XidCatalog,
    "cuda-error-catalog": CudaErrorCatalog,
    "nccl-warning-catalog": NcclWarningCatalog,
    "container-cli-error-catalog": ContainerCliCatalog,
}
