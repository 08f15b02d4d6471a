"""``data.release-order``: every release of a family can be placed by date.

Releases are ordered by date, never by their identifiers as text
(:func:`lingjun.checks.core.release_order.release_order_key`): ``YY.MM`` names a month,
``YYYY-MM-DD`` a day, and any other identifier (``sglang0.5.4.post3-250105``, the page's own name)
only the record's ``released`` date.  In a family of more than one release (recorded, or named in
``unrecorded_releases``) a release that cannot be placed leaves "previous", "newest" and every diff
undefined, so it is an error; two releases on the same day (or month) are a warning, since their
order is then the identifiers' and not the pages'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional, Union

from lingjun.checks.core.release_order import release_order_key
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

Loc = tuple[Union[str, int], ...]


def _key_text(key: tuple[int, int, int]) -> str:
    year, month, day = key
    return f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day else "")


@gate_rule("data.release-order", Severity.error,
           "In a family of more than one release (recorded or unrecorded), every release can be placed by date: a "
           "named identifier needs a released date; two releases on the same date are a warning.", order=15)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report releases without an order key in families of several releases, and releases sharing a key."""
    # family -> [(version, key, path, loc, what)] for recorded and unrecorded releases
    members: dict[str, list[tuple[str, Optional[tuple[int, int, int]], Path, Loc, str]]] = {}
    for doc, record in corpus.releases():
        members.setdefault(record.family, []).append((record.version, record.order_key, doc.path, ("version",), "release"))
    for doc in corpus.of_kind("families"):
        for f_index, family in enumerate(doc.model.families):  # type: ignore[attr-defined]
            for u_index, entry in enumerate(family.unrecorded_releases):
                key = release_order_key(entry.version, entry.release_date)
                members.setdefault(family.id, []).append(
                    (entry.version, key, doc.path, ("families", f_index, "unrecorded_releases", u_index, "version"),
                     "unrecorded release"))
    for family, releases in members.items():
        if len({version for version, *_ in releases}) < 2:
            continue
        seen: dict[tuple[int, int, int], str] = {}
        placed: set[str] = set()
        for version, key, path, loc, what in releases:
            if key is None:
                fix = "released: {date, kind, source}" if what == "release" else "release_date"
                yield Issue(path, loc,
                            f"{what} {family}:{version} cannot be placed among the family's other releases: its "
                            f"identifier names no date; add {fix} (the date the evidence gives)")
                continue
            if version in placed:
                continue  # the same release twice: data.unique-release / data.unrecorded-release report it
            placed.add(version)
            if key in seen and seen[key] != version:
                fix = "released date" if what == "release" else "release_date"
                yield Issue(path, loc,
                            f"{what} {family}:{version} falls on {_key_text(key)} like {family}:{seen[key]}; their "
                            f"order is then only that of their identifiers: give the {fix} that tells them apart",
                            Severity.warning)
            seen.setdefault(key, version)
