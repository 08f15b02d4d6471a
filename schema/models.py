"""pydantic v2 models: the single source of truth for lingjun-kb data.

Every YAML file under ``releases/`` is one *document* with a ``kind`` field:

===================  =================================================  ==========================
kind                 model                                              where
===================  =================================================  ==========================
``release``          :class:`ReleaseRecord`                             ``releases/<family>/<YY.MM>.yaml``
``families``         :class:`FamilyCatalog`                             ``releases/families.yaml``
``components``       :class:`ComponentCatalog`                          ``releases/components.yaml``
``known-issue``      :class:`KnownIssue`                                ``releases/known-issues/<id>.yaml``
``cuda-drivers``     :class:`CudaDriverReference`                       ``releases/reference/cuda-drivers.yaml``
``driver-branches``  :class:`DriverBranchReference`                     ``releases/reference/driver-branches.yaml``
``gpus``             :class:`GpuReference`                              ``releases/reference/gpus.yaml``
``error-signature``  :class:`ErrorSignature`                            ``releases/troubleshooting/<id>.yaml``
``torch-wheels``     :class:`TorchWheelReference`                       ``releases/reference/torch-wheels.yaml``
===================  =================================================  ==========================

The error catalogs (``xid-catalog``, ``cuda-error-catalog``, ``nccl-warning-catalog`` under ``releases/errors/``)
have their models in :mod:`lingjun.schema.error_catalogs`; :data:`DOCUMENT_MODELS` holds them too.

All models forbid unknown fields and are frozen.  Every prose field is a
:class:`LocalizedText` holding English and Simplified Chinese.  Versions are
strings (see :mod:`lingjun.schema.fields`).
"""

from __future__ import annotations

import datetime as dt
import re
from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, StrictBool, StringConstraints, model_validator

from lingjun.checks.core.condition_facts import CUBLAS_DATA_TYPES, FACTS, KERNEL_ASSERTIONS, PLACES, operators_for
from lingjun.checks.core.remedy_template import VALUES as REMEDY_VALUES, malformed as malformed_placeholders, placeholders as remedy_placeholders
from lingjun.checks.core.release_order import identifier_date, release_order_key
from lingjun.checks.core.versions import DriverVersion, VersionFormatError
from lingjun.schema._base import LocalizedText, StrictModel
from lingjun.schema.fields import (
    CudaVersionString,
    DriverVersionString,
    FamilyId,
    Identifier,
    ReleaseRef,
    ReleaseVersion,
    ShortText,
    SpecifierString,
    Url,
    VersionString,
    YearMonth,
)

SCHEMA_VERSION = 1


# --------------------------------------------------------------------------
# enums
# --------------------------------------------------------------------------


class Language(str, Enum):
    """Language of an official page (``id`` is Indonesian: Alibaba Cloud publishes some notes only there)."""

    en = "en"
    zh = "zh"
    id = "id"


class Accelerator(str, Enum):
    """Accelerator an image family targets."""

    nvidia_gpu = "nvidia-gpu"
    ppu = "ppu"


class Scenario(str, Enum):
    """What the image is meant for; the official pages say "Training/Inference"."""

    training = "training"
    inference = "inference"


class FamilyRole(str, Enum):
    """``product``: an Alibaba Cloud image family; ``base``: an upstream image ours are aligned with (NGC PyTorch)."""

    product = "product"
    base = "base"


class ReleaseStatus(str, Enum):
    """Lifecycle of one release."""

    current = "current"
    superseded = "superseded"
    deprecated = "deprecated"


class Product(str, Enum):
    """Alibaba Cloud product an image tag is meant for."""

    acs = "acs"
    lingjun_multi_tenant = "lingjun-multi-tenant"
    lingjun_single_tenant = "lingjun-single-tenant"


class CpuArch(str, Enum):
    """CPU architecture of an image build."""

    amd64 = "amd64"
    aarch64 = "aarch64"


class Layer(str, Enum):
    """Layer of the image a component belongs to.

    ``build``: operating system, interpreter and tools (Ubuntu, Python, gdb);
    ``runtime``: accelerator runtime and communication (CUDA, cuDNN, ACCL-N);
    ``library``: Python packages (torch, vLLM, DeepSpeed).
    """

    build = "build"
    runtime = "runtime"
    library = "library"


class ProbeKind(str, Enum):
    """How ``lingjun-check`` reads a component's installed version."""

    pypi = "pypi"  # importlib.metadata distribution(s) named in ``pypi``
    os_release = "os-release"  # /etc/os-release VERSION_ID
    python = "python"  # the interpreter's version
    cuda_toolkit = "cuda-toolkit"  # /usr/local/cuda/version.json, CUDA_VERSION
    cudnn = "cudnn"  # cudnn_version.h, libcudnn.so.*, nvidia-cudnn-cu* wheels
    nccl = "nccl"  # nccl.h, libnccl.so.*, nvidia-nccl-cu* wheels (ACCL-N replaces it)
    executable = "executable"  # ``<executable> --version`` (time-bounded) or package files
    none = "none"  # not probed


class GpuArchitecture(str, Enum):
    """NVIDIA GPU architecture generations."""

    volta = "volta"
    turing = "turing"
    ampere = "ampere"
    ada = "ada"
    hopper = "hopper"
    blackwell = "blackwell"


class DriverVendor(str, Enum):
    """Who ships the kernel driver the image needs."""

    nvidia = "nvidia"
    ppu = "ppu"  # Alibaba T-Head PPU driver


class Severity(str, Enum):
    """Severity of a known issue or finding."""

    error = "error"
    warning = "warning"
    info = "info"


class IssueStatus(str, Enum):
    """State of a known issue."""

    open = "open"
    mitigated = "mitigated"
    fixed = "fixed"
    wont_fix = "wont-fix"


class ConflictSide(str, Enum):
    """Where a contradicted value was stated."""

    component_list = "component-list"
    features_text = "features-text"
    driver_text = "driver-text"
    assets = "assets"
    title = "title"
    other_release = "other-release"
    other_page = "other-page"


class StatedIn(str, Enum):
    """Part of the official page a component version comes from."""

    component_list = "component-list"
    features_text = "features-text"
    driver_text = "driver-text"


class BranchDecision(str, Enum):
    """How a record resolves a driver branch listed both as allowed and as must-upgrade."""

    allowed = "allowed"
    must_upgrade = "must-upgrade"


class ListState(str, Enum):
    """How complete a record's component list is, as far as its sources show.

    ``complete``: the official page's component list was read in full; a
    component not in it is not in the image.  ``partial``: only some
    versions are known (named in the features or driver text, or read from
    another copy); a component not listed may still be in the image.
    ``not-published``: the page shows no component list at all.
    ``not-captured``: the page publishes a list, but the recorded copy of the
    page does not show any of it (it is cut off before the list); nothing is
    known of the list, and unlike ``not-published`` the page is not said to
    lack one.  A copy that shows part of the list is ``partial``.
    """

    complete = "complete"
    partial = "partial"
    not_published = "not-published"
    not_captured = "not-captured"


