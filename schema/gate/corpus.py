"""What the gate's rules look at: every validated document and the knowledge base built from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Iterator

from packaging.version import Version

from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.loader import LoadedDocument, RejectedFile, assemble
from lingjun.schema.models import FamilyRole, KnownIssue, ReleaseRecord

__all__ = ["Corpus"]


@dataclass
class Corpus:
    """The documents that passed the schema, and the :class:`KnowledgeBase` assembled from them.

    Rules read records through the documents (to know each one's file) and
    use :attr:`kb` for lookups.  Built with :meth:`from_documents`.
    """

    documents: list[LoadedDocument]
    kb: KnowledgeBase = field(default_factory=KnowledgeBase)
    #: files that failed to load (:attr:`lingjun.schema.loader.LoadResult.rejected`)
    rejected: list[RejectedFile] = field(default_factory=list)

    @classmethod
    def from_documents(cls, documents: list[LoadedDocument], rejected: Iterable[RejectedFile] = ()) -> "Corpus":
        """A corpus over ``documents`` (in the order given); ``rejected``: the files that did not load."""
        return cls(documents=list(documents), kb=assemble(documents), rejected=list(rejected))

    def of_kind(self, kind: str) -> list[LoadedDocument]:
        """Documents whose ``kind`` is ``kind``, in load order."""
        return [d for d in self.documents if d.kind == kind]

    def releases(self) -> Iterator[tuple[LoadedDocument, ReleaseRecord]]:
        """``(document, record)`` for every release record, in load order."""
        for doc in self.documents:
            if doc.kind == "release":
                yield doc, doc.model  # type: ignore[misc]

    def known_issues(self) -> Iterator[tuple[LoadedDocument, KnownIssue]]:
        """``(document, issue)`` for every known issue, in load order."""
        for doc in self.documents:
            if doc.kind == "known-issue":
                yield doc, doc.model  # type: ignore[misc]

    @cached_property
    def release_refs(self) -> dict[str, ReleaseRecord]:
        """``family:YY.MM`` -> record (the first one when a version is given twice)."""
        refs: dict[str, ReleaseRecord] = {}
        for _, record in self.releases():
            refs.setdefault(record.ref, record)
        return refs

    @cached_property
    def by_family(self) -> dict[str, list[tuple[LoadedDocument, ReleaseRecord]]]:
        """family id -> its ``(document, record)`` pairs, oldest version first."""
        families: dict[str, list[tuple[LoadedDocument, ReleaseRecord]]] = {}
        for doc, record in self.releases():
            families.setdefault(record.family, []).append((doc, record))
        for pairs in families.values():
            pairs.sort(key=lambda pair: Version(pair[1].version))
        return families

    @cached_property
    def incomplete_families(self) -> dict[str, list[Path]]:
        """family id -> its release files that did not load, for families with at least one such file.

        Rules that draw conclusions from the whole set of a family's records
        (which one is current, what the previous release was) skip these
        families: the record that failed may be the very one that matters.
        """
        incomplete: dict[str, list[Path]] = {}
        for rejected in self.rejected:
            if rejected.kind == "release" and rejected.family:
                incomplete.setdefault(rejected.family, []).append(rejected.path)
        return incomplete

    @cached_property
    def complete_families(self) -> dict[str, list[tuple[LoadedDocument, ReleaseRecord]]]:
        """:attr:`by_family` without the families listed in :attr:`incomplete_families`."""
        return {f: pairs for f, pairs in self.by_family.items() if f not in self.incomplete_families}

    def is_base_family(self, family_id: str) -> bool:
        """True when the catalog lists ``family_id`` with role ``base``."""
        family = self.kb.families.get(family_id)
        return family is not None and family.role is FamilyRole.base
