"""Step 2: the strict YAML reader (libyaml nodes, built into plain values by a refusing builder)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from lingjun.schema.loader._documents import DEFAULT_LIMITS, LoadLimits, _mark_pos, _problem
from lingjun.schema.problems import LocPart, Problem, field_path

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


#: how a scalar of each implicit type is described in "quote it" messages
_TYPE_WORDS = {
    INT: "an integer",
    FLOAT: "a number",
    BOOL: "a boolean",
    NULL: "null (no value)",
    TIMESTAMP: "a date",
}


class _Abort(Exception):
    """Stops building one document; carries the problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


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