class RecordSection(str, Enum):
    """A list of a release record that matches a section of the official page.

    Used by ``stated_none`` (the page says the section is empty) and ``not_captured``
    (the recorded copy of the page does not show the section, or shows only part of it).
    ``driver`` (the page's driver requirement section) is allowed in ``not_captured`` only: with
    ``driver`` left out, the record then says the requirement was not seen, not that the page
    states none (training-xpu-pytorch 2026-10-20, whose copy ends before its later sections).
    """

    highlights = "highlights"
    bug_fixes = "bug_fixes"
    known_issues = "known_issues"
    usage_notes = "usage_notes"
    features = "features"
    quick_start = "quick_start"
    driver = "driver"


class ReleaseDateKind(str, Enum):
    """Which evidence a release date comes from (:class:`ReleaseDate`).

    ``image-tag``: the build date stamped in the release's image tags (``...-20250430-serverless``);
    ``page-published``: the date the official page says it was first published;
    ``page-updated``: the page's own "last updated" stamp (更新时间): the page existed by then, so the release
    was published on or before it, but the day itself may be later than the release.
    """

    image_tag = "image-tag"
    page_published = "page-published"
    page_updated = "page-updated"


class BranchType(str, Enum):
    """NVIDIA data center driver branch designation."""

    production = "production"  # PB
    new_feature = "new-feature"  # NFB
    long_term_support = "long-term-support"  # LTSB


# --------------------------------------------------------------------------
# shared building blocks
# --------------------------------------------------------------------------


class Source(StrictModel):
    """An official page a record's facts were taken from."""

    url: Url
    language: Language
    title: ShortText | None = None
    #: the page's own "last updated" stamp as printed (it is not a release date)
    last_updated: ShortText | None = None
    #: what this copy of the page did or did not show (e.g. "component list empty")
    note: LocalizedText | None = None


class ReleaseDate(StrictModel):
    """The date a release was published, as far as the evidence shows, with the kind of evidence and where it is.

    ``source`` is the page that shows it: the page printing the dated tag, or the page whose publication or
    last-updated date it is (one of the record's ``sources``).  Absent: the date is not stated anywhere read.
    """

    date: dt.date
    kind: ReleaseDateKind
    source: Url
    note: LocalizedText | None = None


_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                        "dec"), start=1)}


def parse_page_date(text: str) -> Optional[dt.date]:
    """The day a page's "last updated" stamp names, or None when it is not one of the printed forms.

    >>> parse_page_date("2025-03-27 10:48:35"), parse_page_date("Nov 09, 2025")
    (datetime.date(2025, 3, 27), datetime.date(2025, 11, 9))
    """
    found = re.match(r"^\s*(\d{4})-(\d{2})-(\d{2})\b", text)
    try:
        if found:
            return dt.date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
        found = re.match(r"^\s*([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})\s*$", text)
        if found and found.group(1).lower() in _MONTHS:
            return dt.date(int(found.group(3)), _MONTHS[found.group(1).lower()], int(found.group(2)))
    except ValueError:
        return None
    return None


class UpstreamRef(StrictModel):
    """A link to an upstream issue, pull request or release (``vllm-project/vllm#13693``)."""

    project: ShortText
    kind: Literal["issue", "pull", "release", "doc", "commit"]
    url: Url
    number: int | None = Field(default=None, ge=1)
    title: ShortText | None = None


class ConflictValue(StrictModel):
    """One of the contradicting values and where it was stated.

    ``value`` is a literal (a version, a list of branches) or, when it is a
    description rather than a literal, a :class:`LocalizedText` so the
    Chinese page never shows English prose.
    """

    value: ShortText | LocalizedText
    stated_in: ConflictSide
    source: Url | None = None


class SourceConflict(StrictModel):
    """Where the official pages contradict themselves, and what the record keeps."""

    id: Identifier
    #: dotted path of the record field concerned, e.g. ``components.cuda`` or ``driver.must_upgrade_branches``
    field: ShortText
    description: LocalizedText
    values: list[ConflictValue] = Field(min_length=1)
    #: the value the record keeps (a literal, or a :class:`LocalizedText` when it is a description);
    #: ``None`` when it keeps none (the field is left out)
    kept: ShortText | LocalizedText | None = None
    reason: LocalizedText


# --------------------------------------------------------------------------
# families
# --------------------------------------------------------------------------


class UnrecordedRelease(StrictModel):
    """A release an official page names (an index, a release history, a link) without a record here.

    Nothing is known of its contents from this knowledge base: the site shows only that it is
    published and where it is named, never components or a verdict.
    """

    version: ReleaseVersion
    #: the pages that name it (at least one); ``note`` says how (a table row, a link title)
    named_in: list[Source] = Field(min_length=1)
    #: image tags the naming page shows for it, exactly as printed
    image_tags: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")]] = Field(default_factory=list)
    #: the release date where the naming page gives one (orders it among the family's releases)
    release_date: dt.date | None = None
    note: LocalizedText | None = None


class Family(StrictModel):
    """An image family (``training-nv-pytorch``) or an upstream base (``ngc-pytorch``).

    ``public_registry_pattern`` and ``vpc_registry_pattern`` use ``{image}``
    and ``{tag}`` placeholders; the VPC pattern keeps the official page's
    ``{region-id}`` placeholder for the user to fill in.
    """

    id: FamilyId
    role: FamilyRole = FamilyRole.product
    image_name: Identifier
    title: LocalizedText
    description: LocalizedText
    vendor: ShortText
    accelerator: Accelerator
    scenarios: list[Scenario] = Field(min_length=1)
    framework: Identifier
    public_registry_pattern: Annotated[str, Field(pattern=r"^[a-z0-9.-]+/([a-z0-9._-]+/)*\{image\}:\{tag\}$")]
    vpc_registry_pattern: Annotated[str, Field(pattern=r"\{region-id\}.*\{image\}:\{tag\}$")] | None = None
    #: what the pages say about where the VPC registry works
    vpc_note: LocalizedText | None = None
    #: Alibaba Cloud region ids the family's pages (or the sources in ``vpc_note``) use in a VPC address, offered by
    #: the release page's region chooser, which fills ``{region-id}`` in the addresses to copy (any other id may be
    #: typed); empty: the chooser offers none
    vpc_regions: list[Annotated[str, Field(pattern=r"^[a-z]{2}(-[a-z0-9]+){1,4}$", max_length=40)]] = Field(default_factory=list)
    homepage: Url | None = None
    sources: list[Source] = Field(default_factory=list)
    #: releases the official pages name but that this knowledge base holds no record of (no page for them
    #: could be read); the family page lists them as "published, not yet recorded" with where they are named
    unrecorded_releases: list[UnrecordedRelease] = Field(default_factory=list)


