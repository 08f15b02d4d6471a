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
import difflib
import gc
import functools
import os
import re
import stat
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Sequence, Union

import pydantic
import yaml
from pydantic import BaseModel
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import DOCUMENT_MODELS, ReleaseRecord, StrictModel
from lingjun.schema.problems import LocPart, Problem, Severity, field_path

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
    "validate_document",
    "nested_types",
]

_TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP = (_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp"))
MAP, SEQ, MERGE = _TAG + "map", _TAG + "seq", _TAG + "merge"

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """libyaml's safe loader with a faster tag resolver.

    libyaml calls :meth:`resolve` back in Python for every node; PyYAML's
    generic version also walks path resolvers and builds lists on each call.
    This one does the same YAML 1.1 implicit resolution (the table of
    :class:`yaml.resolver.Resolver`, keyed by first character) with less work.
    """

    # the ``!!value`` resolver (a plain ``=``) is left out: ``=`` is text here
    _IMPLICIT = {
        first: tuple((tag, regexp) for tag, regexp in resolvers if tag != _TAG + "value")
        for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()
        if first is not None
    }

    #: plain scalar text -> resolved tag; keys and common values repeat across files
    _CACHE: dict[str, str] = {}
    _CACHE_LIMIT = 100_000

    def resolve(self, kind, value, implicit):  # noqa: D102 - see the class docstring
        if kind is ScalarNode:
            if not implicit[0]:
                return STR
            tag = self._CACHE.get(value)
            if tag is None:
                tag = STR
                for candidate, regexp in self._IMPLICIT.get(value[:1], ()):
                    if regexp.match(value):
                        tag = candidate
                        break
                if len(self._CACHE) < self._CACHE_LIMIT:
                    self._CACHE[value] = tag
            return tag
        return SEQ if kind is SequenceNode else MAP


#: integers are refused from this magnitude on (no field needs more; keeps int conversion cheap)
_INT_LIMIT = 2 ** 63

_UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}

#: how a scalar of each implicit type is described in "quote it" messages
_TYPE_WORDS = {
    INT: "an integer",
    FLOAT: "a number",
    BOOL: "a boolean",
    NULL: "null (no value)",
    TIMESTAMP: "a date",
}


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
    """

    path: Path
    kind: str
    model: StrictModel

    def locate(self, loc: Sequence[LocPart]) -> tuple[Optional[int], Optional[int], str]:
        """``(line, col, field path)`` of ``loc`` in this file; see :func:`locate`."""
        return locate(self.path, loc)


@dataclass(frozen=True)
class RejectedFile:
    """A file that did not pass (it is absent from :attr:`LoadResult.documents`).

    Attributes:
        path: the file.
        kind: its ``kind`` as written, or as guessed from the path when the
            YAML could not be read (``release`` for ``<family>/<YY.MM>.yaml``); None when unknown.
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


class _Abort(Exception):
    """Stops building one document; carries the problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def _problem(path: Path, line: Optional[int], col: Optional[int], message: str, rule: str,
             severity: Severity = Severity.error, field: str = "") -> Problem:
    return Problem(str(path), line, col, field, message, severity, rule)


def _mark_pos(node_or_mark: Any) -> tuple[int, int]:
    mark = getattr(node_or_mark, "start_mark", node_or_mark)
    return mark.line + 1, mark.column + 1


# --------------------------------------------------------------------------
# step 1: bytes
# --------------------------------------------------------------------------


def _file_type(mode: int) -> str:
    """What a non-regular file is, in words (``a FIFO``, ``a folder``)."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return words
    return "not a plain file"


def _nul_encoding(raw: bytes) -> Optional[str]:
    """``"UTF-16"``/``"UTF-32"`` when NUL bytes make ``raw`` look like one without a BOM, else None.

    ASCII text in UTF-16 has a NUL in every other byte (every 4-byte group
    holds three in UTF-32); a stray NUL in UTF-8 text is left to the YAML
    reader, which reports it as a control character.
    """
    sample = raw[:4096]
    if len(sample) < 4:
        return None
    if sample[2::4].count(0) + sample[1::4].count(0) > len(sample) // 3 or \
            sample[1::4].count(0) + sample[0::4].count(0) > len(sample) // 3:
        return "UTF-32"
    if sample[1::2].count(0) > len(sample) // 4 or sample[0::2].count(0) > len(sample) // 4:
        return "UTF-16"
    return None


