"""``data.single-current``: a product family has at most one `current` release, and it is its newest.

A family may have no `current` record: the newest release we hold can be
`superseded` by a release the official pages link to but whose facts we do
not have (training-xpu-pytorch 25.05 links a later 25.06).  That is reported
as info, never invented away, naming the later releases the family's ``unrecorded_releases`` list.
A `current` record older than a release the pages name (an ``unrecorded_releases`` entry placed
after it by date) is a warning: the pages show it is no longer the newest.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.release_order import release_order_key
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ReleaseStatus, Severity


@gate_rule("data.single-current", Severity.error,
           "A product family has at most one `current` release and it is the newest "
           "(info when none is current, warning when an older one is).", order=170, needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Count `current` releases per product family (base families such as ngc-pytorch are skipped)."""
    for family, releases in corpus.ordered_families.items():  # data.family-incomplete and data.release-order name the rest
        if corpus.is_base_family(family):
            continue
        current = [(doc, r) for doc, r in releases if r.status is ReleaseStatus.current]
        newest_doc, newest = releases[-1]
        entry = corpus.kb.families.get(family)
        later = [u.version for u in (entry.unrecorded_releases if entry else [])
                 if newest.order_key is not None
                 and (release_order_key(u.version, u.release_date) or (0, 0, 0)) > newest.order_key]
        if not current:
            named = (f"the pages name {', '.join(f'{family}:{v}' for v in later)} (unrecorded_releases)" if later
                     else "a later release exists that the knowledge base does not hold yet")
            yield Issue(newest_doc.path, ("status",),
                        f"family {family!r} has no `current` release: its newest record {newest.version} is "
                        f"{newest.status.value} ({named})", Severity.info)
            continue
        if later and current[-1][1] is newest:
            yield Issue(newest_doc.path, ("status",),
                        f"{newest.ref} is `current` but the pages name the later "
                        f"{', '.join(f'{family}:{v}' for v in later)} (unrecorded_releases); mark it `superseded`",
                        Severity.warning)
        keep_doc, keep = current[-1]
        for doc, record in current[:-1]:
            if record.ref == keep.ref:
                continue  # the same version twice: data.unique-release reports it
            yield Issue(doc.path, ("status",),
                        f"{record.ref} and {keep.ref} are both `current`; mark the older one `superseded`")
        if keep is not newest and newest.status is ReleaseStatus.superseded:
            yield Issue(keep_doc.path, ("status",),
                        f"{keep.ref} is `current` but {newest.ref} is newer and `superseded`", Severity.warning)