class FamilyCatalog(StrictModel):
    """``releases/families.yaml``.

    ``sources`` are pages about every family at once, such as the official index of AI container
    image releases (which lists the families and explains public and VPC addresses).
    """

    kind: Literal["families"]
    schema_version: Literal[1] = 1
    sources: list[Source] = Field(default_factory=list)
    families: list[Family] = Field(min_length=1)


# --------------------------------------------------------------------------
# component catalog
# --------------------------------------------------------------------------


class ProbeHint(StrictModel):
    """How the checker reads the installed version of a component."""

    kind: ProbeKind
    #: executable name for ``kind: executable`` (``gdb``, ``perf``, ``ffmpeg``)
    executable: Identifier | None = None
    #: regular expression with one group capturing the version from the executable's output
    version_regex: ShortText | None = None


class Component(StrictModel):
    """A catalog entry: one software component whatever name a page uses for it."""

    id: Identifier
    name: ShortText
    #: every spelling the official pages use (``Torch``, ``torch``); matched case-sensitively first, then case-insensitively
    published_names: list[ShortText] = Field(min_length=1)
    layer: Layer
    description: LocalizedText
    #: upstream home page; left out when no official page is known
    homepage: Url | None = None
    #: release-notes URL pattern; placeholders: ``{version}`` as published, ``{release}`` (PEP 440 release part, e.g. 2.7.1.8), ``{release3}`` (first three fields)
    release_notes_url: ShortText | None = None
    #: PyPI distribution names that provide it (``flash-attn``, ``flash_attn_3``)
    pypi: list[ShortText] = Field(default_factory=list)
    probe: ProbeHint
    #: the image ships a build modified by Alibaba Cloud (``+ali``, ``+nv25.3``): never reinstall it from PyPI
    vendor_build: bool = False
    #: compiled against torch's C++ ABI: breaks when torch changes
    torch_extension: bool = False


class ComponentCatalog(StrictModel):
    """``releases/components.yaml``."""

    kind: Literal["components"]
    schema_version: Literal[1] = 1
    components: list[Component] = Field(min_length=1)


# --------------------------------------------------------------------------
# known issues
# --------------------------------------------------------------------------


class EnvClause(StrictModel):
    """A condition on one environment variable; exactly one test is given."""

    name: Annotated[str, Field(pattern=r"^[A-Z_][A-Z0-9_]*$")]
    equals: str | None = None
    not_equals: str | None = None
    unset: bool | None = None

    @model_validator(mode="after")
    def _one_test(self) -> "EnvClause":
        given = [t for t in ("equals", "not_equals", "unset") if getattr(self, t) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of equals, not_equals, unset")
        return self


#: the words a ``word`` fact can hold (:mod:`lingjun.checks.core.condition_facts`)
_FACT_WORDS = {"place": PLACES, "nccl.network": ("ib", "socket"), "cublas.data_type": CUBLAS_DATA_TYPES,
               "nccl.ib_link_layer": ("roce", "ib"), "cuda.kernel_assertion": KERNEL_ASSERTIONS}


class FactClause(StrictModel):
    """A test of one probed fact: ``{fact: shm.size_bytes, op: lt, value: 1073741824}``.

    ``fact`` is a name of :data:`lingjun.checks.core.condition_facts.FACTS`; ``op`` one of the operators its
    kind accepts (``lt``/``le``/``gt``/``ge``/``eq``/``ne``, ``in`` with a list).  The value's type follows
    the fact's kind: a whole number for ``int`` facts (bytes, counts; ``-1`` is an unlimited limit), a
    dotted version string for ``version`` facts (``"8.9"``), ``true``/``false`` for ``bool`` facts, one of
    the fact's words for ``word`` facts.  When the input does not show the fact, the clause is unknown.
    """

    fact: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$")]
    op: Literal["eq", "ne", "lt", "le", "gt", "ge", "in"]
    value: Union[StrictBool, int, ShortText, list[Union[int, ShortText]]]

    @model_validator(mode="after")
    def _typed(self) -> "FactClause":
        spec = FACTS.get(self.fact)
        if spec is None:
            raise ValueError(f"unknown fact {self.fact!r} (known: {', '.join(FACTS)})")
        if self.op not in operators_for(spec.kind):
            raise ValueError(f"{self.fact} is a {spec.kind} fact: use one of {', '.join(operators_for(spec.kind))}, not {self.op}")
        values = self.value if isinstance(self.value, list) else [self.value]
        if (self.op == "in") != isinstance(self.value, list) or not values:
            raise ValueError("op 'in' takes a non-empty list of values; the other operators one value")
        for value in values:
            if spec.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{self.fact} is a whole number: write e.g. 1073741824, not {value!r}")
            if spec.kind == "bool" and not isinstance(value, bool):
                raise ValueError(f"{self.fact} is true or false, not {value!r}")
            if spec.kind == "version" and not (isinstance(value, str) and re.fullmatch(r"\d{1,4}(\.\d{1,4}){0,3}", value)):
                raise ValueError(f"{self.fact} is a version: write it as a quoted dotted string such as \"8.9\", not {value!r}")
            if spec.kind == "word" and value not in _FACT_WORDS.get(self.fact, ()):
                raise ValueError(f"{self.fact} is one of {', '.join(_FACT_WORDS.get(self.fact, ()))}, not {value!r}")
        return self


class Condition(StrictModel):
    """A machine-matchable condition the checker evaluates against the probed facts.

    All given parts must hold (logical AND); an empty part does not constrain.
    ``components`` maps a catalog id to a PEP 440 specifier set.
    ``gpu_models`` are case-insensitive substrings of the NVML GPU name (any
    GPU matching is enough).  ``served_models`` are matched against the model
    the user names with ``lingjun-check --model``; when the user names none,
    the checker reports the issue as "may apply".
    """

    components: dict[Identifier, SpecifierString] = Field(default_factory=dict)
    gpu_models: list[ShortText] = Field(default_factory=list)
    served_models: list[ShortText] = Field(default_factory=list)
    env: list[EnvClause] = Field(default_factory=list)
    architectures: list[CpuArch] = Field(default_factory=list)
    #: tests of probed facts (``/dev/shm`` size, memlock, RDMA devices, compute capability, torch's build ...)
    facts: list[FactClause] = Field(default_factory=list)


class Affects(StrictModel):
    """What a known issue affects, for people and for the site."""

    families: list[FamilyId] = Field(default_factory=list)
    #: releases affected, as ``family:YY.MM``
    releases: list[ReleaseRef] = Field(default_factory=list)
    components: dict[Identifier, SpecifierString] = Field(default_factory=dict)
    gpu_models: list[ShortText] = Field(default_factory=list)
    served_models: list[ShortText] = Field(default_factory=list)


class KnownIssue(StrictModel):
    """``releases/known-issues/<id>.yaml``: an issue that can span releases."""

    kind: Literal["known-issue"]
    schema_version: Literal[1] = 1
    id: Identifier
    title: LocalizedText
    description: LocalizedText
    workaround: LocalizedText
    severity: Severity
    status: IssueStatus
    affects: Affects
    fixed_in: list[ReleaseRef] = Field(default_factory=list)
    upstream: list[UpstreamRef] = Field(default_factory=list)
    condition: Condition | None = None
    #: error signatures (``releases/troubleshooting/<id>.yaml``) whose lines this issue prints
    signatures: list[Identifier] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)


