"""Read access to the compiled release data (the bundle) for the checker.

The bundle is the JSON that ``lingjun-kb bundle`` compiles from the
validated YAML under ``releases/``: every document dumped with pydantic's
``model_dump(mode="json")``, so field names are those of
:mod:`lingjun.schema.models`.  Layout::

    {
      "format": "lingjun-kb/bundle/2",
      "site_url": "https://kb.example.org/" or null (no published site),
      "families": [Family without its prose, with "unrecorded_releases": [{"version", "image_tags": [tag],
                   "named_in": [url]}] when its pages name releases that hold no record],
      "components": [Component, ...],
      "releases": [ReleaseRecord without what only the site shows (source_conflicts, summary, highlights,
                    bug_fixes, recorded, revised, stated_none; components' stated_in; variants' use_case,
                    scenarios, note; runtimes' upstream, status, note), plus "order_key": [year, month, day] or null],
      "known_issues": [KnownIssue, ...],
      "signatures": [ErrorSignature without its examples and overlaps, ...],
      "cuda_drivers": CudaDriverReference,
      "driver_branches": DriverBranchReference,
      "gpus": GpuReference,
      "torch_wheels": TorchWheelReference,
      "catalog_messages": [the CUDA runtime and driver messages a log is searched for, catalog_lines.tail_messages]
    }

Only the standard library is used; the data is trusted (it was validated
before it was compiled).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
import re
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from lingjun.checks.core.inert_text import capped

if TYPE_CHECKING:
    from pathlib import Path

    from lingjun.checks.knowledge.catalog_entry import Component
    from lingjun.checks.knowledge.release_record import Release

#: 2: releases carry variants, runtimes and their order key (issue 12); a format-1 reader would check a
#: release with variants against an empty list, so it refuses these bundles
BUNDLE_FORMAT = "lingjun-kb/bundle/2"
#: the largest --data file read, in bytes (the embedded bundle is about 160 KiB)
MAX_BUNDLE_BYTES = 64 * 1024 * 1024

__all__ = ["BUNDLE_FORMAT", "SIGNATURES_FILE", "KnowledgeData", "BundleError", "embedded_signatures"]

#: the zipapp's file of the error signatures, apart from ``bundle.json`` (xz-compressed: ``signatures.json.xz``)
SIGNATURES_FILE = "signatures.json"


class BundleError(ValueError):
    """The bundle file is missing, unreadable or of another format."""


@dataclass
class KnowledgeData:
    """The compiled release data with lookup helpers."""

    raw: dict[str, Any] = field(default_factory=dict)
    #: where the error signatures come from when ``raw`` holds none: the zipapp keeps them in a file of their own,
    #: read the first time a log needs them (:func:`embedded_signatures`), so a check without a log never parses them
    signatures_from: "Optional[Callable[[], list]]" = field(default=None, repr=False, compare=False)

    @classmethod
    def from_file(cls, path: "str | Path") -> "KnowledgeData":
        """Load a bundle JSON file.

        Raises:
            BundleError: when the file cannot be read or is not a bundle.
        """
        from lingjun.checks.inputs.input_file import InputFileError, is_utf8_start, read_input_file  # deferred: not every check needs it

        def sniff(block: bytes) -> "str | None":  # binary refused from its first block, never read whole
            return None if is_utf8_start(block) else "not UTF-8 text (release data is a JSON file)"

        try:
            raw = json.loads(read_input_file(str(path), MAX_BUNDLE_BYTES, sniff=sniff).decode("utf-8-sig"))
        except InputFileError as exc:
            raise BundleError(f"{path}: cannot read release data: {exc.reason}") from None
        except RecursionError:
            raise BundleError(f"{path}: cannot read release data: JSON nested too deeply") from None
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
            raise BundleError(f"{path}: cannot read release data: {exc}") from None
        return cls.from_dict(raw, str(path))

    @classmethod
    def from_dict(cls, raw: Any, where: str = "bundle", check_shape: bool = True) -> "KnowledgeData":
        """Wrap an already-parsed bundle dict.

        With ``check_shape`` (the default) every field the checker reads must have its type
        (:data:`lingjun.checks.knowledge._bundle_shape.BUNDLE_SHAPE`) and ``site_url`` must be a plain
        http(s) URL (:func:`lingjun.checks.core.site_url.site_url_problem`), so that no rule meets a
        value it cannot use; the typed releases and catalog (:attr:`records`, :attr:`catalog`) are built then too.  The embedded bundle skips the walk (about 4 ms); a test holds it to the shape.

        Raises:
            BundleError: when ``raw`` is not a bundle of :data:`BUNDLE_FORMAT`, or (``check_shape``) a
                field has another type; the one-line message names the field's path
                (``releases[3].components: expected a list, got string``).
        """
        if not isinstance(raw, dict) or raw.get("format") != BUNDLE_FORMAT:
            raise BundleError(f"{where}: not a lingjun-kb bundle of format {BUNDLE_FORMAT}")
        if check_shape:
            from lingjun.checks.core.site_url import site_url_problem  # deferred: a plain or live check never needs it
            from lingjun.checks.knowledge._bundle_shape import shape_problem  # deferred: a plain or live check never needs it

            problem = shape_problem(raw) or _pattern_problem(raw) or _driver_minimum_problem(raw)
            if problem is None and raw.get("site_url") is not None:
                reason = site_url_problem(raw["site_url"])
                if reason:
                    problem = f"site_url: {capped(raw['site_url'], 80)!r} is not a site URL: {reason}"
            if problem:
                raise BundleError(f"{where}: unusable release data: {capped(problem, 300)}")
            data = cls(raw=raw)
            try:
                data.records  # built now, so that a record no typed view can hold is refused with the file
                data.catalog
            except ValueError as exc:
                raise BundleError(f"{where}: unusable release data: {capped(str(exc), 300)}") from None
            return data
        return cls(raw=raw)

    # -- collections ---------------------------------------------------------

    @property
    def site_url(self) -> Optional[str]:
        """Base URL of the published documentation site, ending in ``/``; None when the bundle was built
        without one (report links then go to the official release pages and upstream documents)."""
        url = self.raw.get("site_url") or ""
        if not url:
            return None
        return url if url.endswith("/") else url + "/"

    @property
    def releases(self) -> list[dict[str, Any]]:
        """All release records (product and base families)."""
        return list(self.raw.get("releases", []))

    @property
    def records(self) -> "tuple[Release, ...]":
        """All release records as the checker reads them (:class:`lingjun.checks.knowledge.release_record.Release`),
        in the bundle's order.  Each is built once, at its first use (:meth:`record` builds only the one it
        names), and kept: the same object every time, until ``raw["releases"]`` is another list or has grown (a
        test may add a record to a loaded bundle).

        Raises:
            ValueError: a record has a field of another type (only for a bundle whose shape was not checked).
        """
        typed = self._typed()
        if typed["all"] is None:
            typed["all"] = tuple(self._typed_at(typed, i) for i in range(typed["len"]))
        return typed["all"]

    def record(self, ref: str) -> "Optional[Release]":
        """The typed release ``family:release`` (the first of that name, as :meth:`release`), or None; only
        that record is built (see :attr:`records`).

        Raises:
            ValueError: as :attr:`records`.
        """
        typed = self._typed()
        if typed["index"] is None:
            releases = typed["list"]
            typed["index"] = {f"{r.get('family')}:{r.get('version')}": i for i, r in reversed(list(enumerate(releases)))}
        at = typed["index"].get(ref)
        return self._typed_at(typed, at) if at is not None else None

    def _typed(self) -> dict[str, Any]:
        """What :attr:`records` and :meth:`record` keep: the list they were built from, its length, the records
        built so far by position, all of them once asked for, and the positions by ``family:version``."""
        releases = self.raw.get("releases", [])
        typed = self.__dict__.get("_typed_records")
        if typed is None or typed["list"] is not releases or typed["len"] != len(releases):
            typed = self.__dict__["_typed_records"] = {"list": releases, "len": len(releases), "built": {},
                                                       "all": None, "index": None}
        return typed

    @staticmethod
    def _typed_at(typed: dict[str, Any], at: int) -> "Release":
        built = typed["built"].get(at)
        if built is None:
            from lingjun.checks.knowledge.release_record import release_from_dict  # deferred: dataclasses at first use

            built = typed["built"][at] = release_from_dict(typed["list"][at], f"releases[{at}]")
        return built

    def product_records(self) -> "list[Release]":
        """The typed releases of product families (not upstream base images), as :meth:`product_releases`."""
        bases = {f["id"] for f in self.raw.get("families", []) if f.get("role") == "base"}
        return [r for r in self.records if r.family not in bases]

    @property
    def catalog(self) -> "tuple[Component, ...]":
        """The component catalog as the checker reads it (:class:`lingjun.checks.knowledge.catalog_entry.Component`),
        in the bundle's order; built at the first use and kept (as :attr:`records`).

        Raises:
            ValueError: an entry has a field of another type (only for a bundle whose shape was not checked).
        """
        components = self.raw.get("components", [])
        cached = self.__dict__.get("_catalog")
        if cached is None or cached[0] is not components or cached[1] != len(components):
            from lingjun.checks.knowledge.catalog_entry import component_from_dict  # deferred: dataclasses at first use

            built = tuple(component_from_dict(c, f"components[{i}]") for i, c in enumerate(components))
            cached = self.__dict__["_catalog"] = (components, len(components), built, {c.id: c for c in reversed(built)})
        return cached[2]

    def catalog_entry(self, component_id: str) -> "Optional[Component]":
        """The typed catalog entry with this id (the first, as :meth:`component`), or None."""
        self.catalog  # noqa: B018 (builds the index)
        return self.__dict__["_catalog"][3].get(component_id)

    @property
    def known_issues(self) -> list[dict[str, Any]]:
        """All known-issue records."""
        return list(self.raw.get("known_issues", []))

    @property
    def signatures(self) -> list[dict[str, Any]]:
        """Error signatures (bundle JSON of :class:`lingjun.schema.models.ErrorSignature`, without examples).

        Raises:
            BundleError: they are kept apart (:attr:`signatures_from`) and that file cannot be read."""
        return list(self._signature_list())

    def _signature_list(self) -> list[dict[str, Any]]:
        if "signatures" not in self.raw and self.signatures_from is not None:
            self.raw["signatures"] = self.signatures_from()
        return self.raw.get("signatures", [])

    @property
    def catalog_message_literals(self) -> list[str]:
        """The literals of the CUDA messages a log is searched for besides the signatures'
        (:func:`lingjun.checks.knowledge.catalog_lines.message_literals` of the bundle's ``catalog_messages``); empty
        in a bundle made without them."""
        from lingjun.checks.knowledge.catalog_lines import message_literals  # deferred: only a log needs them

        return message_literals(self.raw.get("catalog_messages") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component catalog."""
        return list(self.raw.get("components", []))

    @property
    def cuda_drivers(self) -> dict[str, Any]:
        """NVIDIA CUDA toolkit / driver reference tables."""
        return dict(self.raw.get("cuda_drivers") or {})

    @property
    def gpus(self) -> list[dict[str, Any]]:
        """NVIDIA GPU models (``name``, ``compute_capability``, ``data_center``) of ``releases/reference/gpus.yaml``."""
        return list((self.raw.get("gpus") or {}).get("gpus", []))

    @property
    def torch_wheels(self) -> dict[str, Any]:
        """Which CUDA variants PyTorch published for each torch release (``releases/reference/torch-wheels.yaml``)."""
        return dict(self.raw.get("torch_wheels") or {})

    @property
    def driver_branches(self) -> list[dict[str, Any]]:
        """NVIDIA data center driver branch lifecycle rows."""
        return list((self.raw.get("driver_branches") or {}).get("branches", []))

    # -- lookups ---------------------------------------------------------------

    def family(self, family_id: str) -> Optional[dict[str, Any]]:
        """The family with this id, or None."""
        return next((f for f in self.raw.get("families", []) if f.get("id") == family_id), None)

    def release(self, ref: str) -> Optional[dict[str, Any]]:
        """The release ``family:release`` (``training-nv-pytorch:25.07``, ``training-xpu-pytorch:2026-10-20``), or None."""
        family, _, version = ref.partition(":")
        return next(
            (r for r in self.raw.get("releases", []) if r.get("family") == family and r.get("version") == version),
            None,
        )

    def product_releases(self) -> Iterable[dict[str, Any]]:
        """Releases of product families (not upstream base images)."""
        bases = {f["id"] for f in self.raw.get("families", []) if f.get("role") == "base"}
        return (r for r in self.raw.get("releases", []) if r.get("family") not in bases)

    def component(self, component_id: str) -> Optional[dict[str, Any]]:
        """The catalog entry with this id, or None."""
        return next((c for c in self.raw.get("components", []) if c.get("id") == component_id), None)

    def signature(self, signature_id: str) -> Optional[dict[str, Any]]:
        """The error signature with this id, or None (looked up in a dict built once per bundle)."""
        index = self.__dict__.get("_signatures_by_id")
        if index is None:
            index = self.__dict__["_signatures_by_id"] = {sig.get("id"): sig for sig in self._signature_list()}
        return index.get(signature_id)

    def known_issue(self, issue_id: str) -> Optional[dict[str, Any]]:
        """The known issue with this id, or None."""
        return next((k for k in self.raw.get("known_issues", []) if k.get("id") == issue_id), None)

    def release_url(self, ref: str, lang: str = "en") -> Optional[str]:
        """Where a reader opens the release ``family:release``.

        With a site URL: its page, ``<site>/releases/<family>/<version>/`` (``zh/`` prefix for Chinese).
        Without one: the record's official release-note page (its source in ``lang``, else its first
        source, e.g. ``https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-07``); None when
        the release is unknown or lists no source.
        """
        site = self.site_url
        family, _, version = ref.partition(":")
        if site is not None:
            prefix = "zh/" if lang == "zh" else ""
            return f"{site}{prefix}releases/{family}/{version}/"
        record = self.release(ref)
        sources = [s for s in (record or {}).get("sources") or [] if isinstance(s, dict) and s.get("url")]
        for source in sources:
            if source.get("language") == lang:
                return str(source["url"])
        return str(sources[0]["url"]) if sources else None

    def rule_url(self, rule_id: str, lang: str = "en") -> Optional[str]:
        """Site URL of a checker rule's entry in the checker guide; None without a site URL (the
        finding's other links, the release page and upstream documents, remain)."""
        site = self.site_url
        if site is None:
            return None
        prefix = "zh/" if lang == "zh" else ""
        return f"{site}{prefix}checker/rules/#{rule_id.replace('.', '-')}"

    def signature_url(self, signature_id: str, printed_by: str, lang: str = "en") -> Optional[str]:
        """Site URL of an error signature's entry on its Troubleshooting page; None without a site URL."""
        site = self.site_url
        if site is None:
            return None
        prefix = "zh/" if lang == "zh" else ""
        return f"{site}{prefix}troubleshooting/{printed_by}/#{signature_id}"

    def catalog_url(self, page: str, anchor: str, lang: str = "en") -> Optional[str]:
        """Site URL of an error catalog's entry (``page``: ``xid``, ``cuda-errors``, ``nccl-warnings``; ``anchor``:
        ``xid-45``, ``cuda-runtime-802``, ``nccl-1a2b3c4d``); None without a site URL (the catalog's source remains)."""
        site = self.site_url
        if site is None:
            return None
        prefix = "zh/" if lang == "zh" else ""
        return f"{site}{prefix}troubleshooting/{page}/#{anchor}"

    def known_issue_url(self, issue_id: str, lang: str = "en") -> Optional[str]:
        """Site URL of a known issue's entry; None without a site URL (its upstream reports remain)."""
        site = self.site_url
        if site is None:
            return None
        prefix = "zh/" if lang == "zh" else ""
        return f"{site}{prefix}known-issues/#{issue_id}"


#: the bounds the schema sets on a signature pattern (lingjun.schema.models.SignaturePattern)
_LITERAL_CHARS = (4, 200)
_REGEX_CHARS = 300


def _driver_minimum_problem(raw: dict) -> Optional[str]:
    """The first NVIDIA driver minimum of a hand-made bundle that is not a driver version (``"abc"``, ``""``), as
    ``releases[9].driver.minimum: 'abc' is not an NVIDIA driver version``; None when all are.  Without this the
    rules would read the record as stating no minimum.  PPU minimums (``1.1.0``) are of another scheme."""
    from lingjun.checks.core.compat import parse_driver  # deferred: a plain or live check never needs it

    for i, record in enumerate(raw.get("releases") or []):
        driver = record.get("driver")
        if not driver or driver.get("vendor") == "ppu" or driver.get("minimum") is None:
            continue
        if parse_driver(driver["minimum"]) is None:
            return f"releases[{i}].driver.minimum: {capped(driver['minimum'], 40)!r} is not an NVIDIA driver version"
    return None


def _pattern_problem(raw: dict) -> Optional[str]:
    """The first signature pattern of a hand-made bundle the checker cannot use as the schema allows it (a literal
    of 4-200 characters without controls, a regular expression of at most 300 characters that compiles), as
    ``signatures[2].patterns[0].regex: ...``; None when all are usable."""
    for i, sig in enumerate(raw.get("signatures") or []):
        for j, pattern in enumerate(sig.get("patterns") or []):
            where = f"signatures[{i}].patterns[{j}]"
            literal = pattern.get("literal", "")
            if not _LITERAL_CHARS[0] <= len(literal) <= _LITERAL_CHARS[1] or not literal.isprintable():
                return f"{where}.literal: not a literal of {_LITERAL_CHARS[0]}-{_LITERAL_CHARS[1]} printable characters"
            regex = pattern.get("regex")
            if regex is not None:
                if len(regex) > _REGEX_CHARS:
                    return f"{where}.regex: longer than {_REGEX_CHARS} characters"
                try:
                    re.compile(regex)
                except (re.error, RecursionError, OverflowError, ValueError) as exc:
                    return f"{where}.regex: does not compile ({type(exc).__name__}: {exc})"
    return None


def embedded_signatures() -> list:
    """The error signatures the zipapp keeps apart from its bundle (:data:`SIGNATURES_FILE`), as a list of dicts.

    Raises:
        BundleError: the file is missing, damaged or not a JSON list."""
    from lingjun.checks.knowledge._package_data import PackageDataError, read  # deferred: only a log needs them

    try:
        value = json.loads(read(SIGNATURES_FILE).decode("utf-8"))
    except PackageDataError as exc:
        raise BundleError(f"the embedded error signatures are unreadable: {exc}") from None
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
        raise BundleError(f"the embedded error signatures ({SIGNATURES_FILE}) are not JSON: {exc}") from None
    if not isinstance(value, list) or not all(isinstance(sig, dict) and isinstance(sig.get("id"), str) for sig in value):
        raise BundleError(f"the embedded error signatures ({SIGNATURES_FILE}) are not a list of signatures")
    return value
