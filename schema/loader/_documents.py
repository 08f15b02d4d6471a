"""The loader's result types (limits, loaded and rejected documents) and the problem helper."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from yaml.nodes import Node

from lingjun.schema.models import StrictModel
from lingjun.schema.problems import LocPart, Problem, Severity


@dataclass(frozen=True)
class LoadLimits:
    """Limits applied to every file.

    Attributes:
        max_bytes: largest file accepted, in bytes (default 1 MiB).
        max_nodes: most YAML nodes a document may expand to once aliases are
            followed (default 200,000; a real release record has about 2,000).
        max_depth: deepest nesting of mappings and sequences (default 64;
            release records use 6).
    """

    max_bytes: int = 1024 * 1024
    max_nodes: int = 200_000
    max_depth: int = 64


DEFAULT_LIMITS = LoadLimits()


@dataclass
class LoadedDocument:
    """One file that passed the schema.

    Attributes:
        path: the file.
        kind: the document's ``kind`` (``release``, ``families``, ...).
        model: the validated pydantic model (``ReleaseRecord``, ``FamilyCatalog``, ...).
        source: the text the model was built from, UTF-8 encoded (half the memory of
            a str holding Chinese text), kept so that
            positions are found without reading the file again.  Its YAML
            node tree is composed from it on the first :meth:`locate` and
            kept from then on: keeping every document's tree from the start
            cost four times the memory and a third more time on 1,000
            releases (the collector walks the trees), while only documents
            with a problem ever need one.
    """

    path: Path
    kind: str
    model: StrictModel
    source: Optional[bytes] = field(default=None, repr=False, compare=False)
    _tree: Optional[Node] = field(default=None, init=False, repr=False, compare=False)

    def tree(self) -> Optional[Node]:
        """The document's YAML node tree (composed once from :attr:`source`); None without a source."""
        if self._tree is None and self.source is not None:
            from lingjun.schema.loader._yaml import compose  # deferred: _yaml imports this module

            self._tree = compose(self.source.decode("utf-8"))
        return self._tree

    def locate(self, loc: Sequence[LocPart]) -> tuple[Optional[int], Optional[int], str]:
        """``(line, col, field path)`` of ``loc`` in this file; see :func:`~lingjun.schema.loader.locate`."""
        from lingjun.schema.loader._positions import locate, locate_in  # deferred: _positions imports this module

        tree = self.tree()
        if tree is None:
            return locate(self.path, loc)
        return locate_in(tree, loc)


@dataclass(frozen=True)
class RejectedFile:
    """A file that did not pass (it is absent from :attr:`LoadResult.documents`).

    Attributes:
        path: the file.
        kind: its ``kind`` as written, or as guessed from the path when the
            YAML could not be read (``release`` for ``<family>/<release>.yaml``); None when unknown.
        family: for a release record, its ``family`` as written, else the name of
            its folder; None for other kinds.
    """

    path: Path
    kind: Optional[str]
    family: Optional[str]


@dataclass
class LoadResult:
    """What :func:`load_paths` returns.

    Attributes:
        documents: the documents that passed the schema, in path order.
        problems: every problem found (errors make the document absent from ``documents``).
        paths: every file that was read, in order.
        rejected: the files with errors, in path order (so that cross-record
            checks know which families are incomplete).
    """

    documents: list[LoadedDocument] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)
    rejected: list[RejectedFile] = field(default_factory=list)


def _problem(path: Path, line: Optional[int], col: Optional[int], message: str, rule: str,
             severity: Severity = Severity.error, field: str = "") -> Problem:
    return Problem(str(path), line, col, field, message, severity, rule)


def _mark_pos(node_or_mark: Any) -> tuple[int, int]:
    mark = getattr(node_or_mark, "start_mark", node_or_mark)
    return mark.line + 1, mark.column + 1

