"""Compiled Jinja2 templates kept for the whole process, shared by environments configured alike.

Jinja2 compiles a template once per :class:`jinja2.Environment`; MkDocs makes a new theme environment for every
build and language, and every site build makes its own Markdown environment, so each build compiled every template
again (about a quarter of a build's CPU).  :data:`TEMPLATE_CACHE`, set as an environment's ``bytecode_cache``,
keeps the compiled code (Jinja2's own bytecode cache mechanism, in memory) for later environments.

The compiled code of a template depends on its source and on what the environment reads while compiling; the key
holds all of it: the template's name and file, and the environment's class, code generator, extensions, syntax and
whitespace settings, ``autoescape`` for that template, ``finalize``, the gettext and i18n settings extensions read
while parsing, and the filters and tests (constant expressions are folded with them at compile time), the last by
identity (each function is kept alive by the cache, so an identity is never reused).  Jinja2 itself compares the
source's checksum on every load: a changed template is compiled again.  What the cache holds is at most one code
object per template and configuration; nothing is written to disk.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from jinja2 import __version__ as _JINJA_VERSION
from jinja2.bccache import Bucket, BytecodeCache

__all__ = ["SharedBytecodeCache", "TEMPLATE_CACHE"]


class SharedBytecodeCache(BytecodeCache):
    """An in-memory bytecode cache whose key includes the environment's compile-time configuration."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}
        self._kept: dict[int, Any] = {}  # id -> object named by identity in a key (kept alive: ids never reused)
        self._lock = threading.Lock()

    def _identity(self, value: Any) -> str:
        with self._lock:
            self._kept.setdefault(id(value), value)
        return f"{type(value).__module__}.{type(value).__qualname__}@{id(value):x}"

    def _fingerprint(self, environment: Any, name: str) -> str:
        autoescape = environment.autoescape
        if callable(autoescape):
            autoescape = bool(autoescape(name))
        parts = [
            _JINJA_VERSION,
            self._identity(type(environment)),
            self._identity(environment.code_generator_class),
            [self._identity(type(ext)) for ext in environment.extensions.values()],
            [environment.block_start_string, environment.block_end_string, environment.variable_start_string,
             environment.variable_end_string, environment.comment_start_string, environment.comment_end_string,
             environment.line_statement_prefix, environment.line_comment_prefix],
            [environment.trim_blocks, environment.lstrip_blocks, environment.newline_sequence,
             environment.keep_trailing_newline, environment.optimized, environment.is_async],
            autoescape,
            None if environment.finalize is None else self._identity(environment.finalize),
            getattr(environment, "newstyle_gettext", None),
            repr(environment.policies.get("ext.i18n.trimmed")),
            sorted((k, self._identity(v)) for k, v in environment.filters.items()),
            sorted((k, self._identity(v)) for k, v in environment.tests.items()),
        ]
        return repr(parts)

    def get_bucket(self, environment: Any, name: str, filename: Any, source: str) -> Bucket:
        """The bucket of ``name`` (from ``filename``) compiled by ``environment``, loaded when held."""
        text = repr((name, filename, self._fingerprint(environment, name)))
        key = hashlib.sha1(text.encode("utf-8")).hexdigest()
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        """Fill ``bucket`` with the code held under its key (Jinja2 drops it when the source's checksum differs)."""
        data = self._code.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep ``bucket``'s freshly compiled code."""
        self._code[bucket.key] = bucket.bytecode_to_string()

    def clear(self) -> None:
        """Forget every compiled template."""
        self._code.clear()


#: the cache every site build's Jinja2 environments use (the Markdown templates' and MkDocs' theme's)
TEMPLATE_CACHE = SharedBytecodeCache()
