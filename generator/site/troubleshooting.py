"""The Troubleshooting section: error signatures (``releases/troubleshooting/``) as the site shows them.

:func:`troubleshooting` turns the knowledge base's :attr:`~lingjun.schema.kb.KnowledgeBase.signatures`
into :class:`Troubleshooting`: one :class:`PrinterGroup` per :class:`~lingjun.schema.models.Printer`
that has signatures (in the enum's declaration order), each with its :class:`SignatureView` entries
(sorted by title, then id).  Every decision the pages show is made here, never in a template:

* the page and anchor of an entry: ``troubleshooting/<printed_by>/`` and ``#<id>`` exactly, the
  address ``lingjun-check`` links to (:meth:`lingjun.checks.knowledge.bundle.KnowledgeBundle.signature_url`);
* each cause's condition in words, per language (:func:`condition_lines`, labels from
  :data:`lingjun.checks.core.condition_facts.FACTS`), and its remedies per place in :data:`PLACE_ORDER`;
* which checker rules, known issues and components exist (a reference the knowledge base does not
  hold is shown as text, never linked): the data gate does not check these references yet;
* the known issues in both directions (the signature's ``known_issues`` and every issue whose
  ``signatures`` names it);
* the releases that concern a signature: those listing one of its ``components`` in any image or
  runtime list, per family (catalog order), newest first.

The view is language-neutral: texts made here are ``{"en": ..., "zh": ...}`` dicts (``loc`` picks one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Optional

from lingjun.checks.core.condition_facts import FACTS
from lingjun.checks.core.remedy_template import fallback
from lingjun.checks.knowledge.units import size
from lingjun.schema.models import (
    Component,
    Condition,
    ErrorSignature,
    FactClause,
    Family,
    KnownIssue,
    LocalizedText,
    Printer,
    ReleaseRecord,
    SignatureCause,
    SignatureExample,
)
from lingjun.schema.release_images import release_images

from lingjun.generator.site.checker_rules import checker_rules, rule_anchor
from lingjun.generator.site.strings import translate

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.schema.kb import KnowledgeBase

__all__ = [
    "PLACE_ORDER",
    "RuleRef",
    "RemedyView",
    "CauseView",
    "ExampleView",
    "SignatureView",
    "PrinterGroup",
    "Troubleshooting",
    "troubleshooting",
    "printer_page_id",
    "printer_page_path",
    "condition_lines",
    "clause_text",
    "release_component_ids",
]

#: the places a remedy is given for, in the order the page shows them (:class:`~lingjun.schema.models.Remedies`)
PLACE_ORDER: tuple[str, ...] = ("docker", "kubernetes", "acs", "image")

_LANGS = ("en", "zh")


def printer_page_id(printer: Printer) -> str:
    """``troubleshooting:<printer>`` (``troubleshooting:nvidia-container``)."""
    return f"troubleshooting:{printer.value}"


def printer_page_path(printer: Printer) -> str:
    """``troubleshooting/<printer>.md``: built as ``troubleshooting/<printer>/``, the checker's link target."""
    return f"troubleshooting/{printer.value}.md"


@dataclass(frozen=True)
class RuleRef:
    """A checker rule a signature or cause names; ``anchor`` on the rules page, None when no such rule is registered."""

    id: str
    anchor: Optional[str]


@dataclass(frozen=True)
class RemedyView:
    """What to do in one place (``docker``, ``kubernetes``, ``acs``, ``image``)."""

    place: str
    text: LocalizedText


def _without_input(text: LocalizedText) -> LocalizedText:
    """A remedy as a page shows it: each value the checker quotes from an input (``{{driver.target|...}}``,
    :mod:`lingjun.checks.core.remedy_template`) said by its fallback words, since a page has no input."""
    return LocalizedText(en=fallback(text.en), zh=fallback(text.zh))


@dataclass(frozen=True)
class CauseView:
    """One cause, at its rank (1 = most likely), with its condition in words and its remedies per place.

    ``conditions`` is ``{"en": [...], "zh": [...]}``: one sentence per clause of the condition, all of
    which must hold; empty lists when the cause has no condition (it may always apply: ``always``).
    """

    cause: SignatureCause
    rank: int
    conditions: dict[str, list[str]]
    remedies: list[RemedyView]
    rules: list[RuleRef]

    @property
    def always(self) -> bool:
        """True when no condition narrows the cause (it may apply to any run)."""
        return not self.conditions["en"]


@dataclass(frozen=True)
class ExampleView:
    """An example line with the title of its source: the signature's ``sources`` title for the same URL, else None."""

    example: SignatureExample
    source_title: Optional[str]


