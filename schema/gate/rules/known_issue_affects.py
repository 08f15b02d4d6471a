"""``data.known-issue-affects``: a known issue's releases and families exist, and it is fixed after it appears.

"After" is the family's date order (:attr:`~lingjun.schema.models.ReleaseRecord.order_key`: ``25.10``
before ``2026-10-20``); a release that no date places is not compared (``data.release-order`` reports it).
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.core.release_order import release_order_key
from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import IssueStatus, Severity


@gate_rule("data.known-issue-affects", Severity.error,
           "affects.releases, affects.families and fixed_in of a known issue resolve, and each fixed_in release "
           "comes after every affected release of its family (and every release listing the issue).", order=150, needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Check the references of every known issue and the order of affected and fixed releases."""
    for doc, issue in corpus.known_issues():
        yield from _references(corpus, doc, issue)
        for index, ref in enumerate(issue.fixed_in):
            if ref not in corpus.release_refs:
                yield Issue(doc.path, ("fixed_in", index), f"release {ref} is not recorded")
            else:
                yield from _fixed_after_affected(corpus, doc, issue, index, ref)
        if issue.status is IssueStatus.fixed and not issue.fixed_in:
            yield Issue(doc.path, ("status",), "status is `fixed` but fixed_in names no release", Severity.warning)
    for doc, record in corpus.releases():
        yield from _listed_after_fix(corpus, doc, record)


def _references(corpus: Corpus, doc, issue) -> Iterator[Issue]:
    """An error per family of ``affects.families`` not in the catalog and per release of ``affects.releases`` not
    recorded."""
    refs = corpus.release_refs
    for index, family in enumerate(issue.affects.families):
        if family not in corpus.kb.families:
            yield Issue(doc.path, ("affects", "families", index), f"family {family!r} is not in the family catalog")
    for index, ref in enumerate(issue.affects.releases):
        if ref not in refs:
            yield Issue(doc.path, ("affects", "releases", index), f"release {ref} is not recorded")


def _fixed_after_affected(corpus: Corpus, doc, issue, index: int, ref: str) -> Iterator[Issue]:
    """An error when ``fixed_in[index]`` (``ref``, recorded) is not after every affected release of its family."""
    refs = corpus.release_refs
    fixed_key = refs[ref].order_key
    for affected in issue.affects.releases:
        a_family, _, a_version = affected.partition(":")
        if a_family != refs[ref].family:
            continue
        affected_record = refs.get(affected)  # an unrecorded one is placed by its identifier alone
        affected_key = affected_record.order_key if affected_record else release_order_key(a_version)
        if fixed_key is not None and affected_key is not None and affected_key >= fixed_key:
            yield Issue(doc.path, ("fixed_in", index),
                        f"fixed in {ref}, but {affected} is listed as affected; a fix comes after every "
                        "affected release of the family")


def _listed_after_fix(corpus: Corpus, doc, record) -> Iterator[Issue]:
    """A release that lists an issue claims to be affected by it: an error when the issue is fixed in a release of
    its family at or before it."""
    for index, issue_id in enumerate(record.known_issues):
        issue = corpus.kb.known_issues.get(issue_id)
        if issue is None:
            continue  # data.known-issue-refs reports it
        for ref in issue.fixed_in:
            fixed = corpus.release_refs.get(ref)
            if fixed is None or fixed.family != record.family:
                continue  # an unrecorded fixed_in is reported above
            if fixed.order_key is not None and record.order_key is not None and fixed.order_key <= record.order_key:
                yield Issue(doc.path, ("known_issues", index),
                            f"known issue {issue_id!r} is fixed in {ref}, so {record.ref} cannot be affected by it")
