"""The error catalogs (``releases/errors/``) as pages of the Troubleshooting section, and their search data.

A catalog holds every entry of an error space as its maker defines it (:mod:`lingjun.schema.error_catalogs`);
``lingjun-check`` links to each entry on the site (:meth:`lingjun.checks.knowledge.bundle.KnowledgeData.catalog_url`),
so every page and anchor below is an address the checker prints:

==========================  ====================================  ===================================================
catalog                     page                                  anchors
==========================  ====================================  ===================================================
``xid.yaml``                ``troubleshooting/xid/``              ``#xid-<N>``
``cuda-errors.yaml``        ``troubleshooting/cuda-errors/``      ``#cuda-runtime-<code>``, ``#cuda-driver-<code>``,
                                                                  ``#nvml-<code>``, ``#cublas-<code>``, ``#cudnn-<code>``;
                                                                  sections ``#cuda-runtime``, ``#cuda-driver``, ``#nvml``,
                                                                  ``#cublas``, ``#cudnn``; classes
                                                                  ``#cuda-class-<class>``
``nccl-warnings.yaml``      ``troubleshooting/nccl-warnings/``    ``#nccl-<subsystem id>`` (a section),
                                                                  ``#<nccl_anchor(file, format)>`` (a message)
``nvidia-container-cli``    ``troubleshooting/nvidia-container-   ``#cli-<subsystem id>`` (a section),
``.yaml``                   cli/``                                ``#<format_anchor("cli", file, format,
                                                                  appends)>`` (a message)
==========================  ====================================  ===================================================

A catalog the knowledge base does not hold has no page (and no row in the search data).  Every decision the pages
show is made here (:func:`error_catalogs`), never in a template: the anchors, the order (Xids and codes by number;
NCCL's messages by subsystem in the catalog's order, then by file and line), which CUDA entries link to an error
signature (only one the knowledge base holds: another id is shown as text), the subsystem of each NCCL message (the
first whose file patterns match, as the checker decides) and the messages that share one anchor (the same format
in the same file: one entry, with each range of lines and versions).

:meth:`ErrorCatalogPages.search_data` is what the search box's matcher of pasted lines reads
(``troubleshooting/catalogs.json``, written by :mod:`.build`; ``theme/assets/lingjun/known-errors.js``): compact rows
per catalog, the titles in the page's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from lingjun.checks.knowledge.error_catalogs import format_anchor, nccl_anchor
from lingjun.schema.error_catalogs import (
    CUDA_ERROR_CLASSES,
    CatalogSource,
    ContainerCliCatalog,
    ContainerCliSubsystem,
    CudaErrorCatalog,
    CudaErrorEntry,
    NcclSubsystem,
    NcclWarningCatalog,
    XidCatalog,
    XidEntry,
)
from lingjun.schema.models import LocalizedText

from lingjun.generator.site.nav import PageSpec, page_url
from lingjun.generator.site.strings import translate

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.schema.kb import KnowledgeBase

__all__ = [
    "CATALOG_PAGES",
    "CatalogPage",
    "XidView",
    "XidPage",
    "SignatureRef",
    "CudaErrorView",
    "CudaSection",
    "CudaClassView",
    "CudaPage",
    "NcclRun",
    "NcclMessageView",
    "NcclSection",
    "NcclPage",
    "CliMessageView",
    "CliSection",
    "CliPage",
    "ErrorCatalogPages",
    "error_catalogs",
    "CUDA_APIS",
    "SEARCH_FORMAT",
]

#: the version of the layout of ``troubleshooting/catalogs.json`` (known-errors.js checks it)
SEARCH_FORMAT = 1


@dataclass(frozen=True)
class CatalogPage:
    """One catalog's page: ``key`` (``xid``, ``cuda``, ``nccl``, as the checker's catalogs name them), its page id,
    docs path (built as ``troubleshooting/<name>/``, the address the checker links to), template and the interface
    string that names it (``catalog.<key>``: navigation, links, headings)."""

    key: str
    id: str
    path: str
    template: str

    @property
    def title_key(self) -> str:
        return f"catalog.{self.key}"

    @property
    def url(self) -> str:
        """The page's address from a language's site root (``troubleshooting/xid/``)."""
        return page_url(self.path)


#: the catalogs' pages, in navigation order (after the section's index, before the printers' pages); their ids start
#: with ``troubleshooting`` as the printers' pages do (pages whose subject is text quoted as printed)
CATALOG_PAGES: tuple[CatalogPage, ...] = (
    CatalogPage("xid", "troubleshooting-catalog:xid", "troubleshooting/xid.md", "error_catalog_xid.md.j2"),
    CatalogPage("cuda", "troubleshooting-catalog:cuda-errors", "troubleshooting/cuda-errors.md", "error_catalog_cuda.md.j2"),
    CatalogPage("nccl", "troubleshooting-catalog:nccl-warnings", "troubleshooting/nccl-warnings.md", "error_catalog_nccl.md.j2"),
    CatalogPage("container-cli", "troubleshooting-catalog:nvidia-container-cli", "troubleshooting/nvidia-container-cli.md",
                "error_catalog_container_cli.md.j2"),
)
_PAGE = {page.key: page for page in CATALOG_PAGES}

#: the CUDA catalog's sections: ``(api, the C type its codes belong to, section anchor)``, in page order
CUDA_APIS: tuple[tuple[str, str, str], ...] = (
    ("runtime", "cudaError_t", "cuda-runtime"),
    ("driver", "CUresult", "cuda-driver"),
    ("nvml", "nvmlReturn_t", "nvml"),
    ("cublas", "cublasStatus_t", "cublas"),
    ("cudnn", "cudnnStatus_t", "cudnn"),
)


# --------------------------------------------------------------------------
# Xid
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class XidView:
    """One Xid: the catalog entry and its anchor ``xid-<N>``."""

    entry: XidEntry

    @property
    def anchor(self) -> str:
        return f"xid-{self.entry.xid}"


class _OfCatalog:
    """What a catalog page says of its catalog (the subclass's ``catalog`` field): its edition and sources."""

    catalog: Any

    @property
    def edition(self) -> str:
        return self.catalog.edition

    @property
    def sources(self) -> list[CatalogSource]:
        return list(self.catalog.sources)


class _OfFormatCatalog(_OfCatalog):
    """A page of a catalog of format strings, which also names the releases it read."""

    @property
    def versions(self) -> list[str]:
        return list(self.catalog.versions)


@dataclass
class XidPage(_OfCatalog):
    """``troubleshooting/xid/``: every Xid of NVIDIA's catalog, by number."""

    page: CatalogPage
    catalog: XidCatalog
    entries: list[XidView]

    @property
    def count(self) -> int:
        return len(self.entries)


# --------------------------------------------------------------------------
# CUDA and NVML
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SignatureRef:
    """The error signature a CUDA entry names: its id, and its page id and title where the knowledge base holds
    it (None otherwise: the id is shown as text, never linked)."""

    id: str
    page_id: Optional[str]
    title: Optional[LocalizedText]


@dataclass(frozen=True)
class CudaErrorView:
    """One error code of one API (``runtime``, ``driver``, ``nvml``) with its anchor and the signature it names."""

    api: str
    entry: CudaErrorEntry
    signature: Optional[SignatureRef]
    #: the code's remedy (:meth:`lingjun.schema.error_catalogs.CudaErrorCatalog.remedy_of`: its own, or a driver
    #: code's runtime twin's), None for its class's
    own_remedy: Optional[LocalizedText] = None

    @property
    def anchor(self) -> str:
        """``cuda-runtime-802``, ``cuda-driver-999``, ``nvml-9``, ``cublas-1``, ``cudnn-1001`` (as
        :class:`~lingjun.checks.knowledge.error_catalogs.CudaErrorInfo`)."""
        return (f"cuda-{self.api}-{self.entry.code}" if self.api in ("runtime", "driver")
                else f"{self.api}-{self.entry.code}")

    @property
    def cls(self) -> str:
        return self.entry.class_

    @property
    def older_messages(self) -> list[str]:
        """The messages older releases of the library returned for the code (shown as printed)."""
        return list(getattr(self.entry, "older_messages", None) or [])

    @property
    def older_names(self) -> list[str]:
        """The names older releases gave the code (cuDNN 8's, for cuDNN 9's codes)."""
        return list(getattr(self.entry, "older_names", None) or [])

    @property
    def since(self) -> Optional[str]:
        """The release that added the code, where a source shows it."""
        return getattr(self.entry, "since", None)

    @property
    def remedy(self) -> Optional[LocalizedText]:
        """What to do about this code, where it differs from its class's remedy (else the class's, on the page)."""
        return self.own_remedy


@dataclass(frozen=True)
class CudaSection:
    """The codes of one API: ``api``, the C ``type_name`` (``cudaError_t``), the section's anchor and its entries."""

    api: str
    type_name: str
    anchor: str
    entries: list[CudaErrorView]


@dataclass(frozen=True)
class CudaClassView:
    """A class of CUDA/NVML error that entries of the page have: what it usually comes from and what to do, as
    ``lingjun-check`` words them (``{"en", "zh"}``), and how many entries have it."""

    id: str
    cause: dict[str, str]
    remedy: dict[str, str]
    count: int

    @property
    def anchor(self) -> str:
        return f"cuda-class-{self.id}"


@dataclass
class CudaPage(_OfCatalog):
    """``troubleshooting/cuda-errors/``: ``cudaError_t``, ``CUresult`` and ``nvmlReturn_t``, each by code."""

    page: CatalogPage
    catalog: CudaErrorCatalog
    sections: list[CudaSection]
    classes: list[CudaClassView]

    @property
    def count(self) -> int:
        return sum(len(section.entries) for section in self.sections)


# --------------------------------------------------------------------------
# NCCL
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class NcclRun:
    """Where one format sat over a run of the versions read: first and last line, first and last version."""

    lines: tuple[int, int]
    versions: tuple[str, str]

    @property
    def lines_text(self) -> str:
        """``1160`` or ``1160–1165``."""
        first, last = self.lines
        return str(first) if first == last else f"{first}–{last}"


@dataclass(frozen=True)
class NcclMessageView:
    """One ``WARN`` format string of one file, anchored by :func:`~lingjun.checks.knowledge.error_catalogs.nccl_anchor`;
    ``runs``: each range of lines and versions the catalog lists for it (one, unless the format left the source and
    came back)."""

    anchor: str
    file: str
    format: str
    runs: tuple[NcclRun, ...]


@dataclass(frozen=True)
class NcclSection:
    """A subsystem of NCCL: its catalog entry, the section's anchor ``nccl-<id>`` and its messages."""

    subsystem: NcclSubsystem
    messages: list[NcclMessageView]

    @property
    def anchor(self) -> str:
        return f"nccl-{self.subsystem.id}"


@dataclass
class NcclPage(_OfFormatCatalog):
    """``troubleshooting/nccl-warnings/``: every ``WARN`` of the NCCL releases read, a section per subsystem."""

    page: CatalogPage
    catalog: NcclWarningCatalog
    sections: list[NcclSection]

    @property
    def count(self) -> int:
        """The number of entries (distinct file and format) on the page."""
        return sum(len(section.messages) for section in self.sections)


# --------------------------------------------------------------------------
# nvidia-container-cli (libnvidia-container)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CliMessageView:
    """One libnvidia-container message: its anchor (``cli-<8 hex>``, the checker's
    :attr:`~lingjun.checks.knowledge.error_catalogs.ContainerCliInfo.anchor`), file, the format as a line shows it
    (with ``: %s`` where the library appends a system text), whether it is a CLI context, and its run of lines and
    versions."""

    anchor: str
    file: str
    printed: str
    context: bool
    run: NcclRun


@dataclass(frozen=True)
class CliSection:
    """A part of libnvidia-container: its catalog entry, the section's anchor ``cli-<id>`` and its messages."""

    subsystem: ContainerCliSubsystem
    messages: list[CliMessageView]

    @property
    def anchor(self) -> str:
        return f"cli-{self.subsystem.id}"


@dataclass
class CliPage(_OfFormatCatalog):
    """``troubleshooting/nvidia-container-cli/``: every error message of the libnvidia-container commits read, a
    section per subsystem (the contexts first in the CLI's section)."""

    page: CatalogPage
    catalog: ContainerCliCatalog
    sections: list[CliSection]

    @property
    def count(self) -> int:
        return sum(len(section.messages) for section in self.sections)


# --------------------------------------------------------------------------
# the pages
# --------------------------------------------------------------------------


@dataclass
class ErrorCatalogPages:
    """The catalogs the knowledge base holds, each as its page (None: no such catalog, no page)."""

    xid: Optional[XidPage] = None
    cuda: Optional[CudaPage] = None
    nccl: Optional[NcclPage] = None
    container_cli: Optional[CliPage] = None
    by_page_id: dict[str, Any] = field(default_factory=dict)

    @property
    def present(self) -> list[Any]:
        """The pages that exist, in navigation order."""
        return [view for view in (self.xid, self.cuda, self.nccl, self.container_cli) if view is not None]

    def page_specs(self, context: Callable[[Any, PageSpec], Any]) -> list[PageSpec]:
        """The :class:`PageSpec` of every page that exists (``context``: the page's template variables)."""
        specs = []
        for view in self.present:
            title = translate("en")(view.page.title_key), translate("zh")(view.page.title_key)
            specs.append(PageSpec(view.page.id, view.page.path, {"en": title[0], "zh": title[1]},
                                  view.page.template, context))
        return specs

    def search_data(self, lang: str) -> dict[str, Any]:
        """What ``known-errors.js`` looks a pasted line up in (``troubleshooting/catalogs.json``), in ``lang``.

        ``{"format": 1, "labels": {...}, "xid": {...}, "cuda": {...}, "nccl": {...}}``; a catalog the knowledge base
        does not hold is left out.  Each catalog: ``url`` (its page from the site root), and

        * ``xid``: ``rows`` ``[[number, NVIDIA's name], ...]``;
        * ``cuda``: ``rows`` ``[[api, code, enum name, message or "", (older messages), (older names)], ...]`` (api
          ``runtime``, ``driver``, ``nvml``, ``cublas``, ``cudnn``; the older messages only where the catalog lists
          some or the entry has older names, the older names only where it has some);
        * ``nccl``: ``subsystems`` ``[[id, title, [file patterns]], ...]``, ``files`` ``[[file, subsystem index],
          ...]`` and ``rows`` ``[[anchor, file index, format], ...]`` (anchor without its ``nccl-`` prefix), in the
          catalog's order, each file and format once;
        * ``container-cli``: ``subsystems`` ``[[id, title, [stages]], ...]`` and ``rows`` ``[[anchor, subsystem index,
          format as printed, 1 for a CLI context else 0, file], ...]`` (anchor without its ``cli-`` prefix), in the
          catalog's order.

        ``literals``, ``forms``, ``leading_number`` and ``tail`` are the checker's own (:func:`_line_forms`): a line is
        read only when it holds one of the literals (the forms' and every runtime and driver message,
        :func:`~lingjun.checks.knowledge.catalog_lines.message_literals`), by the expressions of its printed forms, and
        failing those by the message it holds (``tail``: what makes a message stand alone, the line's CUDA context and
        what may open a short message).  ``labels`` are the box's words in
        ``lang`` with ``{xid}``, ``{name}``, ... placeholders (known-errors.js
        fills them in and inserts them as text)."""
        t = translate(lang)
        literals, forms, leading = _line_forms()
        out: dict[str, Any] = {"format": SEARCH_FORMAT, "literals": literals, "forms": forms,
                               "leading_number": leading, "tail": _tail_rules(), "labels": {
            key: t(f"catalog.search.{key}") for key in ("xid", "xid_unknown", "cuda", "cuda_no_message", "nccl",
                                                        "nccl_subsystem", "nccl_unknown", "cli", "cli_stage")}}
        if self.xid is not None:
            out["xid"] = {"url": self.xid.page.url, "rows": [[v.entry.xid, v.entry.name] for v in self.xid.entries]}
        if self.cuda is not None:
            rows = []
            for section in self.cuda.sections:
                for v in section.entries:
                    older = list(getattr(v.entry, "older_messages", None) or [])
                    names = v.older_names
                    rows.append([v.api, v.entry.code, v.entry.name, v.entry.message or ""]
                                + ([older, names] if names else [older] if older else []))
            out["cuda"] = {"url": self.cuda.page.url, "rows": rows}
            out["literals"] = sorted(set(literals) | set(_message_literals(rows)))
        if self.nccl is not None:
            sections = self.nccl.sections
            section_of = {message.anchor: at for at, section in enumerate(sections) for message in section.messages}
            files: list[list[Any]] = []
            index: dict[str, int] = {}
            rows: list[list[Any]] = []
            # in the catalog's order, as the checker reads them: of two formats that fit a line equally, the first wins
            for message in self.nccl.catalog.messages:
                anchor = nccl_anchor(message.file, message.format)
                if anchor not in section_of:
                    continue  # the same format of the same file again: one entry
                if message.file not in index:
                    index[message.file] = len(files)
                    files.append([message.file, section_of[anchor]])
                rows.append([anchor[len("nccl-"):], index[message.file], message.format])
                del section_of[anchor]
            out["nccl"] = {"url": self.nccl.page.url,
                           "subsystems": [[s.subsystem.id, getattr(s.subsystem.title, lang), list(s.subsystem.files)]
                                          for s in sections],
                           "files": files, "rows": rows}
        if self.container_cli is not None:
            subs = [section.subsystem for section in self.container_cli.sections]
            at = {sub.id: i for i, sub in enumerate(subs)}
            catalog = self.container_cli.catalog
            rows = []
            for message in catalog.messages:
                anchor = format_anchor("cli", message.file, message.format, message.appends)
                printed = message.format + (": %s" if message.appends else "")
                rows.append([anchor[len("cli-"):], at[catalog.subsystem_of(message.file) or "system"], printed,
                             1 if message.context else 0, message.file])
            out["container-cli"] = {"url": self.container_cli.page.url,
                                    "subsystems": [[sub.id, getattr(sub.title, lang), list(sub.stages)] for sub in subs],
                                    "rows": rows}
        return out


def _line_forms() -> tuple[list[str], dict[str, str], str]:
    """``(literals, {form: expression}, leading number expression)``: what ``lingjun-check --log`` reads a line by
    (:mod:`lingjun.checks.knowledge.catalog_lines`), copied for the search box so that both read a line alike (the
    readers that use them are mirrored in known-errors.js; tests/site/test_site_error_catalog_pages.py compares the
    two on every catalog entry)."""
    from lingjun.checks.knowledge import catalog_lines  # deferred: the checker's reading of log lines

    return list(catalog_lines.LITERALS), dict(catalog_lines._FORMS), catalog_lines._LEADING_NUMBER


def _message_literals(rows: list[list[Any]]) -> list[str]:
    """The literals of the runtime and driver messages of the search rows (as the bundle stores them for the checker)."""
    from lingjun.checks.knowledge.catalog_lines import message_literals  # deferred: the checker's reading of log lines

    return message_literals([message for row in rows if row[0] in ("runtime", "driver")
                             for message in ([row[3]] if row[3] else []) + list(row[4] if len(row) > 4 else [])])


def _tail_rules() -> dict[str, Any]:
    """How the checker reads a message another program's wrapper quotes (catalog_lines' ``_tail``): ``words`` (a
    message naming one stands alone), ``min_words`` (so does one of that many words), ``context`` (a line naming CUDA),
    ``openers`` (what may stand just before a short message), ``word_char`` (what continues a word)."""
    from lingjun.checks.knowledge import catalog_lines  # deferred: the checker's reading of log lines

    return {"words": catalog_lines._CUDA_WORDS.pattern, "min_words": catalog_lines._STANDALONE_WORDS,
            "context": catalog_lines._CUDA_CONTEXT.pattern, "openers": list(catalog_lines._TAIL_OPENERS),
            "word_char": catalog_lines._WORD_CHAR.pattern, "min_length": catalog_lines._TAIL_MIN_LENGTH}


def _signature_ref(kb: "KnowledgeBase", signature_id: Optional[str]) -> Optional[SignatureRef]:
    if not signature_id:
        return None
    sig = kb.signatures.get(signature_id)
    if sig is None:
        return SignatureRef(signature_id, None, None)
    from lingjun.generator.site.troubleshooting import printer_page_id  # the signature's page, as its section names it

    return SignatureRef(signature_id, printer_page_id(sig.printed_by), sig.title)


def _class_words() -> dict[str, tuple[tuple[str, str], tuple[str, str]]]:
    """The checker's words for each class of CUDA error (cause, remedy), as ``lingjun-check`` prints them."""
    from lingjun.checks.rules._catalog_findings import CLASS_WORDS  # deferred: the checker's rule modules

    return CLASS_WORDS


def _xid_page(catalog: XidCatalog) -> XidPage:
    return XidPage(_PAGE["xid"], catalog, [XidView(entry) for entry in sorted(catalog.entries, key=lambda e: e.xid)])


def _cuda_page(kb: "KnowledgeBase", catalog: CudaErrorCatalog) -> CudaPage:
    sections = [CudaSection(api, type_name, anchor,
                            [CudaErrorView(api, entry, _signature_ref(kb, entry.signature), catalog.remedy_of(api, entry))
                             for entry in sorted(getattr(catalog, api), key=lambda e: e.code)])
                for api, type_name, anchor in CUDA_APIS]
    counts: dict[str, int] = {}
    for section in sections:
        for view in section.entries:
            counts[view.cls] = counts.get(view.cls, 0) + 1
    words = _class_words()
    classes = []
    for cls in CUDA_ERROR_CLASSES:
        if cls in counts:
            cause, remedy = words.get(cls, words["other"])
            classes.append(CudaClassView(cls, {"en": cause[0], "zh": cause[1]}, {"en": remedy[0], "zh": remedy[1]},
                                         counts[cls]))
    return CudaPage(_PAGE["cuda"], catalog, sections, classes)


def _nccl_page(catalog: NcclWarningCatalog) -> NcclPage:
    grouped: dict[str, dict[str, Any]] = {s.id: {} for s in catalog.subsystems}
    for message in catalog.messages:
        owner = catalog.subsystem_of(message.file)
        if owner is None:  # the schema refuses a message no subsystem owns
            raise ValueError(f"NCCL message of {message.file!r}: no subsystem's files match it")
        anchor = nccl_anchor(message.file, message.format)
        entry = grouped[owner].setdefault(anchor, {"file": message.file, "format": message.format, "runs": []})
        entry["runs"].append(NcclRun((message.lines[0], message.lines[1]), (message.versions[0], message.versions[1])))
    sections = []
    seen: dict[str, str] = {}
    for sub in catalog.subsystems:
        messages = [NcclMessageView(anchor, e["file"], e["format"],
                                    tuple(sorted(e["runs"], key=lambda r: (_version_key(r.versions[0]), r.lines))))
                    for anchor, e in grouped[sub.id].items()]
        messages.sort(key=lambda m: (m.file, m.runs[0].lines[0], m.format))
        section = NcclSection(sub, messages)
        for anchor in [section.anchor, *(m.anchor for m in messages)]:
            if anchor in seen:  # a subsystem id that reads as a message's hash (or twice the same id)
                raise ValueError(f"NCCL warnings page: anchor {anchor!r} of {seen[anchor]} and of subsystem {sub.id!r}")
            seen[anchor] = f"subsystem {sub.id!r}"
        sections.append(section)
    return NcclPage(_PAGE["nccl"], catalog, sections)


def _cli_page(catalog: ContainerCliCatalog) -> CliPage:
    grouped: dict[str, list[CliMessageView]] = {s.id: [] for s in catalog.subsystems}
    for message in catalog.messages:
        owner = catalog.subsystem_of(message.file)
        if owner is None:  # the schema refuses a message no subsystem owns
            raise ValueError(f"libnvidia-container message of {message.file!r}: no subsystem's files match it")
        grouped[owner].append(CliMessageView(
            format_anchor("cli", message.file, message.format, message.appends), message.file,
            message.format + (": %s" if message.appends else ""), message.context,
            NcclRun((message.lines[0], message.lines[1]), (message.versions[0], message.versions[1]))))
    sections = []
    seen: set[str] = set()
    for sub in catalog.subsystems:
        messages = sorted(grouped[sub.id], key=lambda m: (not m.context, m.file, m.run.lines[0], m.printed))
        section = CliSection(sub, messages)
        for anchor in [section.anchor, *(m.anchor for m in messages)]:
            if anchor in seen:  # two messages the schema lets through as distinct that hash alike (never seen)
                raise ValueError(f"nvidia-container-cli page: anchor {anchor!r} twice")
            seen.add(anchor)
        sections.append(section)
    return CliPage(_PAGE["container-cli"], catalog, sections)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def error_catalogs(kb: "KnowledgeBase") -> ErrorCatalogPages:
    """The pages of the catalogs ``kb`` holds (:class:`ErrorCatalogPages`; no catalog: no page)."""
    out = ErrorCatalogPages(
        xid=_xid_page(kb.xids) if kb.xids is not None else None,
        cuda=_cuda_page(kb, kb.cuda_errors) if kb.cuda_errors is not None else None,
        nccl=_nccl_page(kb.nccl_warnings) if kb.nccl_warnings is not None else None,
        container_cli=_cli_page(kb.container_cli) if kb.container_cli is not None else None,
    )
    out.by_page_id = {view.page.id: view for view in out.present}
    return out