# --------------------------------------------------------------------------
# troubleshooting: error signatures
# --------------------------------------------------------------------------


class Printer(str, Enum):
    """Who prints an error line (the site groups signatures by it)."""

    nccl = "nccl"
    cuda = "cuda"  # the CUDA runtime and driver API
    pytorch = "pytorch"
    vllm = "vllm"
    sglang = "sglang"
    tgi = "tgi"  # Hugging Face Text Generation Inference: text-generation-launcher and its server
    deepspeed = "deepspeed"
    triton = "triton"
    nvidia_container = "nvidia-container"  # nvidia-container-cli, the NVIDIA Container Toolkit
    kubernetes = "kubernetes"  # kube-scheduler and kubelet: the Events of kubectl describe pod
    rdma = "rdma"  # libibverbs, UCX, rdma-core
    mooncake = "mooncake"
    kernel = "kernel"  # the NVIDIA kernel module (NVRM: Xid ...), dmesg
    nvml = "nvml"  # NVML and nvidia-smi
    python = "python"  # the interpreter and the loader (ImportError, undefined symbol)


#: a bounded regular expression: at most 300 characters (the gate times every pattern on hostile lines)
PatternText = Annotated[str, StringConstraints(min_length=1, max_length=300)]


class SignaturePattern(StrictModel):
    """How a line is recognised: it contains ``literal`` (case-sensitive) and, when given, matches ``regex``.

    ``literal`` is what the checker looks for first, over the whole log at once; ``regex`` (Python ``re``,
    searched in the line, at most 300 characters) narrows it.  Either alone is not enough: every pattern
    has a literal.
    """

    literal: Annotated[str, StringConstraints(min_length=4, max_length=200)]
    regex: PatternText | None = None

    @model_validator(mode="after")
    def _compiles(self) -> "SignaturePattern":
        if self.regex is not None:
            try:
                re.compile(self.regex)
            except re.error as exc:
                raise ValueError(f"regex does not compile: {exc}") from None
        if self.literal != self.literal.strip():
            raise ValueError("literal starts or ends with white space (log lines are matched as printed)")
        if not self.literal.isprintable() or any(ch in self.literal for ch in "\u00a0\u200b\u200c\u200d\u2060\ufeff"):
            raise ValueError("literal holds a line break, a control, a no-break or zero-width space: a log line never "
                             "holds it as printed")
        return self


class SignatureExample(StrictModel):
    """A real line the signature must match, as a public report or document printed it (sanitised)."""

    line: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    source: Url


class Remedies(StrictModel):
    """What to do, by where the user runs: ``docker``, ``kubernetes``, ``acs`` (an ACS GPU pod) and ``image``
    (inside the container, anywhere).  At least one is given; each names a command, flag or pod-spec field."""

    docker: LocalizedText | None = None
    kubernetes: LocalizedText | None = None
    acs: LocalizedText | None = None
    image: LocalizedText | None = None

    @model_validator(mode="after")
    def _one(self) -> "Remedies":
        if not any((self.docker, self.kubernetes, self.acs, self.image)):
            raise ValueError("give at least one of docker, kubernetes, acs, image")
        for place in ("docker", "kubernetes", "acs", "image"):
            text = getattr(self, place)
            if text is not None:
                _check_remedy_values(place, text)
        return self


def _check_remedy_values(place: str, text: "LocalizedText") -> None:
    """The placeholders of one remedy (``{{name|fallback}}``, :mod:`lingjun.checks.core.remedy_template`): well
    formed, each a value the checker computes, with words to fall back on, the same names in both languages."""
    names = {}
    for lang in ("en", "zh"):
        value = getattr(text, lang)
        if malformed_placeholders(value):
            raise ValueError(f"{place}.{lang}: '{{{{' opens no placeholder of the form {{{{name|fallback words}}}}")
        found = remedy_placeholders(value)
        for name, words in found:
            if name not in REMEDY_VALUES:
                raise ValueError(f"{place}.{lang}: {{{{{name}|...}}}} names no value the checker computes (known: "
                                 f"{', '.join(sorted(REMEDY_VALUES))})")
            if not words.strip():
                raise ValueError(f"{place}.{lang}: {{{{{name}|}}}} gives no words to say when the input does not show it")
        names[lang] = sorted(n for n, _ in found)
    if names["en"] != names["zh"]:
        raise ValueError(f"{place}: the English text quotes {names['en'] or 'no value'} and the Chinese "
                         f"{names['zh'] or 'no value'}; both languages quote the same values")


class SignatureCause(StrictModel):
    """One cause of an error line: the facts that make it apply (``condition``; none: it may always apply),
    what to do, and the checker rules that judge the same cause."""

    id: Identifier
    title: LocalizedText
    condition: Condition | None = None
    #: how serious the line is when this cause applies (``info``: nothing to fix); None: the signature's own
    severity: Literal["error", "warning", "info"] | None = None
    remedies: Remedies
    rules: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$")]] = Field(default_factory=list)


class SignatureSource(StrictModel):
    """A public page (an issue thread, a project's documentation or source) the signature is taken from."""

    url: Url
    title: ShortText


class ErrorSignature(StrictModel):
    """``releases/troubleshooting/<id>.yaml``: an error line, who prints it, its causes (most likely first) and remedies.

    ``severity``: how serious the line is (``error``: a failure, the default; ``warning`` for a line a job prints
    also when nothing is wrong, such as NCCL's INFO lines about a missing InfiniBand device, whose causes then
    say when it is an error or only information);
    ``rules``: checker rules whose warning this line confirms (the report then makes it an error);
    ``components``: catalog ids the line concerns (release pages link it); ``overlaps``: signatures whose
    examples this one may match on purpose (the gate refuses any other overlap); ``summary``: the line sums up a
    failure that other lines print in detail (NCCL's ``unhandled system error``, a peer's closed connection): in a
    log that shows other error lines it is listed after them, and says so, since they name what failed first.
    """

    kind: Literal["error-signature"]
    schema_version: Literal[1] = 1
    id: Identifier
    printed_by: Printer
    severity: Literal["error", "warning"] = "error"
    title: LocalizedText
    explanation: LocalizedText
    patterns: list[SignaturePattern] = Field(min_length=1)
    examples: list[SignatureExample] = Field(min_length=1)
    causes: list[SignatureCause] = Field(min_length=1)
    rules: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$")]] = Field(default_factory=list)
    components: list[Identifier] = Field(default_factory=list)
    known_issues: list[Identifier] = Field(default_factory=list)
    overlaps: list[Identifier] = Field(default_factory=list)
    summary: StrictBool = False
    sources: list[SignatureSource] = Field(min_length=1)


