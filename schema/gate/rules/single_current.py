"""``data.single-current``: a product family has at most one `current` release, and it is its newest.

A family may have no `current` record: the newest release we hold can be
`superseded` by a release the official pages link to but whose facts we do
not have (training-xpu-pytorch 25.05 links a later 25.06).  That is reported
as info, never invented away.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ReleaseStatus, Severity


@gate_rule("data.single-current", Severity.error,
           "A product family has at most one `current` release and it is the newest "
           "(info when none is current, warning when an older one is).", order=170)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Count `current` releases per product family (base families such as ngc-pytorch are skipped)."""
    for family, releases in corpus.ordered_families.items():  # data.family-incomplete and data.release-order name the rest
        if corpus.is_base_family(family):
            continue
        current = [(doc, r) for doc, r in releases if r.status is ReleaseStatus.current]
        newest_doc, newest = releases[-1]
        if not current:
            yield Issue(newest_doc.path, ("status",),
                        f"family {family!r} has no `current` release: its newest record {newest.version} is "
                        f"{newest.status.value} (a later release exists that the knowledge base does not hold yet)",
                        Severity.info)
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
