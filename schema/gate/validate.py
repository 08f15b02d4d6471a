"""``lingjun-kb validate``: load the release data, run the gate, keep the problems the user asked about.

Which problems are reported:

* With no path, or with the releases root itself, everything under the root
  is loaded and every problem is reported.
* With some files or folders inside a releases tree (the nearest folder
  above them holding ``families.yaml``, or ``--root``), the whole tree is
  still loaded so that families, components, known issues, reference tables
  and the neighbouring releases resolve, but only problems located in the
  given files are reported; the problems elsewhere are only counted.
  Exception: when a given file is a catalog or reference document
  (``families``, ``components``, ``cuda-drivers``, ``driver-branches``),
  every problem is reported, because a change there can break any record.
* Paths outside any releases tree are validated on their own.

Only reported errors make the exit status 1.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection, Optional, Sequence

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.loader import DEFAULT_LIMITS, LoadedDocument, LoadLimits, load_paths, scan
from lingjun.schema.problems import Problem, sort_problems

__all__ = ["Validation", "validate", "find_root"]

_CATALOG_KINDS = frozenset({"families", "components", "cuda-drivers", "driver-branches", "gpus", "torch-wheels"})
_ROOT_MARKER = "families.yaml"


@dataclass
class Validation:
    """Result of :func:`validate`.

    Attributes:
        problems: the problems to report, sorted by file and position.
        hidden: problems found in files the user did not name (counted, not reported).
        documents: every document that passed the schema (given files and their context).
        files: number of files the user asked about.
        kb: the knowledge base assembled from ``documents``.
    """

    problems: list[Problem]
    hidden: list[Problem]
    documents: list[LoadedDocument]
    files: int
    kb: KnowledgeBase = field(default_factory=KnowledgeBase)

    @property
    def errors(self) -> int:
        """Number of reported errors."""
        return sum(1 for p in self.problems if p.is_error)

    @property
    def ok(self) -> bool:
        """True when no reported problem is an error."""
        return self.errors == 0


def find_root(path: Path) -> Optional[Path]:
    """The releases root holding ``path``: the nearest folder (``path`` itself included) with ``families.yaml``."""
    start = path if path.is_dir() else path.parent
    for folder in [start, *start.parents]:
        if (folder / _ROOT_MARKER).is_file():
            return folder
    return None


def _key(path: Path) -> str:
    return os.path.abspath(path)


def validate(paths: Sequence[Path], root: Optional[Path] = None, limits: LoadLimits = DEFAULT_LIMITS,
             checker_rules: Optional[Collection[str]] = None) -> Validation:
    """Validate ``paths`` (files or folders) in the context of their releases root.

    Args:
        paths: what the user named; must exist (the CLI checks).
        root: the releases root; found with :func:`find_root` when None.
        limits: loader limits.
        checker_rules: the ids of lingjun-check's rules that usage notes and signatures may name
            (:func:`lingjun.generator.checker_ids.checker_rule_ids`); None: those names are not checked.
    """
    roots = {root} if root is not None else {r for r in (find_root(p) for p in paths) if r is not None}
    whole = not roots or {_key(p) for p in paths} <= {_key(r) for r in roots}
    # load the roots first, then any given file outside them; load_paths skips repeats
    result = load_paths([*sorted(roots), *paths], limits)
    corpus = Corpus.from_documents(result.documents, result.rejected)
    problems = result.problems + run_gate(corpus, checker_rules=checker_rules)
    if whole:
        target_keys = {_key(p) for p in result.paths}
    else:
        target_keys = set()
        for given in paths:
            found, refused = scan(given)
            target_keys.update(_key(p) for p in found)
            target_keys.update(_key(Path(p.path)) for p in refused)  # links and special files named there
            if not found:
                target_keys.add(_key(given))  # an empty folder's own problem
    given_kinds = {d.kind for d in result.documents if _key(d.path) in target_keys}
    if whole or given_kinds & _CATALOG_KINDS:
        shown, hidden = problems, []
    else:
        shown = [p for p in problems if _key(Path(p.path)) in target_keys or p.path == "<gate>"]
        hidden = [p for p in problems if p not in shown]
    return Validation(
        problems=sort_problems(shown),
        hidden=sort_problems(hidden),
        documents=result.documents,
        files=len(target_keys),
        kb=corpus.kb,
    )