# --------------------------------------------------------------------------
# reference data (NVIDIA)
# --------------------------------------------------------------------------


class ReferenceSource(StrictModel):
    """A cited page for reference rows; ``description`` in both languages (a plain string is shown as is)."""

    id: Identifier
    url: Url
    description: ShortText | LocalizedText


class ToolkitDriverRow(StrictModel):
    """CUDA Toolkit release notes, Table 3: toolkit release -> minimum driver."""

    cuda: CudaVersionString  # major.minor
    release: ShortText  # "12.8 Update 1"
    toolkit: CudaVersionString  # 12.8.1
    linux_min_driver: DriverVersionString
    windows_min_driver: ShortText | None = None
    source: Identifier


class MinorVersionCompatRow(StrictModel):
    """Table 2: the driver range giving CUDA minor-version compatibility within a major.

    ``min_driver`` is the floor as NVIDIA states it: an exact driver where NVIDIA gives one
    (``"525.60.13"`` for 12.x) or a branch where NVIDIA states only the branch (``"580"`` for
    13.x, "≥ 580": any driver of R580 or newer meets it).  Source:
    https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html
    """

    cuda_major: int = Field(ge=10, le=99)
    min_branch: int = Field(ge=100, le=9999)
    #: newer branches still run the major through plain backward compatibility
    max_branch_exclusive: int | None = None
    #: exact driver (``525.60.13``) or branch only (``580``), as NVIDIA states the floor
    min_driver: DriverVersionString
    sources: list[Identifier] = Field(min_length=1)


class ToolkitBranchRow(StrictModel):
    """From the 13.4 notes on: the driver branch named for a 13.x toolkit."""

    cuda: CudaVersionString
    branch: int = Field(ge=100, le=9999)
    source: Identifier


class ForwardCompatImageRow(StrictModel):
    """Branches a CUDA base image admits for forward compatibility (its ``NVIDIA_REQUIRE_CUDA``)."""

    image_cuda: CudaVersionString
    branches: list[int] = Field(min_length=1)
    source: Identifier


class CudaDriverReference(StrictModel):
    """``releases/reference/cuda-drivers.yaml``: NVIDIA's compatibility tables.

    Rows the research marked UNVERIFIED are not included.
    """

    kind: Literal["cuda-drivers"]
    schema_version: Literal[1] = 1
    sources: list[ReferenceSource] = Field(min_length=1)
    toolkit_min_driver: list[ToolkitDriverRow] = Field(min_length=1)
    toolkit_branch: list[ToolkitBranchRow] = Field(default_factory=list)
    minor_version_compat: list[MinorVersionCompatRow] = Field(min_length=1)
    forward_compat_images: list[ForwardCompatImageRow] = Field(default_factory=list)
    #: GPU classes on which forward compatibility (cuda-compat) works
    forward_compat_scope: LocalizedText


class EolUndated(str, Enum):
    """Why a driver branch row has no end-of-life month.

    ``listed``: NVIDIA's table lists the branch as end of life without a month (or says every earlier branch it
    does not list is end of life); ``new-feature``: a new-feature branch, to which NVIDIA gives no end-of-life
    date ("no date: new-feature branch"); ``disputed``: NVIDIA's pages give different months (the note says which).
    """

    listed = "listed"
    new_feature = "new-feature"
    disputed = "disputed"


class DriverBranch(StrictModel):
    """One NVIDIA data center driver branch and its lifecycle.

    End of life is a month (``eol``), evaluated against the day it is shown
    (:func:`lingjun.checks.core.driver_target.branch_end_of_life`), or the reason there is none
    (``eol_undated``): exactly one of the two.  ``source`` names the edition of NVIDIA's table the row comes
    from (``dc-drivers-r620``: the table published with the R620 documentation).
    """

    branch: int = Field(ge=100, le=9999)
    type: BranchType | None = None
    #: end-of-life month where NVIDIA states one
    eol: YearMonth | None = None
    #: why there is no month (exactly one of ``eol`` and ``eol_undated``)
    eol_undated: EolUndated | None = None
    #: a stored end-of-life flag: never needed (end of life is computed from ``eol``); the gate rule
    #: ``data.branch-eol-flag`` refuses one that contradicts the row's own date
    end_of_life: StrictBool | None = None
    max_cuda_major_without_compat: int | None = None
    #: where sources disagree about this branch, or how its row was read
    note: LocalizedText | None = None
    #: the table edition the row comes from (a ``sources`` id)
    source: Identifier

    @model_validator(mode="after")
    def _one_end(self) -> "DriverBranch":
        if (self.eol is None) == (self.eol_undated is None):
            raise ValueError("give exactly one of eol (NVIDIA's end-of-life month, YYYY-MM) and eol_undated "
                             "(listed, new-feature or disputed: why there is no month)")
        return self


class DriverBranchReference(StrictModel):
    """``releases/reference/driver-branches.yaml``."""

    kind: Literal["driver-branches"]
    schema_version: Literal[1] = 1
    sources: list[ReferenceSource] = Field(min_length=1)
    branches: list[DriverBranch] = Field(min_length=1)


class GpuModel(StrictModel):
    """One NVIDIA GPU model of ``releases/reference/gpus.yaml`` (NVIDIA's CUDA GPUs list).

    ``name`` is NVIDIA's model name without the ``NVIDIA`` prefix (``H20``,
    ``GeForce RTX 4090``); ``data_center`` says whether NVIDIA lists it among
    its data center products, the only GPUs on which forward compatibility
    (``cuda-compat``) works.  Source: https://developer.nvidia.com/cuda-gpus
    """

    name: ShortText
    #: ``major.minor`` (``"9.0"``)
    compute_capability: Annotated[str, Field(pattern=r"^[0-9]{1,2}\.[0-9]$")]
    #: strict: ``"yes"`` or ``1`` is an error, not True
    data_center: StrictBool
    #: None for generations the schema's :class:`GpuArchitecture` does not name (Pascal)
    architecture: GpuArchitecture | None = None
    source: Identifier
    note: LocalizedText | None = None


