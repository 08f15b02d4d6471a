"""What the gate's rules look at: every validated document and the knowledge base built from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterator, Optional

from packaging.version import Version

from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.loader import LoadedDocument, assemble
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

    @classmethod
    def from_documents(cls, documents: list[LoadedDocument]) -> "Corpus":
        """A corpus over ``documents`` (in the order given)."""
        return cls(documents=list(documents), kb=assemble(documents))

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

    def is_base_family(self, family_id: str) -> bool:
        """True when the catalog lists ``family_id`` with role ``base``."""
        family = self.kb.families.get(family_id)
        return family is not None and family.role is FamilyRole.base

    def path_of(self, kind: str) -> Optional[Path]:
        """File of the first document of ``kind`` (``families``, ``components``, ...), or None."""
        return next((d.path for d in self.documents if d.kind == kind), None)