def read_text(path: Path, limits: LoadLimits = DEFAULT_LIMITS) -> tuple[Optional[str], list[Problem]]:
    """Read ``path`` as UTF-8 text.

    Returns ``(text, problems)``; ``text`` is None when the file cannot be
    used (too large, unreadable, not UTF-8).  A UTF-8 BOM is removed and
    reported as a warning (``file.bom``).
    """
    problems: list[Problem] = []
    try:
        # O_NONBLOCK: opening a FIFO named *.yaml must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                return None, [_problem(path, None, None, f"not a regular file ({_file_type(info.st_mode)}); "
                                       "a release data file must be a plain file", "file.read")]
            if info.st_size > limits.max_bytes:
                return None, [_problem(path, None, None, f"file is {info.st_size:,} bytes, over the limit of "
                                       f"{limits.max_bytes:,} bytes", "file.size")]
            raw = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        return None, [_problem(path, None, None, f"cannot read file: {exc.strerror or exc}", "file.read")]
    if len(raw) > limits.max_bytes:
        return None, [_problem(path, None, None, f"file is over the limit of {limits.max_bytes:,} bytes", "file.size")]
    if b"\x00" in raw and not raw.startswith((_UTF8_BOM, *_OTHER_BOMS)):
        encoding = _nul_encoding(raw)
        if encoding:
            return None, [_problem(path, 1, 1, f"file looks {encoding}-encoded (NUL bytes, no byte-order mark); "
                                   "save it as UTF-8", "file.encoding")]
    if raw.startswith(_UTF8_BOM):
        raw = raw[len(_UTF8_BOM):]
        problems.append(_problem(path, 1, 1, "file starts with a UTF-8 byte-order mark; save it as UTF-8 without BOM",
                                 "file.bom", Severity.warning))
    else:
        for bom, name in _OTHER_BOMS.items():
            if raw.startswith(bom):
                return None, [_problem(path, 1, 1, f"file is {name}-encoded; save it as UTF-8", "file.encoding")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        line = raw.count(b"\n", 0, exc.start) + 1
        col = len(raw[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        return None, [_problem(path, line, col,
                               f"byte 0x{raw[exc.start]:02x} is not UTF-8; save the file as UTF-8", "file.encoding")]
    return text, problems


# --------------------------------------------------------------------------
# step 2: YAML
# --------------------------------------------------------------------------

_CONSTRUCTOR = SafeConstructor()
_SCALAR_CONSTRUCTORS = {
    INT: _CONSTRUCTOR.construct_yaml_int,
    FLOAT: _CONSTRUCTOR.construct_yaml_float,
    BOOL: _CONSTRUCTOR.construct_yaml_bool,
    TIMESTAMP: _CONSTRUCTOR.construct_yaml_timestamp,
}


def compose(text: str) -> Optional[Node]:
    """The libyaml node tree of ``text`` (None for an empty stream).

    Raises:
        yaml.YAMLError: on a syntax error or several documents.
    """
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


class _Builder:
    """Turns a node tree into dicts, lists and scalars, enforcing the safety rules.

    Duplicate keys, bad keys and tags are collected (building continues);
    an alias bomb or too deep nesting aborts the document.
    """

    __slots__ = ("path", "limits", "flagged", "nodes", "memo", "active")

    def __init__(self, path: Path, limits: LoadLimits):
        self.path = path
        self.limits = limits
        self.flagged: list[tuple[Node, str, str]] = []
        self.nodes = 0
        self.memo: dict[int, tuple[Any, int]] = {}
        self.active: set[int] = set()

    def error(self, node: Node, message: str, rule: str) -> None:
        self.flagged.append((node, message, rule))

    def problems_with_fields(self, root: Node) -> list[Problem]:
        """The collected problems, each with the field path of its node (one walk, only when there are problems)."""
        if not self.flagged:
            return []
        paths = _node_paths(root)
        problems = []
        for node, message, rule in self.flagged:
            line, col = _mark_pos(node)
            problems.append(_problem(self.path, line, col, message, rule, field=field_path(paths.get(id(node), ()))))
        return problems

    def build(self, node: Node, depth: int = 0) -> Any:
        """The Python value of ``node``."""
        cls = node.__class__
        if cls is ScalarNode:
            self.nodes += 1
            tag = node.tag
            if tag == STR:
                return node.value
            if tag == NULL:
                return None
            construct = _SCALAR_CONSTRUCTORS.get(tag)
            if construct is not None:
                try:
                    value = construct(node)
                    if tag == INT and not -_INT_LIMIT < value < _INT_LIMIT:
                        self.error(node, f"{node.value} is too large for a number here (the limit is 2**63)",
                                   "yaml.scalar")
                        return None
                    return value
                except (ValueError, yaml.YAMLError):
                    what = "a valid date (YYYY-MM-DD)" if tag == TIMESTAMP else _TYPE_WORDS[tag]
                    self.error(node, f"{node.value!r} is not {what}", "yaml.scalar")
                    return None
            self._bad_tag(node)
            return None
        key = id(node)
        seen = self.memo.get(key)
        if seen is not None:  # an alias of a collection already built
            self.nodes += seen[1]
            self._check_size(node)
            return seen[0]
        if key in self.active:
            line, col = _mark_pos(node)
            raise _Abort(_problem(self.path, line, col, "an alias refers to a collection that contains it", "yaml.alias-bomb"))
        if depth >= self.limits.max_depth:
            line, col = _mark_pos(node)
            raise _Abort(_problem(self.path, line, col,
                                  f"nesting is deeper than {self.limits.max_depth} levels", "yaml.depth"))
        start = self.nodes
        self.active.add(key)
        if cls is MappingNode:
            if node.tag != MAP:
                self._bad_tag(node)
            value = self._mapping(node, depth + 1)
        elif cls is SequenceNode:
            if node.tag != SEQ:
                self._bad_tag(node)
            value = [self.build(item, depth + 1) for item in node.value]
        else:  # pragma: no cover - libyaml composes only the three node classes
            raise TypeError(f"unexpected node {cls.__name__}")
        self.active.discard(key)
        self.nodes += 1
        self.memo[key] = (value, self.nodes - start)
        self._check_size(node)
        return value

    def _mapping(self, node: MappingNode, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, Node] = {}
        for key_node, value_node in node.value:
            if key_node.__class__ is not ScalarNode:
                self.error(key_node, "a mapping key must be a plain string, not a collection", "yaml.key")
                continue
            key_tag = key_node.tag
            name = key_node.value
            if key_tag != STR:
                if key_tag == MERGE:
                    self.error(key_node, "merge keys (<<) are not allowed; write the fields out", "yaml.merge-key")
                    continue
                if key_tag in _TYPE_WORDS:
                    self.error(key_node, f"key {name!r} is read as {_TYPE_WORDS[key_tag]}; quote it: write \"{name}\"",
                               "yaml.key")
                else:
                    self._bad_tag(key_node)
                continue
            if name in first_seen:
                line, _ = _mark_pos(first_seen[name])
                self.error(key_node, f"duplicate key {name!r} (first given on line {line})", "yaml.duplicate-key")
                continue
            first_seen[name] = key_node
            result[name] = self.build(value_node, depth)
        return result

    def _bad_tag(self, node: Node) -> None:
        tag = node.tag
        shown = "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag
        self.error(node, f"YAML tag {shown} is not allowed (only plain YAML values: strings, numbers, booleans, "
                         "null, dates, mappings, lists)", "yaml.tag")

    def _check_size(self, node: Node) -> None:
        if self.nodes > self.limits.max_nodes:
            line, col = _mark_pos(node)
            raise _Abort(_problem(self.path, line, col,
                                  f"aliases expand the document to more than {self.limits.max_nodes:,} nodes "
                                  "(alias bomb?)", "yaml.alias-bomb"))


def _yaml_error_problem(path: Path, text: str, exc: yaml.YAMLError) -> Problem:
    """A problem for a libyaml error, with the friendliest message we can give."""
    if isinstance(exc, yaml.reader.ReaderError):
        # libyaml counts the offset in bytes of the UTF-8 text
        raw = text.encode("utf-8")
        position = min(exc.position, len(raw))
        line = raw.count(b"\n", 0, position) + 1
        col = len(raw[raw.rfind(b"\n", 0, position) + 1:position].decode("utf-8", errors="replace")) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        return _problem(path, line, col, f"control character {ord(char):#06x} is not allowed in YAML", "yaml.syntax")
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    mark = problem_mark or context_mark
    line, col = _mark_pos(mark) if mark is not None else (None, None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    if mark is not None and mark.index < len(text) and text[mark.index] == "\t":
        return _problem(path, line, col, "tab character used for indentation; YAML indents with spaces", "yaml.tab")
    if context == "expected a single document in the stream":
        return _problem(path, line, col, "several YAML documents (---) in one file; put one document per file",
                        "yaml.multiple-documents")
    if context and context_mark is not None and problem_mark is not None:
        # libyaml notices some mistakes only at a later token; the context mark is where the
        # construct it was reading began, which for these two is where the mistake is
        noticed = f"line {problem_mark.line + 1}, column {problem_mark.column + 1}"
        if context == "while scanning a simple key":
            key = _shorten(text[context_mark.index:].split("\n", 1)[0].strip())
            line, col = _mark_pos(context_mark)
            return _problem(path, line, col, f"YAML syntax error: {key!r} has no ':' after it; write `{key}:` "
                            f"(YAML looked for the colon up to {noticed})", "yaml.syntax")
        if context == "while scanning a quoted scalar":
            line, col = _mark_pos(context_mark)
            return _problem(path, line, col, "YAML syntax error: the quoted text that starts here is never closed "
                            f"({problem} at {noticed})", "yaml.syntax")
        if (context_mark.line, context_mark.column) != (problem_mark.line, problem_mark.column):
            context = f"{context} that starts at line {context_mark.line + 1}, column {context_mark.column + 1}"
    message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    return _problem(path, line, col, message, "yaml.syntax")


def _shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with ``...``) for a message."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def parse_yaml(path: Path, text: str, limits: LoadLimits = DEFAULT_LIMITS) -> tuple[Any, Optional[Node], list[Problem]]:
    """Parse one document.

    Returns ``(data, root_node, problems)``; ``data`` is None when the
    document is unusable (then ``problems`` holds at least one error).
    """
    try:
        root = compose(text)
    except yaml.YAMLError as exc:
        return None, None, [_yaml_error_problem(path, text, exc)]
    if root is None or (root.__class__ is ScalarNode and root.tag == NULL and root.value == "" and not root.style):
        # nothing, comments only, or a bare `---` with nothing after it
        return None, None, [_problem(path, 1, 1, "file is empty: no YAML document", "file.empty")]
    if root.__class__ is not MappingNode:
        what = "a list" if root.__class__ is SequenceNode else "a single value"
        line, col = _mark_pos(root)
        return None, root, [_problem(path, line, col, f"the top level is {what}; it must be a mapping with a `kind` field",
                                     "yaml.top-level")]
    builder = _Builder(path, limits)
    try:
        data = builder.build(root)
    except _Abort as abort:
        return None, root, builder.problems_with_fields(root) + [abort.problem]
    problems = builder.problems_with_fields(root)
    if "\\" in text or _RAW_UNSAFE.search(text):  # escapes or raw bidi controls: look at every scalar
        problems += _unsafe_characters(path, root)
    if problems:
        return None, root, problems
    return data, root, []


#: characters no value or key may hold: C0 controls but tab and newline (a double-quoted
#: "\0", "\e", "\r" produces them), DEL, C1 controls, the line and paragraph
#: separators, and the bidirectional embeddings, overrides and isolates that can
#: make text display differently from what it says ("Trojan Source")
_UNSAFE_CHARS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: what the raw text can hold that leads to one of them without a backslash escape
_RAW_UNSAFE = re.compile(r"[\x85\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _unsafe_characters(path: Path, root: Node) -> list[Problem]:
    """A ``yaml.control-character`` error for every scalar (key or value) holding an :data:`_UNSAFE_CHARS` character."""
    flagged: list[tuple[Node, str]] = []
    stack: list[Node] = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.__class__ is ScalarNode:
            match = _UNSAFE_CHARS.search(node.value)
            if match:
                char = match.group()
                kind = ("a bidirectional control character, which can make the text display differently from what "
                        "it says" if "\u202a" <= char <= "\u2069" else "a control character")
                flagged.append((node, f"the text holds U+{ord(char):04X}, {kind}; remove it"))
        elif node.__class__ is MappingNode:
            for key_node, value_node in node.value:
                stack.append(value_node)
                stack.append(key_node)
        else:
            stack.extend(reversed(node.value))
    if not flagged:
        return []
    paths = _node_paths(root)
    problems = []
    for node, message in flagged:
        line, col = _mark_pos(node)
        problems.append(_problem(path, line, col, message, "yaml.control-character",
                                 field=field_path(paths.get(id(node), ()))))
    return problems


def _node_paths(root: Node) -> dict[int, tuple[LocPart, ...]]:
    """id of every node (keys included) -> its location; aliases keep their first location."""
    paths: dict[int, tuple[LocPart, ...]] = {}
    stack: list[tuple[Node, tuple[LocPart, ...]]] = [(root, ())]
    while stack:
        node, loc = stack.pop()
        if id(node) in paths:
            continue
        paths[id(node)] = loc
        if isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                key_loc = loc + (key_node.value,) if isinstance(key_node, ScalarNode) else loc
                paths.setdefault(id(key_node), key_loc)
                stack.append((value_node, key_loc))
        elif isinstance(node, SequenceNode):
            stack.extend((item, loc + (index,)) for index, item in enumerate(node.value))
    return paths


# --------------------------------------------------------------------------
# positions
# --------------------------------------------------------------------------


def _walk(root: Node, loc: Sequence[LocPart]) -> tuple[Node, list[LocPart], bool]:
    """Follow ``loc`` from ``root``.

    Returns ``(node, shown_loc, complete)``: the deepest node reached (a key
    node for pydantic's ``[key]`` marker), the loc parts that exist in the
    document (pydantic's union-member names are dropped), and whether every
    mapping key and index was found.
    """
    node, shown, complete, _ = _walk_marked(root, loc)
    return node, shown, complete


def _walk_marked(root: Node, loc: Sequence[LocPart]) -> tuple[Node, list[LocPart], bool, Node]:
    """:func:`_walk`, plus the node whose position to report.

    That is the node reached, except behind an alias: libyaml gives ``*name``
    the very node of its ``&name`` anchor, whose position is the anchor's.
    Entering a node that starts before its key (or its sequence) means an
    alias was followed; from there on the position reported is that key's (or
    that sequence's), the place where the alias is written.
    """
    node = root
    shown: list[LocPart] = []
    key_node: Optional[Node] = None
    complete = True
    alias_at: Optional[Node] = None

    def where(reached: Node) -> Node:
        return alias_at if alias_at is not None else reached

    for index, part in enumerate(loc):
        if part == "[key]":
            if key_node is not None:
                node = key_node
            continue
        key_node = None
        if isinstance(node, MappingNode) and isinstance(part, str):
            for k, v in node.value:
                if isinstance(k, ScalarNode) and k.value == part:
                    if alias_at is None and v.start_mark.index < k.start_mark.index:
                        alias_at = k
                    key_node, node = k, v
                    shown.append(part)
                    break
            else:
                if part in _model_field_names_any():
                    shown.append(part)
                    shown.extend(p for p in loc[index + 1:] if p != "[key]")
                    return node, shown, False, where(node)
                continue  # a union member name: not part of the document
        elif isinstance(node, SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                item = node.value[part]
                if alias_at is None and item.start_mark.index < node.start_mark.index:
                    alias_at = node
                node = item
                shown.append(part)
            else:
                shown.extend(p for p in loc[index:] if p != "[key]")
                return node, shown, False, where(node)
        else:
            if isinstance(part, int) or part in _model_field_names_any():
                shown.extend(p for p in loc[index:] if p != "[key]")
                return node, shown, False, where(node)
            continue
    return node, shown, complete, where(node)


@functools.lru_cache(maxsize=1)
def _model_field_names_any() -> frozenset[str]:
    """Every field name of every model reachable from the document models."""
    names: set[str] = set()
    seen: set[type] = set()

    def visit(tp: Any) -> None:
        for sub in nested_types(tp):
            if isinstance(sub, type) and issubclass(sub, BaseModel) and sub not in seen:
                seen.add(sub)
                for name, info in sub.model_fields.items():
                    names.add(name)
                    visit(info.annotation)

    for model in DOCUMENT_MODELS.values():
        visit(model)
    return frozenset(names)


def nested_types(tp: Any) -> Iterable[Any]:
    """``tp`` and every type nested in its Annotated/Union/list/dict arguments."""
    yield tp
    for arg in typing.get_args(tp):
        if isinstance(arg, type) or typing.get_args(arg):
            yield from nested_types(arg)


@functools.lru_cache(maxsize=64)
def _composed(path: str, mtime_ns: int) -> Optional[Node]:
    text, _ = read_text(Path(path))
    if text is None:
        return None
    try:
        return compose(text)
    except yaml.YAMLError:
        return None


def locate(path: Union[str, Path], loc: Sequence[LocPart]) -> tuple[Optional[int], Optional[int], str]:
    """Line, column (1-based) and dotted field path of ``loc`` in the file ``path``.

    The file is parsed again (the result is cached for a few files), so this
    costs nothing for documents that have no problem.  When ``loc`` names a
    field the document leaves out, the position of the nearest enclosing node
    is returned.  ``(None, None, path)`` when the file cannot be read.
    """
    p = Path(path)
    try:
        root = _composed(str(p), p.stat().st_mtime_ns)
    except OSError:
        root = None
    if root is None:
        return None, None, field_path(loc)
    _, shown, _, where = _walk_marked(root, loc)
    line, col = _mark_pos(where)
    return line, col, field_path(shown)


# --------------------------------------------------------------------------
# step 3: schema
# --------------------------------------------------------------------------

#: hints added to pattern errors of the constrained string types in :mod:`lingjun.schema.fields`
_PATTERN_HINTS = {
    r"^\d{2}\.(0[1-9]|1[0-2])$": 'a release version is YY.MM, e.g. "25.07"',
    r"^[a-z0-9][a-z0-9._-]{0,63}:\d{2}\.(0[1-9]|1[0-2])$": 'a release reference is family:YY.MM, e.g. "training-nv-pytorch:25.07"',
    r"^[a-z0-9][a-z0-9._-]{0,63}$": "an id is lower-case letters, digits, '.', '_' and '-' (at most 64)",
    r"^20\d{2}-(0[1-9]|1[0-2])$": 'a month is YYYY-MM, e.g. "2026-08"',
    r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$": "a version is letters, digits and . + _ - as published (no spaces)",
}


def _unwrap(tp: Any, part: LocPart) -> Any:
    """The type found one step into ``tp`` at ``part`` (a field, an index or a dict key)."""
    for candidate in nested_types(tp):
        if isinstance(part, str) and isinstance(candidate, type) and issubclass(candidate, BaseModel):
            info = candidate.model_fields.get(part)
            if info is not None:
                return info.annotation
        origin = typing.get_origin(candidate)
        if isinstance(part, int) and origin is list:
            return typing.get_args(candidate)[0]
        if isinstance(part, str) and origin is dict:
            return typing.get_args(candidate)[1]
    return None


def _allowed_fields(model: type[BaseModel], loc: Sequence[LocPart]) -> list[str]:
    """Field names of the model found at ``loc`` inside ``model`` (empty when none)."""
    tp: Any = model
    for part in loc:
        if part == "[key]":
            continue
        nxt = _unwrap(tp, part)
        if nxt is not None:
            tp = nxt
    for candidate in nested_types(tp):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return list(candidate.model_fields)
    return []


def _describe_input(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _error_problem(path: Path, root: Node, model: type[BaseModel], error: dict[str, Any]) -> Problem:
    """Turn one pydantic error into a positioned problem."""
    loc = tuple(error["loc"])
    kind = error["type"]
    node, shown, complete, where = _walk_marked(root, loc)
    reached = node
    fpath = field_path(shown)
    rule = "schema.type"
    message = error["msg"]
    if kind == "missing":
        rule, message = "schema.missing", f"required field `{loc[-1]}` is missing"
    elif kind == "extra_forbidden":
        name = str(loc[-1])
        rule, message = "schema.unknown-field", f"unknown field `{name}`"
        key_node = _walk(root, loc + ("[key]",))[0]
        node = key_node
        allowed = _allowed_fields(model, loc[:-1])
        close = difflib.get_close_matches(name, allowed, n=1)
        if close:
            message += f"; did you mean `{close[0]}`?"
        elif allowed:
            message += f"; allowed here: {', '.join(allowed)}"
    elif kind in ("string_type", "str_type") and isinstance(node, ScalarNode) and node.tag != STR and complete:
        rule = "yaml.unquoted-string"
        text = node.value
        if node.tag == NULL and text in ("", "~"):
            rule, message = "schema.missing", "no value given; write the text (quoted where it looks like a number)"
        else:
            message = (f"{text} is read by YAML as {_TYPE_WORDS.get(node.tag, node.tag)} "
                       f"({_describe_input(error.get('input'))}), not text; quote it: write \"{text}\"")
    elif complete and isinstance(node, ScalarNode) and node.tag == NULL and error.get("input") is None:
        # `status:` / `status: ~` / `branch: null` where a value is needed
        rule = "schema.missing"
        expected = (error.get("ctx") or {}).get("expected")
        shown = "no value given" if node.value in ("", "~") else f"{node.value} is read by YAML as null (no value)"
        message = f"{shown}; expected {expected}" if expected else f"{shown} ({message})"
    elif kind in ("enum", "literal_error"):
        rule = "schema.enum"
        expected = (error.get("ctx") or {}).get("expected", "")
        message = f"{_describe_input(error.get('input'))} is not allowed here; expected {expected}"
    elif kind == "string_pattern_mismatch":
        rule = "schema.pattern"
        pattern = (error.get("ctx") or {}).get("pattern", "")
        hint = _PATTERN_HINTS.get(pattern, f"it must match {pattern}")
        message = f"{_describe_input(error.get('input'))} has the wrong form: {hint}"
    elif kind == "value_error":
        rule = "schema.value"
        message = message.removeprefix("Value error, ")
        # model validators name the field first ("minimum: ..."): point at it
        head, sep, rest = message.partition(": ")
        if sep and head.isidentifier() and isinstance(node, MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, ScalarNode) and key_node.value == head:
                    node, fpath, message = value_node, field_path(list(shown) + [head]), rest
                    break
    elif kind.startswith("date") or kind.startswith("datetime"):
        rule = "schema.date"
        shown = repr(node.value) if complete and isinstance(node, ScalarNode) else _describe_input(error.get("input"))
        message = f"{shown} is not a date; write YYYY-MM-DD, e.g. 2025-07-31"
    elif complete and isinstance(node, ScalarNode) and node.tag in (BOOL, TIMESTAMP):
        # `branch: yes` fails a number check: say how YAML read it
        message = (f"{node.value} is read by YAML as {_TYPE_WORDS[node.tag]} "
                   f"({_describe_input(error.get('input'))}): {message}")
    elif kind in ("too_short", "too_long", "string_too_short", "string_too_long"):
        rule = "schema.length"
    line, col = _mark_pos(where if node is reached else node)
    return Problem(str(path), line, col, fpath, message, Severity.error, rule)


def validate_document(path: Path, data: Any, root: Node) -> tuple[Optional[LoadedDocument], list[Problem]]:
    """Validate parsed ``data`` against the model its ``kind`` names.

    Returns ``(document, problems)``; ``document`` is None when there are errors.
    """
    kinds = ", ".join(sorted(DOCUMENT_MODELS))
    kind = data.get("kind")
    if kind is None:
        guess = _guess_kind(path)
        hint = f"; this file looks like `kind: {guess}`" if guess else ""
        return None, [_problem(path, 1, 1, f"required field `kind` is missing (one of: {kinds}){hint}",
                               "schema.missing", field="kind")]
    model = DOCUMENT_MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        node, _, _ = _walk(root, ("kind",))
        line, col = _mark_pos(node)
        return None, [_problem(path, line, col, f"unknown kind {_describe_input(kind)}; expected one of: {kinds}",
                               "schema.enum", field="kind")]
    try:
        document = model.model_validate(data)
    except pydantic.ValidationError as exc:
        return None, [_error_problem(path, root, model, err) for err in exc.errors(include_url=False)]
    return LoadedDocument(path=path, kind=kind, model=document), []


def _guess_kind(path: Path) -> Optional[str]:
    name = path.name
    if path.parent.name == "known-issues":
        return "known-issue"
    for kind in ("families", "components", "cuda-drivers", "driver-branches"):
        if name.startswith(kind + "."):
            return kind
    if path.stem[:2].isdigit():
        return "release"
    return None


# --------------------------------------------------------------------------
# files and trees
# --------------------------------------------------------------------------


def load_file(path: Path, limits: LoadLimits = DEFAULT_LIMITS) -> tuple[Optional[LoadedDocument], list[Problem]]:
    """Read, parse and validate one file; never raises.

    Returns ``(document, problems)``; ``document`` is None when the file has errors.
    """
    document, problems, _ = _load_file(path, limits)
    return document, problems


def _load_file(path: Path, limits: LoadLimits) -> tuple[Optional[LoadedDocument], list[Problem], Any]:
    """:func:`load_file`, plus the parsed data (None when the YAML could not be read)."""
    data = None
    try:
        text, problems = read_text(path, limits)
        if text is None:
            return None, problems, None
        data, root, yaml_problems = parse_yaml(path, text, limits)
        problems += yaml_problems
        if data is None:
            return None, problems, None
        document, schema_problems = validate_document(path, data, root)
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


def scan(root: Path) -> tuple[list[Path], list[Problem]]:
    """The data files under ``root`` (or ``root`` itself when it is not a folder), sorted, and what was refused.

    A folder is walked without following symbolic links: hidden files and
    folders (``.name``) are skipped; every ``*.yaml``/``*.yml`` entry must be
    a plain file.  A symbolic link there (to a file, a folder, or nowhere) is
    an error (``file.symlink``): the data is committed as files, and a link
    could make the gate read and echo anything on the machine running it (a
    secret file, ``/dev/zero``).  A symbolic link to a folder is refused
    whatever its name.  Other special files named ``*.yaml`` (a FIFO, a
    socket) are ``file.read`` errors and are never opened.  A path given
    directly (not a folder) is returned as is: :func:`read_text` refuses it
    if it is not a plain file.
    """
    root = Path(root)
    if not root.is_dir():
        return [root], []
    found: list[Path] = []
    problems: list[Problem] = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder)
        visible = sorted(d for d in dirs if not d.startswith("."))
        dirs[:] = []
        for name in visible:
            path = base / name
            if path.is_symlink():
                problems.append(_problem(path, None, None, "symbolic link to a folder; the gate does not follow "
                                         "links: commit the files themselves", "file.symlink"))
            else:
                dirs.append(name)
        for name in files:
            if name.startswith(".") or not name.endswith((".yaml", ".yml")):
                continue
            path = base / name
            try:
                mode = path.lstat().st_mode
            except OSError as exc:
                problems.append(_problem(path, None, None, f"cannot read file: {exc.strerror or exc}", "file.read"))
                continue
            if stat.S_ISREG(mode):
                found.append(path)
            elif stat.S_ISLNK(mode):
                problems.append(_problem(path, None, None, "symbolic link; the gate does not follow links: "
                                         "commit the file itself", "file.symlink"))
            else:
                problems.append(_problem(path, None, None, f"not a regular file ({_file_type(mode)}); "
                                         "a release data file must be a plain file", "file.read"))
    return sorted(found), problems


def discover(root: Path) -> list[Path]:
    """The data files :func:`scan` finds under ``root`` (or ``[root]`` when it is not a folder), sorted."""
    return scan(root)[0]


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
            kb.paths.setdefault(kind, doc.path)
        elif kind == "components":
            kb.components.update((c.id, c) for c in model.components)  # type: ignore[attr-defined]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "known-issue":
            kb.known_issues.setdefault(model.id, model)  # type: ignore[attr-defined]
            kb.paths.setdefault(model.id, doc.path)  # type: ignore[attr-defined]
        elif kind == "cuda-drivers":
            kb.cuda_drivers = kb.cuda_drivers or model  # type: ignore[assignment]
            kb.paths.setdefault(kind, doc.path)
        elif kind == "driver-branches":
            kb.driver_branches = kb.driver_branches or model  # type: ignore[assignment]
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