class GpuReference(StrictModel):
    """``releases/reference/gpus.yaml``: GPU models with compute capability and data center class."""

    kind: Literal["gpus"]
    schema_version: Literal[1] = 1
    sources: list[ReferenceSource] = Field(min_length=1)
    gpus: list[GpuModel] = Field(min_length=1)


# --------------------------------------------------------------------------
# the release record
# --------------------------------------------------------------------------


#: a version field of a record, variant or runtime that ``lingjun-kb new`` copies and asks to be confirmed:
#: ``driver`` is the whole driver requirement (minimum, forward-compatibility and must-upgrade branches),
#: ``base_image`` the upstream release it is aligned with
CarriedField = Literal["cuda", "python", "ppu_sdk", "driver", "base_image", "architectures", "component_list", "gpu_support"]


class ImageTag(StrictModel):
    """One published image tag and the products it is meant for."""

    tag: Annotated[str, Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")]
    #: full public reference, e.g. ``egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless``
    reference: ShortText
    products: list[Product] = Field(default_factory=list)
    #: products the page says not to use this tag for
    not_for: list[Product] = Field(default_factory=list)
    #: CPU architectures this tag is built for, where stated
    architectures: list[CpuArch] = Field(default_factory=list)
    digest: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] | None = None


class ForwardCompatBranch(StrictModel):
    """An older data center driver branch usable through forward compatibility."""

    branch: int = Field(ge=100, le=9999)
    minimum: DriverVersionString


class BranchResolution(StrictModel):
    """How the record resolves a branch the page lists as both allowed and must-upgrade."""

    branch: int = Field(ge=100, le=9999)
    decision: BranchDecision
    reason: LocalizedText


class DriverRequirement(StrictModel):
    """Driver the image needs.

    ``minimum`` written as a branch (``"575"``) means any driver of that
    branch or newer.  For PPU images the minimum is the PPU driver version.
    """

    vendor: DriverVendor
    minimum: VersionString
    #: the requirement exactly as the page states it ("NVIDIA Driver release >= 575")
    stated_as: ShortText | None = None
    recommended: VersionString | None = None
    #: data center branches usable through forward compatibility (NVIDIA only)
    forward_compatibility: list[ForwardCompatBranch] = Field(default_factory=list)
    #: branches that are not forward compatible and must be upgraded
    must_upgrade_branches: list[Annotated[int, Field(ge=100, le=9999)]] = Field(default_factory=list)
    branch_resolutions: list[BranchResolution] = Field(default_factory=list)
    #: how complete the driver section is: False means our copy shows the whole section (every branch
    #: it names is recorded above); True means it is cut off, so a branch not listed above is not
    #: stated either way (the site shows "not stated", never a verdict, for it)
    text_truncated: bool = False
    note: LocalizedText | None = None

    @model_validator(mode="after")
    def _vendor_fields(self) -> "DriverRequirement":
        if self.vendor is DriverVendor.nvidia:
            try:
                DriverVersion.parse(self.minimum)
            except VersionFormatError as exc:
                raise ValueError(f"minimum: {exc}") from None
        elif self.forward_compatibility or self.must_upgrade_branches:
            raise ValueError("forward_compatibility and must_upgrade_branches apply to NVIDIA drivers only")
        return self


class ComponentEntry(StrictModel):
    """One component of a release, version exactly as published."""

    id: Identifier
    #: the name as the page prints it (``Torch``, ``transformer_engine``)
    name: ShortText
    version: VersionString
    #: restricts the entry to these CPU architectures (25.10 publishes separate lists)
    architectures: list[CpuArch] = Field(default_factory=list)
    stated_in: StatedIn = StatedIn.component_list
    #: the release's own page says this component is new in this release ("now included"), which the
    #: site shows even when the previous release's list is not complete enough to prove the addition
    introduced: bool = False
    #: set by ``lingjun-kb new``: the version was copied from the release the draft started from
    #: (the record's ``carried_from``) and is not yet confirmed against this release's page; delete it once
    #: confirmed, or change the version (the gate's ``data.carried-over`` fails the record until then)
    carried_over: StrictBool = False
    note: LocalizedText | None = None


class Highlight(StrictModel):
    """A main feature of the release."""

    text: LocalizedText
    components: list[Identifier] = Field(default_factory=list)
    references: list[UpstreamRef] = Field(default_factory=list)


class BugFix(StrictModel):
    """A fixed bug, with upstream references (``vllm-project/vllm#13693``)."""

    text: LocalizedText
    components: list[Identifier] = Field(default_factory=list)
    references: list[UpstreamRef] = Field(default_factory=list)
    known_issue: Identifier | None = None


class Feature(StrictModel):
    """A longer "key features and enhancements" section."""

    id: Identifier
    title: LocalizedText
    body: LocalizedText


class UsageNote(StrictModel):
    """Advice for users of the image, optionally enforced by a ``lingjun-check`` rule."""

    id: Identifier
    text: LocalizedText
    #: id of the checker rule that enforces this note (``env.nccl-socket-ifname-pod-size``)
    rule: Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$")] | None = None


class QuickStartStep(StrictModel):
    """One step of the quick start: a title and shell commands."""

    title: LocalizedText
    commands: list[Annotated[str, Field(min_length=1, max_length=2000)]] = Field(default_factory=list)
    note: LocalizedText | None = None


class GpuSupport(StrictModel):
    """GPU support the page states.

    ``list_state`` says whether the lists are the page's whole statement of support
    (``complete``: a GPU outside them is unsupported) or only what it mentions, such as
    newly added support (``partial``, the default: a GPU outside them is not stated).
    """

    list_state: Literal["complete", "partial"] = "partial"
    architectures: list[GpuArchitecture] = Field(default_factory=list)
    #: compute capabilities (``"9.0"``)
    compute_capabilities: list[Annotated[str, Field(pattern=r"^[0-9]{1,2}\.[0-9]$")]] = Field(default_factory=list)
    #: GPU or instance models named (``L20A``)
    models: list[ShortText] = Field(default_factory=list)
    note: LocalizedText | None = None


class BaseImageRef(StrictModel):
    """The upstream image a release is aligned with (``ngc-pytorch:25.02``)."""

    release: ReleaseRef
    note: LocalizedText | None = None


class AcknowledgedDowngrade(StrictModel):
    """A component version that goes down from the previous release, on purpose or as published."""

    component: Identifier
    from_version: VersionString
    to_version: VersionString
    reason: LocalizedText


class RuntimeStatus(str, Enum):
    """Maintenance state the page gives a runtime (``维护中``: maintained)."""

    maintained = "maintained"
    unmaintained = "unmaintained"