@dataclass
class SignatureView:
    """One entry of a printer's page: the signature and everything around it, decided once."""

    signature: ErrorSignature
    page_id: str
    causes: list[CauseView]
    examples: list[ExampleView]
    rules: list[RuleRef]
    #: known issues in both directions, by id; ids the knowledge base does not hold in ``missing_issues``
    known_issues: list[KnownIssue]
    missing_issues: list[str]
    #: the signature's components as ``(id, catalog entry or None)``, in the record's order
    components: list[tuple[str, Optional[Component]]]
    #: ``[(family, releases newest first)]``: releases listing one of the components, families in catalog order
    releases: list[tuple[Family, list[ReleaseRecord]]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.signature.id

    @property
    def anchor(self) -> str:
        """The entry's anchor: the signature id exactly."""
        return self.signature.id

    @property
    def printer(self) -> Printer:
        return self.signature.printed_by

    @property
    def release_count(self) -> int:
        return sum(len(records) for _, records in self.releases)


@dataclass(frozen=True)
class PrinterGroup:
    """The signatures one program prints: one page, ``troubleshooting/<printer>/``."""

    printer: Printer
    page_id: str
    path: str
    signatures: list[SignatureView]


@dataclass
class Troubleshooting:
    """The whole section: groups in :class:`Printer` order; look-ups by signature id and by release ref."""

    groups: list[PrinterGroup]
    by_id: dict[str, SignatureView]
    #: release ref -> the signatures whose components it lists (printer order, then as on the pages)
    by_release: dict[str, list[SignatureView]]

    def for_release(self, record: ReleaseRecord) -> list[SignatureView]:
        return self.by_release.get(record.ref, [])

    def search_patterns(self, lang: str) -> list[dict[str, Any]]:
        """What the site's search box looks a pasted line up by: each pattern's literal, the text ``lingjun-check
        --log`` looks for first (its expression is run by the checker only, under a time limit): one entry per
        pattern, ``{"literal", "url" (from the site root: ``troubleshooting/nccl/#id``), "title" (in ``lang``)}``,
        in page order."""
        out = []
        for group in self.groups:
            for view in group.signatures:
                for pattern in view.signature.patterns:
                    out.append({"literal": pattern.literal,
                                "url": f"troubleshooting/{group.printer.value}/#{view.anchor}",
                                "title": getattr(view.signature.title, lang)})
        return out

    def signatures_of_issue(self, issue_id: str) -> list[SignatureView]:
        """The signatures related to a known issue (either side naming the other)."""
        return [view for group in self.groups for view in group.signatures
                if any(issue.id == issue_id for issue in view.known_issues)]


# --------------------------------------------------------------------------
# conditions in words
# --------------------------------------------------------------------------

#: int facts counted in bytes (shown as KiB / MiB / GiB when a whole number of them)
_BYTE_FACTS = frozenset({"shm.size_bytes", "limits.memlock_soft"})


def _int_value(fact: str, value: int, t) -> str:
    if value == -1 and fact.startswith("limits."):
        return t("ts.value.unlimited")
    if fact in _BYTE_FACTS and value >= 0:
        return size(value)  # as the checker's report writes it
    return str(value)


def _value_text(fact: str, kind: str, value: Any, t) -> str:
    if isinstance(value, list):
        return t("list_sep").join(_value_text(fact, kind, v, t) for v in value)
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        return _int_value(fact, value, t)
    return str(value)


def clause_text(clause: FactClause, lang: str) -> str:
    """One fact clause in words: ``the size of /dev/shm is below 1 GiB``.

    A ``bool`` fact reads ``<label>: yes`` / ``no`` (``ne true`` is ``no``); the other kinds
    ``<label> <operator> <value>`` with the operator's words from the strings table.
    """
    t = translate(lang)
    spec = FACTS[clause.fact]
    label = getattr(spec, lang)
    if spec.kind == "bool":
        truth = bool(clause.value) if clause.op == "eq" else not bool(clause.value)
        if spec.reads:  # the checker's own sentence for the value: "the container lacks the IPC_LOCK capability"
            return spec.reads[0 if truth else 1][0 if lang == "en" else 1]
        return t("ts.fact.bool").replace("{fact}", label).replace("{value}", t("ts.value.yes" if truth else "ts.value.no"))
    value = _value_text(clause.fact, spec.kind, clause.value, t)
    return t("ts.op." + clause.op).replace("{fact}", label).replace("{value}", value)


def condition_lines(condition: Optional[Condition], lang: str) -> list[str]:
    """Every part of a condition in words, one sentence per clause (all must hold); ``[]`` without one."""
    if condition is None:
        return []
    t = translate(lang)
    lines: list[str] = []
    for cid, spec in sorted(condition.components.items()):
        lines.append(t("ts.cond.component").replace("{component}", cid).replace("{spec}", str(spec)))
    if condition.gpu_models:
        lines.append(t("ts.cond.gpu").replace("{values}", t("list_sep").join(condition.gpu_models)))
    if condition.served_models:
        lines.append(t("ts.cond.model").replace("{values}", t("list_sep").join(condition.served_models)))
    for env in condition.env:
        if env.unset is not None:
            key = "ts.cond.env_unset" if env.unset else "ts.cond.env_set"
            lines.append(t(key).replace("{name}", env.name))
        elif env.equals is not None:
            lines.append(t("ts.cond.env_equals").replace("{name}", env.name).replace("{value}", env.equals))
        else:
            lines.append(t("ts.cond.env_not_equals").replace("{name}", env.name).replace("{value}", env.not_equals or ""))
    if condition.architectures:
        lines.append(t("ts.cond.arch").replace("{values}", t("list_sep").join(a.value for a in condition.architectures)))
    lines.extend(clause_text(clause, lang) for clause in condition.facts)
    return lines


# --------------------------------------------------------------------------
# the view
# --------------------------------------------------------------------------


def release_component_ids(record: ReleaseRecord) -> set[str]:
    """Catalog ids the release lists in any image or runtime list."""
    ids: set[str] = set()
    for image in release_images(record):
        ids.update(entry.id for entry in image.components)
        for runtime in image.runtimes:
            ids.update(entry.id for entry in runtime.components)
    return ids


def _rule_refs(ids: Iterable[str], known: set[str]) -> list[RuleRef]:
    seen: dict[str, RuleRef] = {}
    for rule_id in ids:
        seen.setdefault(rule_id, RuleRef(rule_id, rule_anchor(rule_id) if rule_id in known else None))
    return list(seen.values())


def _registered_rules() -> set[str]:
    return {rule.id for rule in checker_rules()}


def troubleshooting(kb: "KnowledgeBase", families: list[Family], by_family: dict[str, list[ReleaseRecord]],
                    rule_ids: Optional[set[str]] = None) -> Troubleshooting:
    """The :class:`Troubleshooting` of ``kb``.

    ``families`` and ``by_family`` (newest first) give the order of the release lists, as the site model
    has them; ``rule_ids`` the registered checker rules (default: the checker's registry).
    """
    rules_known = _registered_rules() if rule_ids is None else rule_ids
    components_by_release = {record.ref: release_component_ids(record)
                             for family in families for record in by_family.get(family.id, [])}
    views: dict[str, SignatureView] = {}
    for sig in kb.signatures.values():
        issue_ids = set(sig.known_issues)
        issue_ids.update(issue.id for issue in kb.known_issues.values() if sig.id in issue.signatures)
        wanted = set(sig.components)
        releases = []
        for family in families:
            found = [r for r in by_family.get(family.id, []) if components_by_release[r.ref] & wanted]
            if found:
                releases.append((family, found))
        titles = {str(source.url): source.title for source in sig.sources}
        views[sig.id] = SignatureView(
            signature=sig,
            page_id=printer_page_id(sig.printed_by),
            causes=[
                CauseView(
                    cause=cause,
                    rank=rank,
                    conditions={lang: condition_lines(cause.condition, lang) for lang in _LANGS},
                    remedies=[RemedyView(place, _without_input(getattr(cause.remedies, place))) for place in PLACE_ORDER
                              if getattr(cause.remedies, place) is not None],
                    rules=_rule_refs(cause.rules, rules_known),
                )
                for rank, cause in enumerate(sig.causes, start=1)
            ],
            examples=[ExampleView(ex, titles.get(str(ex.source))) for ex in sig.examples],
            rules=_rule_refs(list(sig.rules) + [r for c in sig.causes for r in c.rules], rules_known),
            known_issues=[kb.known_issues[i] for i in sorted(issue_ids) if i in kb.known_issues],
            missing_issues=sorted(i for i in issue_ids if i not in kb.known_issues),
            components=[(cid, kb.components.get(cid)) for cid in sig.components],
            releases=releases,
        )
    groups: list[PrinterGroup] = []
    for printer in Printer:
        members = sorted((v for v in views.values() if v.printer is printer),
                         key=lambda v: (v.signature.title.en.lower(), v.id))
        if members:
            groups.append(PrinterGroup(printer, printer_page_id(printer), printer_page_path(printer), members))
    by_release: dict[str, list[SignatureView]] = {}
    for group in groups:
        for view in group.signatures:
            for _, records in view.releases:
                for record in records:
                    by_release.setdefault(record.ref, []).append(view)
    return Troubleshooting(groups=groups, by_id={v.id: v for g in groups for v in g.signatures}, by_release=by_release)
