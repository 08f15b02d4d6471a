"""``data.carried-over``: no version that ``lingjun-kb new`` copied from the previous release stays unconfirmed.

``lingjun-kb new`` copies the previous release's versions (component entries, CUDA, Python, PPU SDK, the driver
requirement, the base image) so that a month that changes little is quick to record, and marks each copy: the
record names the release it started from (``carried_from``), each copied component entry says
``carried_over: true``, and each copied field of the record, a variant or a runtime is listed in its
``carried_over``.  A copy nobody checked would pass for the new page's statement, so:

* a mark whose value is still the copied one is an error: confirm it against the new page and delete the mark,
  or change the value;
* a mark whose value was changed is a warning (the change shows it was looked at): delete the mark;
* ``carried_from`` with no mark left is a warning: delete it;
* a mark in a record without ``carried_from`` (deleted before the marks) is an error: the copy is still unconfirmed.

Each problem names the file, the line and the field (``components.3.carried_over``).
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ReleaseRecord, Severity


def _versions(record: Optional[ReleaseRecord]) -> dict[str, set[str]]:
    """component id -> every version the record lists for it (release, variants, runtimes)."""
    found: dict[str, set[str]] = {}
    if record is None:
        return found
    lists = [record.components] + [v.components for v in record.variants]
    lists += [r.components for r in record.runtimes] + [r.components for v in record.variants for r in v.runtimes]
    for entries in lists:
        for entry in entries:
            found.setdefault(entry.id, set()).add(entry.version)
    return found


def _field(holder: Any, name: str) -> Any:
    """The field's value to compare, a section without its ``note`` (``lingjun-kb new`` puts notes up for review,
    which is no change of the version)."""
    value = getattr(holder, name, None)
    return value.model_dump(mode="json", exclude={"note"}) if hasattr(value, "model_dump") else value


def _fields(holder: Any, name: str, previous: Any) -> Optional[bool]:
    """True when ``holder``'s field still equals ``previous``'s (unchanged), False when it differs, None when there
    is nothing to compare with (the previous release or its counterpart is not recorded)."""
    if previous is None:
        return None
    return _field(holder, name) == _field(previous, name)


def _shown(value: Any) -> str:
    """The copied value as the problem line quotes it (" 12.8", " complete", " amd64, aarch64"); "" for a section."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " " + ", ".join(getattr(v, "value", v) for v in value) if value else ""
    value = getattr(value, "value", value)  # an enumeration member: its word, not its repr
    return f" {value}" if isinstance(value, str) else ""


@gate_rule("data.carried-over", Severity.error,
           "Every version `lingjun-kb new` copied from the previous release (marked carried_over, with the record's "
           "carried_from) is confirmed (mark deleted) or changed; a copied value left as it was fails validation.",
           order=135)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report each carried-over mark: an error while its value is the copied one (or cannot be compared), a warning
    once it was changed; and a ``carried_from`` with no mark left."""
    refs = corpus.release_refs
    for doc, record in corpus.releases():
        if record.carried_from is None:
            # marks left behind once carried_from was deleted: still copies nobody confirmed
            for loc, what, _ in _marks(record, None):
                yield Issue(doc.path, loc, f"{what} is marked carried_over but the record names no carried_from: "
                                           "check it against this release's page, then delete the mark")
            continue
        source = f"{record.family}:{record.carried_from}"
        found = list(_marks(record, refs.get(source)))
        for loc, what, same in found:
            yield _judged(doc.path, loc, what, source, same)
        if not found:
            yield Issue(doc.path, ("carried_from",), f"no carried-over version is left to confirm; delete "
                                                     f"carried_from: {record.carried_from}", Severity.warning)


def _judged(path: Any, loc: tuple, what: str, source: str, same: Optional[bool]) -> Issue:
    """The problem of one mark: a warning once its value was changed (``same`` False), else an error."""
    if same is False:
        return Issue(path, loc, f"{what} was carried over from {source} and has since been changed; "
                                "delete the carried_over mark", Severity.warning)
    return Issue(path, loc, f"{what} is carried over from {source} by `lingjun-kb new` and not confirmed: "
                            "check it against this release's page, then delete the mark, or change it")


def _named(items: Any, key: str, value: Any) -> Any:
    """The item of ``items`` whose ``key`` is ``value``, or None (also for ``items`` None)."""
    return next((item for item in items if getattr(item, key) == value), None) if items is not None else None


def _holders(record: ReleaseRecord, previous: Optional[ReleaseRecord]) -> Iterator[tuple[tuple, Any, Any]]:
    """``(location prefix, holder, its counterpart in previous or None)`` for the record, each variant, each
    variant's runtimes and the record's runtimes: everything that can carry ``carried_over`` marks."""
    yield (), record, previous
    for index, variant in enumerate(record.variants):
        old = _named(previous.variants if previous else None, "id", variant.id)
        yield ("variants", index), variant, old
        for r_index, runtime in enumerate(variant.runtimes):
            yield ("variants", index, "runtimes", r_index), runtime, _named(old.runtimes if old else None, "name", runtime.name)
    for index, runtime in enumerate(record.runtimes):
        yield ("runtimes", index), runtime, _named(previous.runtimes if previous else None, "name", runtime.name)


def _marks(record: ReleaseRecord, previous: Optional[ReleaseRecord]) -> Iterator[tuple[tuple, str, Optional[bool]]]:
    """``(location, what is marked, still the copied value?)`` of every mark: True unchanged, False changed, None
    not comparable (the previous release is not recorded)."""
    versions = _versions(previous)
    for prefix, holder, old in _holders(record, previous):
        for f_index, name in enumerate(holder.carried_over):
            shown = _shown(getattr(holder, name, None))
            yield (prefix + ("carried_over", f_index), f"{'.'.join(map(str, prefix + (name,)))}{shown}",
                   _fields(holder, name, old))
        for c_index, entry in enumerate(holder.components):
            if entry.carried_over:
                same = None if previous is None else entry.version in versions.get(entry.id, set())
                yield prefix + ("components", c_index, "carried_over"), f"{entry.id} {entry.version}", same