class Runtime(StrictModel):
    """One framework runtime of an image: a training framework's source and its own Python environment.

    Some images (the PPU training image of 2026-10-20) carry several runtimes side by side, each a
    separate virtual environment under its own path with its own component list; the image's
    ``components`` are then what every runtime shares.
    """

    #: the page's runtime id, e.g. ``cosmos-framework/20261015`` (framework and build date)
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}(/[a-z0-9][a-z0-9._-]{0,63})?$")]
    #: the framework's name as the page prints it (``LlamaFactory``)
    name: ShortText
    #: the framework's official upstream repository or site
    upstream: Url | None = None
    #: where the runtime (source and virtual environment) lies inside the image
    path: Annotated[str, Field(pattern=r"^/[A-Za-z0-9._/-]{0,255}$")] | None = None
    status: RuntimeStatus | None = None
    python: VersionString | None = None
    #: version fields copied by ``lingjun-kb new`` and not yet confirmed (see the record's ``carried_from``)
    carried_over: list[Literal["python", "component_list"]] = Field(default_factory=list)
    #: how complete ``components`` is (inferred from the entries when left out)
    component_list: Optional[ListState] = None
    components: list["ComponentEntry"] = Field(default_factory=list)
    note: LocalizedText | None = None

    @model_validator(mode="after")
    def _infer_component_list(self) -> "Runtime":
        if self.component_list is None:
            self.__dict__["component_list"] = ListState(_inferred_component_list(self.components))
        return self


class ImageVariant(StrictModel):
    """One image of a release that publishes several (``inference-nv-pytorch`` 25.04: a vLLM image and an
    SGLang image), each with its own tags, scenario and component list.

    A release with variants keeps its tags and component lists in them: its own ``image_tags`` and
    ``components`` stay empty.  Values a variant leaves out (``python``, ``cuda``) are the release's.
    """

    #: short id unique within the release (``vllm``, ``sglang``)
    id: Identifier
    title: LocalizedText
    #: what the page says the image is for ("大模型推理": large-model inference)
    use_case: LocalizedText | None = None
    scenarios: list[Scenario] = Field(default_factory=list)
    image_tags: list[ImageTag] = Field(min_length=1)
    architectures: list[CpuArch] = Field(default_factory=list)
    cuda: CudaVersionString | None = None
    ppu_sdk: VersionString | None = None
    python: VersionString | None = None
    #: version fields copied by ``lingjun-kb new`` and not yet confirmed (see the record's ``carried_from``)
    carried_over: list[Literal["cuda", "python", "ppu_sdk", "architectures", "component_list"]] = Field(default_factory=list)
    #: how complete ``components`` is (inferred from the entries when left out)
    component_list: Optional[ListState] = None
    components: list["ComponentEntry"] = Field(default_factory=list)
    presence_unknown: list[Identifier] = Field(default_factory=list)
    runtimes: list[Runtime] = Field(default_factory=list)
    note: LocalizedText | None = None

    @model_validator(mode="after")
    def _infer_component_list(self) -> "ImageVariant":
        if self.component_list is None:
            self.__dict__["component_list"] = ListState(_inferred_component_list(self.components))
        return self


def _inferred_component_list(components: Any) -> str:
    """The :class:`ListState` a record that does not state one implies: none listed -> ``not-published``;
    any entry -> ``partial``, the less assertive state: only a record that says ``complete`` makes a
    component it does not list absent (the gate requires the state to be stated when entries are listed)."""
    if not isinstance(components, list) or not components:
        return ListState.not_published.value
    return ListState.partial.value


