"""Strict YAML loading of the release data, with a file:line:col for every problem.

Each file under ``releases/`` is read in three steps:

1. **bytes** (:func:`read_text`): files larger than :attr:`LoadLimits.max_bytes`
   (1 MiB by default) are refused; the text must be UTF-8.  A UTF-8 byte-order
   mark is *accepted with a warning* (``file.bom``: some Windows editors add
   it and the content is still read correctly; the warning asks to drop it);
   UTF-16/32 byte-order marks and any other non-UTF-8 byte are errors.
2. **YAML** (:func:`parse_yaml`): libyaml (``yaml.CSafeLoader``) parses and
   composes the node tree, which keeps the start mark (line, column) of every
   mapping key, value and sequence item.  A small builder then turns nodes into
   plain Python values and refuses, with the node's position:

   * duplicate mapping keys (``yaml.duplicate-key``);
   * any tag other than the YAML core ones (``!!str``, ``!!int``, ``!!float``,
     ``!!bool``, ``!!null``, ``!!timestamp``, ``!!map``, ``!!seq``), so
     ``!!python/object`` and custom ``!tags`` never construct anything
     (``yaml.tag``), and merge keys ``<<`` (``yaml.merge-key``);
   * alias bombs ("billion laughs"): a document whose aliases expand to more
     than :attr:`LoadLimits.max_nodes` nodes, or an alias that contains itself
     (``yaml.alias-bomb``); nesting deeper than :attr:`LoadLimits.max_depth`;
   * mapping keys that are not plain strings (``yaml.key``);
   * syntax errors, tabs used for indentation, several documents in one file,
     an empty file, and a top level that is not a mapping.

3. **schema** (:func:`validate_document`): the ``kind`` field picks the
   pydantic model (:data:`lingjun.schema.models.DOCUMENT_MODELS`); every
   pydantic error location such as ``("components", 3, "version")`` is mapped
   back to the node tree to get its line and column.  A value that YAML 1.1
   reads as a non-string (``version: 2.10`` is the float 2.1; ``on``/``no``
   are booleans; ``1_000``, ``0755``, ``.inf``, ``2025-01-01`` likewise) where
   the schema wants a string is reported from the scalar's original text with
   the fix: ``quote it: write "2.10"`` (``yaml.unquoted-string``).

Nothing raises: every failure, including an unexpected exception, becomes a
:class:`~lingjun.schema.problems.Problem` naming the file.

Public entry points: :func:`load_knowledge_base` (a whole ``releases/`` tree),
:func:`load_paths` (explicit files), :func:`discover` and :func:`locate`.
"""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Union

from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.loader._discover import discover, scan
from lingjun.schema.loader._documents import (
    DEFAULT_LIMITS,
    LoadedDocument,
    LoadLimits,
    LoadResult,
    RejectedFile,
    _problem,
)
from lingjun.schema.loader._errors import _guess_kind, validate_document
from lingjun.schema.loader._positions import locate, nested_types
from lingjun.schema.loader._read import read_text
from lingjun.schema.loader._yaml import compose, parse_yaml
from lingjun.schema.models import ReleaseRecord
from lingjun.schema.problems import Problem

__all__ = [
    "LoadLimits",
    "LoadedDocument",
    "LoadResult",
    "RejectedFile",
    "load_knowledge_base",
    "load_paths",
    "discover",
    "scan",
    "assemble",
    "locate",
    "read_text",
    "parse_yaml",
    "compose",
    "validate_document",
    "nested_types",
]


def _load_file(path: Path, limits: LoadLimits) -> tuple[Optional[LoadedDocument], list[Problem], Any]:
    """Load one file: ``(document or None, problems, parsed data or None when the YAML could not be read)``."""
    data = None
    try:
        text, problems = read_text(path, limits)
        if text is None:
            return None, problems, None
        data, root, yaml_problems = parse_yaml(path, text, limits)
        problems += yaml_problems
        if data is None:
            return None, problems, None
        document, schema_problems = validate_document(path, data, root, text)
        return document, problems + schema_problems, data
    except Exception as exc:  # noqa: BLE001 - a bug must not hide the file name
        return None, [_problem(path, None, None, f"internal error while loading this file: {type(exc).__name__}: {exc}",
                               "internal")], data


def _rejected(path: Path, data: Any) -> RejectedFile:
    """What can be told of a file that did not pass: its kind and, for a release, its family."""
    written = data if isinstance(data, dict) else {}
    kind = written.get("kind") if isinstance(written.get("kind"), str) else _guess_kind(path)
    family = None
    if kind == "release":
        family = written.get("family") if isinstance(written.get("family"), str) else path.parent.name
    return RejectedFile(path=path, kind=kind, family=family)


