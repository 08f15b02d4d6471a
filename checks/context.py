"""What a checker rule gets: the facts, the release record that applies, the data and the options."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge.release_record import Release, release_from_dict

__all__ = ["CheckOptions", "ReleaseMatch", "CheckContext"]


@dataclass
class CheckOptions:
    """User options that rules read."""

    lang: str = "en"
    #: path of a DeepSpeed JSON config to pre-flight (``--deepspeed-config``)
    deepspeed_config: Optional[str] = None
    #: the model the user will train or serve (``--model DeepSeek-R1``); known issues match on it
    served_model: Optional[str] = None
    #: GPUs the pod requests (``--gpus-per-pod``); else taken from the visible GPU count
    gpus_per_pod: Optional[int] = None
    require_gpu: bool = False
    #: the date end-of-life comparisons use
    today: dt.date = field(default_factory=dt.date.today)
    #: root of the filesystem rules may read (config files); "/" live
    root: str = "/"


@dataclass
class ReleaseMatch:
    """Which release record applies and how it was chosen.

    ``how`` is ``"option"`` (--release), ``"env"`` (LINGJUN_RELEASE),
    ``"manifest"``, ``"fingerprint"`` or ``"none"``; ``score`` is the share
    of the record's probed components whose installed version matches
    (fingerprint only, 0.0-1.0).

    ``record`` is the release *as this image shows it*
    (:func:`lingjun.checks.knowledge._image_view.image_view`): for a release with variants, the
    identified variant's tags, component list and Python; with the variant unknown, only what every
    variant states alike; inside a runtime (``runtime``), that runtime's list.  Rules read it and never
    compare against another variant's list.  It is a typed
    :class:`~lingjun.checks.knowledge.release_record.Release`: a bundle dict given instead (identification
    builds the view as a dict, tests write records by hand) is converted once, here
    (:func:`~lingjun.checks.knowledge.release_record.release_from_dict`, which raises ValueError for a field of
    another type); its dict stays as ``record.raw``.
    """

    ref: Optional[str] = None
    how: str = "none"
    score: Optional[float] = None
    record: Optional[Release] = None
    #: the identified variant's id (``vllm``); None for a release with one image, or when not known
    variant: Optional[str] = None
    #: the release has variants and the input does not tell which one runs: the variants still possible
    #: (ids, best first); rules that need the whole list skip, package rules check only the shared entries
    variant_candidates: list[str] = field(default_factory=list)
    #: the runtime whose path holds the running interpreter: ``{"id", "name", "path"}``; None: the image's own
    runtime: Optional[dict[str, Any]] = None
    #: runner-up candidates for a fingerprint: [(ref, score), ...]
    candidates: list[tuple[str, float]] = field(default_factory=list)
    #: values that named no known release and were passed over: [("env" | "manifest", value), ...]
    #: (added later; the release.identified rule warns about each)
    rejected: list[tuple[str, str]] = field(default_factory=list)
    #: --release named a release the official pages name but the data holds no record of:
    #: ``{"ref", "family", "version", "named_in": [url, ...]}`` (``record`` is then None)
    unrecorded: Optional[dict[str, Any]] = None

    def __post_init__(self) -> None:
        if isinstance(self.record, dict):
            self.record = release_from_dict(self.record, "release record")

    @property
    def image_ref(self) -> Optional[str]:
        """``family:release#variant`` when the variant is known, else :attr:`ref`."""
        return f"{self.ref}#{self.variant}" if self.ref and self.variant else self.ref

    @property
    def variant_unknown(self) -> bool:
        """True when the release has variants and which one runs is not known."""
        return bool(self.variant_candidates) and self.variant is None


@dataclass
class CheckContext:
    """Everything a rule may read.  Rules must not touch the live system themselves."""

    facts: Facts
    data: KnowledgeData
    release: ReleaseMatch
    options: CheckOptions = field(default_factory=CheckOptions)
    #: what the user's logs show (``--log``, a snapshot's ``symptoms.errors``, a paste's warnings)
    evidence: Evidence = field(default_factory=Evidence)

    @property
    def record(self) -> Optional[Release]:
        """The applicable release record as this image shows it (:attr:`ReleaseMatch.record`), or None."""
        return self.release.record

    @property
    def record_dict(self) -> Optional[dict[str, Any]]:
        """The same record as a bundle dict (``record.raw``), or None: for the functions of
        :mod:`lingjun.checks.core` that the site and ``lingjun-kb which`` share (they read records as dicts)."""
        return self.release.record.raw if self.release.record is not None else None
