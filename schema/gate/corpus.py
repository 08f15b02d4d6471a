"""What the gate's rules look at: every validated document and the knowledge base built from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from lingjun.schema.kb import KnowledgeBase, release_sort_key
from lingjun.schema.loader import LoadedDocument, RejectedFile, assemble
from lingjun.schema.models import ComponentEntry, ErrorSignature, FamilyRole, KnownIssue, ListState, ReleaseRecord, Runtime
from lingjun.schema.release_images import ReleaseImage, release_images

__all__ = ["Corpus", "LocatedImage", "ComponentList", "matching_image"]

Loc = tuple[Union[str, int], ...]


@dataclass(frozen=True)
class LocatedImage:
    """One image of a release (:func:`~lingjun.schema.release_images.release_images`) and where it is written.

    Attributes:
        doc: the release's document.
        image: the image (a variant, or the release itself).
        loc: where the image's fields are written: ``()`` for a release without variants,
            ``("variants", 1)`` for its second variant.  Rules prefix their field paths with it
            (``variants.1.components.3.id``) so the reported line and column are the variant's.
    """

    doc: LoadedDocument
    image: ReleaseImage
    loc: Loc

    @property
    def record(self) -> ReleaseRecord:
        """The release the image belongs to."""
        return self.image.record

    @property
    def label(self) -> str:
        """``family:release`` or ``family:release#variant``, as messages name the image."""
        return self.image.ref


@dataclass(frozen=True)
class ComponentList:
    """One component list of a release: an image's own list, or one of its runtimes' lists.

    Attributes:
        located: the image the list belongs to.
        runtime: the runtime whose list this is, or None for the image's own list.
        runtime_index: position of ``runtime`` in the image's ``runtimes``.
    """

    located: LocatedImage
    runtime: Optional[Runtime] = None
    runtime_index: int = -1

    @property
    def doc(self) -> LoadedDocument:
        """The release's document."""
        return self.located.doc

    @property
    def record(self) -> ReleaseRecord:
        """The release."""
        return self.located.record

    @property
    def loc(self) -> Loc:
        """Where ``components`` and ``component_list`` of this list are written (``("variants", 0, "runtimes", 2)``)."""
        if self.runtime is None:
            return self.located.loc
        return self.located.loc + ("runtimes", self.runtime_index)

    @property
    def label(self) -> str:
        """The image's ref, plus ``runtime <id>`` for a runtime's list."""
        return self.located.label + (f" runtime {self.runtime.id}" if self.runtime is not None else "")

    @property
    def components(self) -> list[ComponentEntry]:
        """The list's entries."""
        return list(self.runtime.components) if self.runtime is not None else self.located.image.components

    @property
    def state(self) -> ListState:
        """How complete the list is (inferred when the data leaves it out)."""
        if self.runtime is not None:
            return self.runtime.component_list or ListState.not_published
        return self.located.image.component_list

    @property
    def state_stated(self) -> bool:
        """True when the data states ``component_list`` for this list (False: the model inferred it)."""
        if self.runtime is not None:
            return "component_list" in self.runtime.model_fields_set
        variant = self.located.image.variant
        if variant is not None:
            return "component_list" in variant.model_fields_set
        return self.record.component_list_stated