def load_paths(paths: Iterable[Union[str, Path]], limits: LoadLimits = DEFAULT_LIMITS) -> LoadResult:
    """Load explicit files (folders are expanded with :func:`discover`); never raises.

    A file named twice (also through a folder, or as a relative and an
    absolute path) is loaded once, under the first spelling.
    """
    result = LoadResult()
    seen: set[str] = set()
    with _gc_paused():
        _load_into(result, seen, paths, limits)
    return result


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while loading.

    Loading allocates millions of small objects and creates no reference
    cycles; without the pause the collector rescans everything loaded so far
    over and over and the time per release grows with the tree.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load_into(result: LoadResult, seen: set[str], paths: Iterable[Union[str, Path]], limits: LoadLimits) -> None:
    for given in paths:
        given = Path(given)
        found, refused = scan(given)
        for problem in refused:
            if problem not in result.problems:
                result.problems.append(problem)
        if not found and not refused and given.is_dir():
            result.problems.append(_problem(given, None, None, "no release data here: the folder holds no "
                                            "*.yaml or *.yml file", "file.none"))
        for path in found:
            key = os.path.abspath(path)
            if key in seen:
                continue
            seen.add(key)
            result.paths.append(path)
            document, problems, data = _load_file(path, limits)
            result.problems.extend(problems)
            if document is not None:
                result.documents.append(document)
            else:
                result.rejected.append(_rejected(path, data))


def assemble(documents: Iterable[LoadedDocument]) -> KnowledgeBase:
    """Build the :class:`KnowledgeBase` from validated documents.

    Later catalog entries with an id already seen replace earlier ones (the
    gate reports the duplicate); ``kb.paths`` maps release refs, known-issue
    ids and catalog kinds to their files.
    """
    kb = KnowledgeBase()
    for doc in documents:
        model = doc.model
        kind = doc.kind
        if kind == "release":
            assert isinstance(model, ReleaseRecord)
            kb.releases.append(model)
            kb.paths.setdefault(model.ref, doc.path)
        elif kind == "families":
            kb.families.update((f.id, f) for f in model.families)  # type: ignore[attr-defined]
            kb.catalog_sources.extend(model.sources)  # type: ignore[attr-defined]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "components":
            kb.components.update((c.id, c) for c in model.components)  # type: ignore[attr-defined]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "known-issue":
            kb.known_issues.setdefault(model.id, model)  # type: ignore[attr-defined]
            kb.paths.setdefault(model.id, doc.path)  # type: ignore[attr-defined]
        elif kind == "error-signature":
            kb.signatures.setdefault(model.id, model)  # type: ignore[attr-defined]
            kb.paths.setdefault(f"signature:{model.id}", doc.path)  # type: ignore[attr-defined]
        elif kind == "cuda-drivers":
            kb.cuda_drivers = kb.cuda_drivers or model  # type: ignore[assignment]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "driver-branches":
            kb.driver_branches = kb.driver_branches or model  # type: ignore[assignment]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "gpus":
            kb.gpus = kb.gpus or model  # type: ignore[assignment]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "torch-wheels":
            kb.torch_wheels = kb.torch_wheels or model  # type: ignore[assignment]
            kb.paths.setdefault(kind, doc.path)
        elif kind in ("xid-catalog", "cuda-error-catalog", "nccl-warning-catalog", "container-cli-error-catalog"):
            attribute = {"xid-catalog": "xids", "cuda-error-catalog": "cuda_errors",
                         "nccl-warning-catalog": "nccl_warnings", "container-cli-error-catalog": "container_cli"}[kind]
            if getattr(kb, attribute) is None:
                setattr(kb, attribute, model)
            kb.paths.setdefault(kind, doc.path)
    kb.sort()
    return kb


def load_knowledge_base(root: Union[str, Path], limits: LoadLimits = DEFAULT_LIMITS) -> tuple[KnowledgeBase, list[Problem]]:
    """Load every YAML file under ``root`` (the ``releases/`` folder).

    Returns ``(kb, problems)``: the knowledge base built from the documents
    that passed the schema, and the problems of the loader (file, YAML and
    schema problems; the cross-record rules are run by
    :func:`lingjun.schema.gate.run_gate`).  Never raises; a missing ``root``
    is reported as a problem.
    """
    root = Path(root)
    if not root.exists():
        return KnowledgeBase(), [_problem(root, None, None, "no such file or folder", "file.read")]
    result = load_paths([root], limits)
    return assemble(result.documents), result.problems
