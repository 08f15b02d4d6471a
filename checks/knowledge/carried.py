"""What a family's releases have stated, carried forward to a later release whose record did not capture it.

A usage note or a known issue that earlier releases of a family state applies to a later release of that
family when the later release's record does not contradict it but did not capture the section that would
say so (the section is listed in ``not_captured``: the copy of the page does not show it, or shows only
part of it).  It applies *with its provenance*: "stated by 25.07; not recorded for 25.10".  This module
is the one place that decides it; the checker's rules (``env.nccl-socket-ifname-pod-size`` and the other
usage-note rules, ``known-issues.match``) and the site's release pages both call it.

What ends a carry (walking back from the release, newest first):

* a release whose section *was* captured (not in ``not_captured``) and does not state the item: its page
  no longer says it (a ``stated_none`` section is captured and empty, so it ends every carry);
* for a known issue: ``fixed_in`` naming the release or an earlier one of the family; or the release's
  record stating a version of a component outside the issue's ``affects.components`` (the image no longer
  ships the affected version), or a complete component list without that component.

A usage note is the same note in two releases when its ``id`` is the same, or both name the same checker
``rule``; the text carried is that of the newest release stating it.  Releases are ordered by
:func:`_order_key` (as :func:`lingjun.checks.knowledge.identify.order_key`); a release that cannot be placed neither carries nor
receives anything.

Input records are bundle dicts (``model_dump(mode="json")`` of
:class:`lingjun.schema.models.ReleaseRecord`, with or without ``order_key``), so the site can pass dumped
models (and read ``Carried.item`` as one); rules ask :func:`usage_note_for`, which takes and gives the rule's
typed record and note (:mod:`lingjun.checks.knowledge.release_record`).  Standard library and ``packaging`` only: this module
ships in ``lingjun-check.pyz``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Optional

from lingjun.checks.core.version_match import parse_version
from lingjun.checks.knowledge.record_view import usage_note

if TYPE_CHECKING:
    from lingjun.checks.knowledge.release_record import Release, UsageNote

__all__ = ["Carried", "carried_usage_notes", "carried_known_issues", "stated_range", "usage_note_for", "quoted_note"]

USAGE_NOTES = "usage_notes"
KNOWN_ISSUES = "known_issues"


@dataclass(frozen=True)
class Carried:
    """One item carried to ``release`` (a version of the family).

    ``kind``: ``"usage_note"`` or ``"known_issue"``; ``item``: the usage note dict (as the newest release
    stating it words it) or the known-issue dict; ``stated_by``: the versions of the releases that state it,
    oldest first; ``ranges``: the same as the family's runs, ``("25.03–25.08",)`` when every release of the
    family between 25.03 and 25.08 states it.
    """

    kind: str
    item: dict
    stated_by: tuple[str, ...]
    ranges: tuple[str, ...]
    release: str

    @property
    def provenance_en(self) -> str:
        """``stated by 25.07; not recorded for 25.10``."""
        return f"stated by {', '.join(self.ranges)}; not recorded for {self.release}"

    @property
    def provenance_zh(self) -> str:
        """``25.07 载明；25.10 未记录该部分``."""
        return f"{'、'.join(self.ranges)} 载明；{self.release} 未记录该部分"

    def key(self) -> str:
        """The item's id (a note's or an issue's)."""
        return str(self.item.get("id"))


def _order_key(record: dict) -> tuple[int, int, int]:
    """:func:`lingjun.checks.knowledge.identify.order_key` of a bundle dict (as the site passes them): its
    ``order_key``, else :func:`lingjun.checks.core.release_order.release_order_key`; ``(0, 0, 0)`` unplaced."""
    key = record.get("order_key")
    if isinstance(key, list) and len(key) == 3 and all(isinstance(p, int) and not isinstance(p, bool) for p in key):
        return (key[0], key[1], key[2])
    from lingjun.checks.core.release_order import release_order_key  # deferred: not every check needs it

    version, date = record.get("version"), record.get("release_date")
    found = release_order_key(version, date if isinstance(date, str) else None) if isinstance(version, str) else None
    return found or (0, 0, 0)


def _family_order(releases: Iterable[dict], family: Any) -> list[dict]:
    """The family's releases that can be placed, oldest first."""
    placed = [(_order_key(r), r) for r in releases
              if isinstance(r, dict) and r.get("family") == family and isinstance(r.get("version"), str)]
    return [r for key, r in sorted((p for p in placed if p[0] != (0, 0, 0)), key=lambda p: p[0])]


def _not_captured(record: dict, section: str) -> bool:
    return section in [s for s in record.get("not_captured") or [] if isinstance(s, str)]