def matching_image(record: ReleaseRecord, variant_id: Optional[str]) -> Optional[ReleaseImage]:
    """The image of ``record`` to compare with an image whose variant id is ``variant_id``: the variant of the
    same id, or the release's only image when both have no variants; None when ``record`` has no such image."""
    for image in release_images(record):
        if image.variant_id == variant_id:
            return image
    return None


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
    #: the ids of lingjun-check's rules, which usage notes and error signatures name; given by the caller
    #: (:func:`lingjun.schema.gate.runner.run_gate`'s ``checker_rules``), so the gate never imports the checker's
    #: rules; None: not given, and the rules that check those names do not run (``needs=("checker_rules",)``)
    checker_rules: Optional[frozenset[str]] = None

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

    def images(self) -> Iterator[LocatedImage]:
        """Every image of every release (one per variant, or the release itself), in load order."""
        for doc, record in self.releases():
            for index, image in enumerate(release_images(record)):
                yield LocatedImage(doc, image, ("variants", index) if image.variant is not None else ())

    def component_lists(self) -> Iterator[ComponentList]:
        """Every component list: each image's own list, then each of its runtimes' lists, in load order."""
        for located in self.images():
            yield ComponentList(located)
            for index, runtime in enumerate(located.image.runtimes):
                yield ComponentList(located, runtime, index)

    def known_issues(self) -> Iterator[tuple[LoadedDocument, KnownIssue]]:
        """``(document, issue)`` for every known issue, in load order."""
        for doc in self.documents:
            if doc.kind == "known-issue":
                yield doc, doc.model  # type: ignore[misc]

    def signatures(self) -> Iterator[tuple[LoadedDocument, ErrorSignature]]:
        """``(document, signature)`` for every error signature (``releases/troubleshooting/``), in load order."""
        for doc in self.documents:
            if doc.kind == "error-signature":
                yield doc, doc.model  # type: ignore[misc]

    @cached_property
    def release_refs(self) -> dict[str, ReleaseRecord]:
        """``family:release`` -> record (the first one when a version is given twice)."""
        refs: dict[str, ReleaseRecord] = {}
        for _, record in self.releases():
            refs.setdefault(record.ref, record)
        return refs

    @cached_property
    def by_family(self) -> dict[str, list[tuple[LoadedDocument, ReleaseRecord]]]:
        """family id -> its ``(document, record)`` pairs, oldest first by date (:func:`~lingjun.schema.kb.release_sort_key`;
        a release that no date places comes last, and ``data.release-order`` reports it)."""
        families: dict[str, list[tuple[LoadedDocument, ReleaseRecord]]] = {}
        for doc, record in self.releases():
            families.setdefault(record.family, []).append((doc, record))
        for pairs in families.values():
            pairs.sort(key=lambda pair: release_sort_key(pair[1]))
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
    def unloaded_catalogs(self) -> dict[str, list[Path]]:
        """kind -> its files that failed the schema, for the catalog kinds rules read whole (``components``,
        ``families``, the reference tables; not ``release`` or ``known-issue``, whose files stand alone).

        A rule that reads such a catalog (:attr:`~lingjun.schema.gate.rules.GateRule.needs`) does not run
        while one of its files is rejected: every reference to the catalog would read as missing.
        """
        unloaded: dict[str, list[Path]] = {}
        for rejected in self.rejected:
            if rejected.kind is not None and rejected.kind not in ("release", "known-issue"):
                unloaded.setdefault(rejected.kind, []).append(rejected.path)
        return unloaded

    @property
    def unloaded_catalog_kinds(self) -> set[str]:
        """The kinds of :attr:`unloaded_catalogs`."""
        return set(self.unloaded_catalogs)

    @cached_property
    def rejected_known_issues(self) -> set[str]:
        """Ids (file names without ``.yaml``) of the known-issue files that failed the schema: references to
        them are not reported as missing (the file's own errors are)."""
        return {r.path.stem for r in self.rejected if r.kind == "known-issue"}

    @cached_property
    def complete_families(self) -> dict[str, list[tuple[LoadedDocument, ReleaseRecord]]]:
        """:attr:`by_family` without the families listed in :attr:`incomplete_families`."""
        return {f: pairs for f, pairs in self.by_family.items() if f not in self.incomplete_families}

    @cached_property
    def ordered_families(self) -> dict[str, list[tuple[LoadedDocument, ReleaseRecord]]]:
        """:attr:`complete_families` without the families where a release cannot be placed by date.

        A family of several releases one of which has no order key (a named identifier without
        ``release_date``) has no known order: the rules that compare a release with the one before
        it, or find the newest, skip it (``data.release-order`` reports the record).
        """
        return {f: pairs for f, pairs in self.complete_families.items()
                if len(pairs) < 2 or all(record.order_key is not None for _, record in pairs)}

    def is_base_family(self, family_id: str) -> bool:
        """True when the catalog lists ``family_id`` with role ``base``."""
        family = self.kb.families.get(family_id)
        return family is not None and family.role is FamilyRole.base
