"""What the user's logs show: error lines matched to signatures, and facts the logs state.

Evidence is not a fact of the container: it is what a job printed (``--log FILE``, the error lines of a
snapshot's ``symptoms.errors``, the warnings inside a collect_env paste).  It is gathered by
:func:`lingjun.checks.knowledge.signatures.scan` and read by the ``evidence.error-lines`` rule, by the
conditions of signature causes (a fact a log states, such as the NCCL version, counts as shown, with the
log as its source) and by the runner, which turns a rule's warning that a matched line confirms into an
error.  Only the standard library is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

__all__ = ["LogLine", "SignatureHit", "NotJudged", "CatalogHit", "StatedFact", "Evidence"]


@dataclass(frozen=True)
class LogLine:
    """One line as it was read: ``source`` names the input (``job.log``, ``standard input``, ``the snapshot's
    symptoms.errors``), ``number`` is its 1-based line number (None for a list entry), ``text`` the line
    with secrets and identifiers masked and cut to :data:`lingjun.checks.knowledge.signatures.QUOTE_LIMIT`
    characters (not yet escaped: every output escapes it)."""

    source: str
    number: Optional[int]
    text: str

    def where(self) -> str:
        """``job.log:12`` (or only the source for a list entry)."""
        return f"{self.source}:{self.number}" if self.number is not None else self.source


@dataclass
class SignatureHit:
    """A signature whose pattern matched: the first line that matched and how many lines did."""

    signature: str
    first: LogLine
    count: int = 1


@dataclass
class NotJudged:
    """Lines holding a signature's ``literal`` whose pattern could not be run to its end: ``first`` the first such
    line, ``count`` how many; ``why`` ``line`` (the search of one line ran past its time limit) or ``input`` (the input's
    time for patterns was spent before the line came). Such a line may be that signature's error: it is reported,
    never counted as not matching."""

    signature: str
    literal: str
    first: LogLine
    why: str
    count: int = 1


@dataclass
class CatalogHit:
    """A line the error catalogs name (:func:`lingjun.checks.knowledge.catalog_lines.recognise`): ``matches`` are its
    :class:`~lingjun.checks.knowledge.catalog_lines.CatalogMatch` entries, ``first`` the first line showing them,
    ``count`` how many lines did, ``covered`` whether an error signature matched that first line too (its finding
    then speaks for the line)."""

    matches: tuple
    first: LogLine
    count: int = 1
    covered: bool = False

    @property
    def key(self) -> tuple:
        """The entries' keys: two lines with the same key are one finding."""
        return tuple(m.key for m in self.matches)


@dataclass(frozen=True)
class StatedFact:
    """A value a log states (``nccl.version`` ``2.21.5``), with the line that states it."""

    name: str
    value: Any
    line: LogLine


#: error-level lines kept as quotes (the first ones: the cause comes before its consequences)
ERROR_LEVEL_KEPT = 20


@dataclass
class Evidence:
    """Everything the logs showed.

    ``sources``: the inputs read, in order; ``lines``: lines read in all; ``hits``: matched signatures in the
    order of their first line; ``stated``: fact name -> the first :class:`StatedFact` (the last for
    ``nccl.network``, which a job may change); ``xids``: the Xid numbers the kernel printed, in order,
    each once; ``notes``: what could not be read in full (a line cut at the length limit), as
    ``(en, zh)`` pairs; ``unmatched``: error lines the input quotes as errors that no signature knows.
    """

    sources: list[str] = field(default_factory=list)
    lines: int = 0
    hits: list[SignatureHit] = field(default_factory=list)
    stated: dict[str, StatedFact] = field(default_factory=dict)
    xids: list[int] = field(default_factory=list)
    #: the process ids the kernel's Xid lines name, in order (their number is ``stated["kernel.xid_processes"]``)
    xid_pids: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    #: quoted error lines (a snapshot's ``symptoms.errors``) that no signature matched
    unmatched: list[LogLine] = field(default_factory=list)
    #: lines the error catalogs name, in the order of their first line (:class:`CatalogHit`)
    catalog_hits: list[CatalogHit] = field(default_factory=list)
    #: stated facts that lines state with different values (the pods of one ``kubectl logs --prefix`` log): not known
    conflicts: dict[str, list[Any]] = field(default_factory=dict)
    #: signatures whose pattern ran out of time on some lines (:class:`NotJudged`), in the order of their first line
    not_judged: list[NotJudged] = field(default_factory=list)
    #: error-level lines nothing else read (a logger's ``ERROR``, glog's ``E``, a compiler's ``fatal error:``;
    #: :mod:`lingjun.checks.knowledge.error_level`): the first :data:`ERROR_LEVEL_KEPT`, in order, each once
    error_level: list[LogLine] = field(default_factory=list)
    #: the kind of each of :attr:`error_level` (same order: "logger", "glog", "build", "loader", "shell", "container",
    #: "kubernetes"; :func:`lingjun.checks.knowledge.error_level.kind_of`)
    error_level_kinds: list[str] = field(default_factory=list)
    #: how many such lines the logs hold in all (copies included)
    error_level_count: int = 0

    def hit(self, signature_id: str) -> Optional[SignatureHit]:
        """The hit of one signature, or None."""
        return next((h for h in self.hits if h.signature == signature_id), None)

    def value(self, name: str) -> Optional[StatedFact]:
        """The stated fact ``name``, or None when no line states it or lines state it with different values."""
        return None if name in self.conflicts else self.stated.get(name)

    @property
    def read_logs(self) -> bool:
        """True when at least one log (or list of error lines) was read."""
        return bool(self.sources)


def reported_errors(facts: object) -> list:
    """The error lines an input reported itself (a snapshot's ``symptoms.errors``, a paste's quoted errors): the
    strings of ``facts.symptoms.errors``, empty when there are none."""
    return [e for e in getattr(getattr(facts, "symptoms", None), "errors", []) or [] if isinstance(e, str)]


def nothing_to_read(facts: object, logs: list, paste: "Optional[str]") -> bool:
    """Whether a check has no log, no reported error line and no paste: its evidence is empty, and neither the log
    reader nor the signatures are loaded (start-up of a plain check)."""
    return not logs and paste is None and not reported_errors(facts)