def _note_keys(note: dict) -> set[str]:
    keys = {f"id:{note.get('id')}"} if note.get("id") else set()
    if note.get("rule"):
        keys.add(f"rule:{note['rule']}")
    return keys


def stated_range(order: list[str], stated: Iterable[str]) -> tuple[str, ...]:
    """``stated`` (versions) as runs of ``order`` (the family's versions, oldest first): consecutive releases
    that all state it are one run ``"25.03–25.08"``, a release alone is itself.

    >>> stated_range(["25.03", "25.04", "25.06", "25.07"], ["25.03", "25.04", "25.07"])
    ('25.03–25.04', '25.07')
    """
    said = set(stated)
    runs: list[list[str]] = []
    previous = False
    for version in order:
        if version in said:
            if previous:
                runs[-1].append(version)
            else:
                runs.append([version])
        previous = version in said
    return tuple(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def _split(releases: Iterable[dict], record: Optional[dict]) -> Optional[tuple[list[dict], list[str]]]:
    """(the family's releases before ``record``, newest first; every placed version of the family, oldest
    first), or None when ``record`` cannot be placed."""
    if not isinstance(record, dict):
        return None
    order = _family_order(releases, record.get("family"))
    here = next((i for i, r in enumerate(order) if r.get("version") == record.get("version")), None)
    if here is None:
        order = _family_order([*releases, record], record.get("family"))
        here = next((i for i, r in enumerate(order) if r is record), None)
        if here is None:
            return None
    return list(reversed(order[:here])), [str(r["version"]) for r in order]


def _carry_to(releases: Iterable[dict], record: Optional[dict], section: str) -> Optional[tuple[list[dict], list[str]]]:
    """What both carries start from: ``_split`` of ``record`` among ``releases``, or None when nothing can carry
    to it (``record`` is not a dict, captured ``section``, or cannot be placed)."""
    if not isinstance(record, dict) or not _not_captured(record, section):
        return None
    return _split(list(releases), record)


def carried_usage_notes(releases: Iterable[dict], record: Optional[dict]) -> list[Carried]:
    """The usage notes earlier releases of ``record``'s family state that apply to ``record`` by carry (see the
    module docstring), in the order the newest stating release lists them; empty when ``record``'s usage notes
    were captured.

    Args:
        releases: release dicts of the knowledge base (any families; the bundle's ``releases``).
        record: the release the notes would carry to.
    """
    split = _carry_to(releases, record, USAGE_NOTES)
    if split is None:
        return []
    earlier, order = split
    own = set().union(*(_note_keys(n) for n in record.get(USAGE_NOTES) or [] if isinstance(n, dict)))
    found: dict[str, tuple[dict, list[str]]] = {}  # first key of a note -> (newest wording, versions stating it)
    alias: dict[str, str] = {}
    open_keys: Optional[set[str]] = None  # None: any note may still be found further back
    for older in earlier:
        notes = [n for n in older.get(USAGE_NOTES) or [] if isinstance(n, dict) and _note_keys(n)]
        for note in notes:
            keys = _note_keys(note)
            if not keys & own and (open_keys is None or keys & open_keys):
                _note_stated(found, alias, note, str(older["version"]))
        if not _not_captured(older, USAGE_NOTES):
            open_keys = _still_open(open_keys, notes)
            if not open_keys:
                break
    return [Carried("usage_note", note, tuple(reversed(versions)), stated_range(order, versions),
                    str(record.get("version")))
            for note, versions in found.values()]


def _note_stated(found: dict[str, tuple[dict, list[str]]], alias: dict[str, str], note: dict, version: str) -> None:
    """Record that the release ``version`` states ``note``: under the first key any of its keys was found by
    (the newest wording stays), or as a new note."""
    keys = _note_keys(note)
    first = next((alias[k] for k in sorted(keys) if k in alias), None)
    if first is None:
        first = sorted(keys)[0]
        found[first] = (note, [])
    for k in keys:
        alias.setdefault(k, first)
    found[first][1].append(version)


def _still_open(open_keys: Optional[set[str]], notes: list[dict]) -> set[str]:
    """The note keys a carry may still reach past a release whose usage notes were captured as ``notes``."""
    here = set().union(*(_note_keys(n) for n in notes)) if notes else set()
    return here if open_keys is None else open_keys & here


def _component_versions(record: dict, component_id: str) -> list[str]:
    return [str(e.get("version")) for e in record.get("components") or []
            if isinstance(e, dict) and e.get("id") == component_id and e.get("version")]


def _components_contradict(issue: dict, record: dict) -> bool:
    """Whether ``record`` states its image no longer ships what ``affects.components`` names: every version
    it lists of such a component is outside the range, or its complete list lacks the component."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # deferred: not every check needs it

    for cid, spec_text in ((issue.get("affects") or {}).get("components") or {}).items():
        versions = _component_versions(record, str(cid))
        if not versions:
            if record.get("component_list") == "complete":
                return True
            continue
        try:
            spec = SpecifierSet(str(spec_text))
        except InvalidSpecifier:
            continue
        parsed = [parse_version(v) for v in versions]
        if all(p is not None and not spec.contains(p, prereleases=True) for p in parsed):
            return True
    return False


def _ref(release: dict) -> str:
    return f"{release.get('family')}:{release.get('version')}"


def _states_issue(issue: dict, release: dict) -> bool:
    ref = _ref(release)
    return (issue.get("id") in [i for i in release.get(KNOWN_ISSUES) or [] if isinstance(i, str)]
            or ref in [r for r in (issue.get("affects") or {}).get("releases") or [] if isinstance(r, str)])


def carried_known_issues(releases: Iterable[dict], issues: Iterable[dict], record: Optional[dict]) -> list[Carried]:
    """The known issues earlier releases of ``record``'s family state (the record lists the issue, or the issue's
    ``affects.releases`` names it) that apply to ``record`` by carry, by issue id; empty when ``record``'s
    known issues were captured.  An issue that names no releases (a whole family's) applies without carry."""
    split = _carry_to(releases, record, KNOWN_ISSUES)
    if split is None:
        return []
    earlier, order = split
    carried = (_issue_carried(issue, record, earlier, order)
               for issue in sorted((i for i in issues if isinstance(i, dict) and i.get("id")), key=lambda i: str(i["id"])))
    return [c for c in carried if c is not None]


def _issue_carried(issue: dict, record: dict, earlier: list[dict], order: list[str]) -> Optional[Carried]:
    """``issue`` carried to ``record`` from the newest of ``earlier`` (newest first) stating it, or None: the
    record states it itself, it names no releases, no earlier release states it, the record contradicts it, or
    a fix or a captured section lies between."""
    if _states_issue(issue, record) or not (issue.get("affects") or {}).get("releases"):
        return None
    fixed = {r for r in issue.get("fixed_in") or [] if isinstance(r, str)}
    newest = next((i for i, r in enumerate(earlier) if _states_issue(issue, r)), None)
    if newest is None or _components_contradict(issue, record):
        return None
    if _ref(record) in fixed or any(_ends_issue_carry(r, fixed) for r in earlier[:newest]):
        return None
    stated: list[str] = []
    for older in earlier[newest:]:
        if _states_issue(issue, older):
            stated.append(str(older["version"]))
        elif _ends_issue_carry(older, fixed):
            break
    return Carried("known_issue", issue, tuple(reversed(stated)), stated_range(order, stated), str(record.get("version")))


def _ends_issue_carry(release: dict, fixed: set[str]) -> bool:
    """Whether a release that does not state the issue ends its carry: the issue is fixed in it, or its known
    issues were captured."""
    return _ref(release) in fixed or not _not_captured(release, KNOWN_ISSUES)


def usage_note_for(releases: Iterable[dict], record: "Optional[Release]",
                   rule_id: str) -> "tuple[Optional[UsageNote], Optional[Carried]]":
    """The usage note enforced by ``rule_id`` that applies to ``record`` (the rule's typed record; ``releases``: the
    bundle's release dicts, which a carry reads): ``(note, None)`` when the record states it, ``(note, carried)``
    when it applies by carry (:func:`carried_usage_notes`; the note is the typed view of ``carried.item``),
    ``(None, None)`` otherwise."""
    own = usage_note(record, rule_id)
    if own is not None or record is None:
        return own, None
    for carried in carried_usage_notes(releases, record.raw):
        if carried.item.get("rule") == rule_id:
            from lingjun.checks.core._dataclass_json import build  # deferred: only a carried note needs it
            from lingjun.checks.knowledge.release_record import UsageNote

            return build(UsageNote, carried.item, "usage note"), carried
    return None, None


def quoted_note(note: "Optional[UsageNote]", carried: Optional[Carried]) -> tuple[str, str]:
    """How a report quotes the note: ``Release note: "..."`` / ``发布说明：“...”``, with the provenance of a carried
    note: ``Release note (stated by 25.07; not recorded for 25.10): "..."``; empty strings without a note."""
    if note is None:
        return "", ""
    text = note.text
    if carried is None:
        return f"Release note: \"{text.get('en', '')}\"", f"发布说明：“{text.get('zh', '')}”"
    return (f"Release note ({carried.provenance_en}): \"{text.get('en', '')}\"",
            f"发布说明（{carried.provenance_zh}）：“{text.get('zh', '')}”")