class ReleaseRecord(StrictModel):
    """``releases/<family>/<YY.MM>.yaml``: everything known about one image release.

    ``component_list`` says how far ``components`` can be read as the whole
    image (see :class:`ListState`); a record that does not state it gets the
    least assertive state its entries allow (no entries: ``not-published``;
    any entry: ``partial``), and the gate asks for it when entries are listed.
    ``presence_unknown`` names components the list leaves out although the
    sources leave open whether the image still ships them.
    ``stated_none`` names the lists the official page explicitly says are
    empty ("Bug fixes: none"); an empty list not named there is *not
    recorded*, which says nothing about the page.
    ``not_captured`` names the sections of the official page that the
    recorded copy does not show, in whole or in part (only the top of the
    page was available, or the section is cut off): the site says "not
    recorded from the page" for each, so the reader knows the page may hold
    more than the record.  A list may still hold what was captured of it, or
    items taken from another page (a known issue named by a later release).
    """

    kind: Literal["release"]
    schema_version: Literal[1] = 1
    family: FamilyId
    version: ReleaseVersion
    status: ReleaseStatus
    #: when the release was published, from the evidence (a dated image tag, the page's publication or
    #: last-updated date), with its kind and source; None: no evidence read states one ("not stated")
    released: ReleaseDate | None = None
    #: when this knowledge base first recorded the release (never a release date: the feeds and "newest" use
    #: ``released``).  Existing records: the day ``git log`` shows the file added.
    recorded: dt.date | None = None
    #: when the record last changed in a way a reader should know of (a correction, a list filled in);
    #: None: not since ``recorded``.  Shown on the release page; never a release date.
    revised: dt.date | None = None
    #: set by ``lingjun-kb new``: the release the draft was copied from; the versions it copied carry
    #: ``carried_over`` marks until each is confirmed (mark deleted) or changed (gate rule ``data.carried-over``)
    carried_from: ReleaseVersion | None = None
    #: version fields of the record copied from ``carried_from`` and not yet confirmed
    carried_over: list[CarriedField] = Field(default_factory=list)
    summary: LocalizedText
    base_image: BaseImageRef | None = None
    architectures: list[CpuArch] = Field(default_factory=list)
    image_tags: list[ImageTag] = Field(default_factory=list)
    #: CUDA toolkit of the image (NVIDIA images; PPU images state the CUDA API level they emulate as a component)
    cuda: CudaVersionString | None = None
    ppu_sdk: VersionString | None = None
    #: Python of the image, as published (``3.12.7+gc``)
    python: VersionString | None = None
    driver: DriverRequirement | None = None
    gpu_support: GpuSupport | None = None
    #: how complete ``components`` is (inferred from the entries when left out; see the class docstring)
    component_list: Optional[ListState] = None
    components: list[ComponentEntry] = Field(default_factory=list)
    #: components the list leaves out while the sources do not say whether the image still ships them
    #: (a ``source_conflicts`` entry explains each): never reported as added or removed
    presence_unknown: list[Identifier] = Field(default_factory=list)
    #: lists the official page says are empty ("none"), as opposed to lists not recorded
    stated_none: list[RecordSection] = Field(default_factory=list)
    #: sections of the official page the recorded copy does not show, in whole or in part
    not_captured: list[RecordSection] = Field(default_factory=list)
    highlights: list[Highlight] = Field(default_factory=list)
    bug_fixes: list[BugFix] = Field(default_factory=list)
    features: list[Feature] = Field(default_factory=list)
    usage_notes: list[UsageNote] = Field(default_factory=list)
    known_issues: list[Identifier] = Field(default_factory=list)
    quick_start: list[QuickStartStep] = Field(default_factory=list)
    acknowledged_downgrades: list[AcknowledgedDowngrade] = Field(default_factory=list)
    #: several images in one release, each with its own tags and component list (see :class:`ImageVariant`)
    variants: list[ImageVariant] = Field(default_factory=list)
    #: framework runtimes (separate Python environments) in the image (see :class:`Runtime`)
    runtimes: list[Runtime] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)
    source_conflicts: list[SourceConflict] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _no_bare_release_date(cls, data: Any) -> Any:
        if isinstance(data, dict) and "release_date" in data:
            raise ValueError("release_date is written as released: {date: YYYY-MM-DD, kind: image-tag|page-published|"
                             "page-updated, source: URL} (the evidence the date comes from)")
        return data

    @property
    def release_date(self) -> Optional[dt.date]:
        """``released.date``, or None when no evidence states a release date."""
        return self.released.date if self.released is not None else None

    @model_validator(mode="after")
    def _released_evidence(self) -> "ReleaseRecord":
        rel = self.released
        if rel is None:
            return self
        if rel.kind is ReleaseDateKind.image_tag:
            stamp = rel.date.strftime("%Y%m%d")
            tags = [t.tag for t in self.image_tags] + [t.tag for v in self.variants for t in v.image_tags]
            if not any(stamp in tag for tag in tags):
                raise ValueError(f"released.date {rel.date} is of kind image-tag, but no image tag of the release "
                                 f"carries {stamp}; use the kind of the evidence it comes from")
        else:
            urls = {str(s.url): s for s in self.sources}
            cited = urls.get(str(rel.source))
            if cited is None:
                raise ValueError(f"released.source {rel.source} is not one of the record's sources; a page date "
                                 "comes from a page the record cites")
            if rel.kind is ReleaseDateKind.page_updated and cited.last_updated is not None:
                stamped = parse_page_date(cited.last_updated)
                if stamped is not None and stamped != rel.date:
                    raise ValueError(f"released.date {rel.date} differs from the last_updated stamp of its source "
                                     f"({cited.last_updated!r})")
        return self

    @model_validator(mode="after")
    def _variants_hold_their_images(self) -> "ReleaseRecord":
        if self.variants:
            held = [name for name in ("image_tags", "components", "presence_unknown", "runtimes")
                    if getattr(self, name)]
            if held or "component_list" in self.model_fields_set:
                raise ValueError("a release with variants keeps image_tags, components, component_list, "
                                 "presence_unknown and runtimes in each variant; move "
                                 + ", ".join(held or ["component_list"]) + " into the variants")
            ids = [v.id for v in self.variants]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if twice:
                raise ValueError(f"variant id {twice[0]!r} is given twice; each variant needs its own id")
        if RecordSection.driver in self.stated_none:
            raise ValueError("stated_none cannot name driver (it names empty lists); a page that states no driver "
                             "requirement is recorded by leaving driver out, one whose driver section was not seen "
                             "by naming driver in not_captured")
        day = identifier_date(self.version)
        if day is not None and self.released is not None:
            updated = self.released.kind is ReleaseDateKind.page_updated
            if (self.released.date < day) if updated else (self.released.date != day):
                raise ValueError(f"released.date {self.released.date} "
                                 + ("is before" if updated else "differs from")
                                 + f" the date the release is named by ({self.version}); leave released out or "
                                   "make them agree")
        return self

    @model_validator(mode="after")
    def _infer_component_list(self) -> "ReleaseRecord":
        # set through __dict__ so ``model_fields_set`` still tells an inferred state from a stated one
        # (the gate's data.component-list-state requires it stated when components are listed)
        if self.component_list is None:
            self.__dict__["component_list"] = ListState(_inferred_component_list(
                [{"stated_in": e.stated_in.value} for e in self.components]))
        return self

    @property
    def component_list_stated(self) -> bool:
        """True when the record states ``component_list`` itself (False: it was inferred)."""
        return "component_list" in self.model_fields_set

    @property
    def components_complete(self) -> bool:
        """True when ``components`` is the page's whole component list (a component not in it is absent)."""
        return self.component_list is ListState.complete

    @property
    def ref(self) -> str:
        """``family:version``, e.g. ``training-nv-pytorch:25.07``."""
        return f"{self.family}:{self.version}"

    @property
    def order_key(self) -> tuple[int, int, int] | None:
        """Where the release falls in its family's order: ``(year, month, day)``, day 0 for a ``YY.MM``
        month; None when neither its identifier nor its ``release_date`` gives a date."""
        return release_order_key(self.version, self.release_date)


class TorchWheelRow(StrictModel):
    """One PyTorch release line and the CUDA variants PyTorch published wheels for on ``download.pytorch.org/whl/cuXYZ``.

    ``releases`` are the versions of the line (``2.7.0``, ``2.7.1``) that share the variants; ``cuda`` the variant
    labels (``cu118``, ``cu126``, ``cu128``), as PyTorch's previous-versions page lists them for Linux.
    """

    releases: list[Annotated[str, Field(pattern=r"^[0-9]+\.[0-9]+\.[0-9]+$")]] = Field(min_length=1)
    cuda: list[Annotated[str, Field(pattern=r"^cu[0-9]{3}$")]] = Field(min_length=1)
    source: Identifier


class TorchWheelReference(StrictModel):
    """``releases/reference/torch-wheels.yaml``: which CUDA variants PyTorch published for each torch release."""

    kind: Literal["torch-wheels"]
    schema_version: Literal[1] = 1
    sources: list[ReferenceSource] = Field(min_length=1)
    wheels: list[TorchWheelRow] = Field(min_length=1)


#: every document kind, discriminated by ``kind``
Document = Annotated[
    Union[ReleaseRecord, FamilyCatalog, ComponentCatalog, KnownIssue, CudaDriverReference, DriverBranchReference,
          GpuReference, ErrorSignature, TorchWheelReference],
    Field(discriminator="kind"),
]

DOCUMENT_MODELS: dict[str, type[StrictModel]] = {
    "release": ReleaseRecord,
    "families": FamilyCatalog,
    "components": ComponentCatalog,
    "known-issue": KnownIssue,
    "cuda-drivers": CudaDriverReference,
    "driver-branches": DriverBranchReference,
    "gpus": GpuReference,
    "error-signature": ErrorSignature,
    "torch-wheels": TorchWheelReference,
}

# the error catalogs (releases/errors/) are documents too; their models live in their own module
from lingjun.schema.error_catalogs import ERROR_CATALOG_MODELS  # noqa: E402 (needs StrictModel above)

DOCUMENT_MODELS.update(ERROR_CATALOG_MODELS)
