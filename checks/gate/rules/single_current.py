"""``data.single-current``: each product family has exactly one `current` release, its newest."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.schema.models import ReleaseStatus, Severity


@gate_rule("data.single-current", Severity.error,
           "Each product family with releases has exactly one release with status `current` "
           "(a warning when it is not the newest).")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Count `current` releases per product family (base families such as ngc-pytorch are skipped)."""
    for family, releases in corpus.by_family.items():
        if corpus.is_base_family(family):
            continue
        current = [(doc, r) for doc, r in releases if r.status is ReleaseStatus.current]
        newest_doc, newest = releases[-1]
        if not current:
            yield Issue(newest_doc.path, ("status",),
                        f"family {family!r} has no `current` release; mark the newest ({newest.version}) current")
            continue
        keep_doc, keep = current[-1]
        for doc, record in current[:-1]:
            if record.ref == keep.ref:
                continue  # the same version twice: data.unique-release reports it
            yield Issue(doc.path, ("status",),
                        f"{record.ref} and {keep.ref} are both `current`; mark the older one `superseded`")
        if keep is not newest and newest.status is ReleaseStatus.superseded:
            yield Issue(keep_doc.path, ("status",),
                        f"{keep.ref} is `current` but {newest.ref} is newer and `superseded`", Severity.warning)
