"""Importing the checker's modules from ``lingjun-check.pyz`` in one pass over the archive.

Python's own zip importer (:mod:`zipimport`) opens the archive again for
every module and, up to at least Python 3.12, reads, decompresses and
unmarshals each module twice: once to report the file name while building
the module spec, once to run it.  For the ~80 modules of a check that is
about a tenth of the run time.  :func:`install` reads the archive once,
indexes its central directory and puts a finder in front of
``sys.meta_path`` that serves the packages ``lingjun`` and ``packaging``
from the bytecode the zipapp carries (``x.pyc`` next to each ``x.py``,
unchecked hash-based, written by :func:`lingjun.generator.zipapp.with_bytecode`).

A module is served only when its ``.pyc`` was written by this interpreter
(same magic number) as an unchecked hash-based pyc; otherwise the finder
steps aside and the normal import system (zipimport, which then compiles the
``.py``) loads it, as it does on other Python versions.  Modules get the same
``__file__``-style locations as under zipimport (``<archive>/lingjun/checks/cli.py``),
``get_data`` for package data (``<archive>/lingjun/checks/data/bundle.json``)
and ``get_source`` for tracebacks.  Only the standard library is used.
"""

from __future__ import annotations

import marshal
import sys
import zlib
from importlib.machinery import ModuleSpec
from importlib.util import MAGIC_NUMBER
from typing import Optional

__all__ = ["ArchiveFinder", "install"]

#: top-level packages served from the archive
PACKAGES = ("lingjun", "packaging")

_EOCD = b"PK\x05\x06"
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
_STORED, _DEFLATED = 0, 8


def _u16(data: bytes, pos: int) -> int:
    return data[pos] | data[pos + 1] << 8


def _u32(data: bytes, pos: int) -> int:
    return int.from_bytes(data[pos:pos + 4], "little")


def read_directory(data: bytes) -> dict[str, tuple[int, int, int]]:
    """``{name: (compression method, offset of the local header, compressed size)}`` of a zip archive's bytes.

    Data prepended to the archive (a ``#!`` line) is allowed.

    Raises:
        ValueError: when the bytes are not a zip archive this reader understands (no end record,
            a ZIP64 or multi-disk archive, a damaged central directory).
    """
    end = data.rfind(_EOCD, max(0, len(data) - 22 - 65535))
    if end < 0 or len(data) < end + 22:
        raise ValueError("no zip end-of-central-directory record")
    if _u16(data, end + 4) or _u16(data, end + 6):
        raise ValueError("multi-disk zip archive")
    count, size, offset = _u16(data, end + 10), _u32(data, end + 12), _u32(data, end + 16)
    if count == 0xFFFF or size == 0xFFFFFFFF or offset == 0xFFFFFFFF:
        raise ValueError("ZIP64 archive")
    shift = end - size - offset  # bytes before the archive proper (the shebang line)
    if shift < 0:
        raise ValueError("central directory outside the data")
    entries: dict[str, tuple[int, int, int]] = {}
    pos = end - size
    for _ in range(count):
        if data[pos:pos + 4] != _CENTRAL:
            raise ValueError("damaged zip central directory")
        method, csize = _u16(data, pos + 10), _u32(data, pos + 20)
        name_len, extra_len, comment_len = _u16(data, pos + 28), _u16(data, pos + 30), _u16(data, pos + 32)
        raw_name = data[pos + 46:pos + 46 + name_len]
        if _u16(data, pos + 8) & 0x800:
            name = raw_name.decode("utf-8")
        elif raw_name.isascii():
            name = raw_name.decode("ascii")  # what cp437 gives for ASCII, without importing that codec
        else:
            name = raw_name.decode("cp437")
        entries[name] = (method, _u32(data, pos + 42) + shift, csize)
        pos += 46 + name_len + extra_len + comment_len
    return entries


class ArchiveFinder:
    """Meta-path finder and loader for :data:`PACKAGES` inside one zip archive (see the module docstring).

    Args:
        archive: the archive's path, as ``zipimporter.archive`` gives it.
        data: the archive's bytes.
        entries: its directory from :func:`read_directory`.
    """

    def __init__(self, archive: str, data: bytes, entries: dict[str, tuple[int, int, int]]) -> None:
        self.archive = archive
        self._data = data
        self._entries = entries
        self._codes: dict = {}  # archive path without suffix -> code object (None: not usable)

    # -- archive access ------------------------------------------------------------

    def _member(self, name: str) -> Optional[bytes]:
        entry = self._entries.get(name)
        if entry is None:
            return None
        method, header, size = entry
        data = self._data
        if data[header:header + 4] != _LOCAL:
            return None
        start = header + 30 + _u16(data, header + 26) + _u16(data, header + 28)
        raw = data[start:start + size]
        if method == _STORED:
            return raw
        if method == _DEFLATED:
            try:
                return zlib.decompress(raw, -15)
            except zlib.error:
                return None
        return None

    def _inner(self, path: str) -> str:
        prefix = self.archive + "/"
        return path[len(prefix):] if path.startswith(prefix) else path

    def get_data(self, path: str) -> bytes:
        """Bytes of a file in the archive, by ``<archive>/<name>`` or ``<name>``.

        Raises:
            OSError: when the archive has no such file.
        """
        content = self._member(self._inner(path).replace("\\", "/"))
        if content is None:
            raise OSError(0, "no such file in the archive", path)
        return content

    # -- finder ------------------------------------------------------------------------

    def _locate(self, fullname: str) -> Optional[tuple[str, bool]]:
        """``(archive path without suffix, is package)`` of a module, or None."""
        base = fullname.replace(".", "/")
        if base + "/__init__.pyc" in self._entries:
            return base + "/__init__", True
        if base + ".pyc" in self._entries:
            return base, False
        return None

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> Optional[ModuleSpec]:
        """A spec for a module of :data:`PACKAGES` with usable bytecode in the archive, else None."""
        if fullname.partition(".")[0] not in PACKAGES:
            return None
        found = self._locate(fullname)
        if found is None or self._code(found[0]) is None:
            return None
        stem, package = found
        spec = ModuleSpec(fullname, self, origin=f"{self.archive}/{stem}.py", is_package=package)
        spec.has_location = True
        spec.cached = f"{self.archive}/{stem}.pyc"  # the bytecode it runs (and no cache_from_source() per import)
        if package:
            spec.submodule_search_locations = [f"{self.archive}/{stem.rsplit('/', 1)[0]}"]
        return spec

    # -- loader ------------------------------------------------------------------------

    def usable_bytecode(self, pyc: Optional[bytes]) -> bool:
        """Whether ``pyc`` is an unchecked hash-based pyc of this interpreter."""
        return pyc is not None and pyc[:4] == MAGIC_NUMBER and _u32(pyc, 4) == 0b01

    def _code(self, stem: str):  # -> Optional[CodeType], kept until exec_module takes it
        if stem not in self._codes:
            pyc = self._member(stem + ".pyc")
            self._codes[stem] = marshal.loads(memoryview(pyc)[16:]) if self.usable_bytecode(pyc) else None
        return self._codes[stem]

    def create_module(self, spec: ModuleSpec) -> None:
        """Default module creation."""
        return None

    def exec_module(self, module) -> None:  # noqa: ANN001
        """Run the module's bytecode in its namespace.

        Raises:
            ImportError: when the module is not in the archive.
        """
        found = self._locate(module.__name__)
        code = self._codes.pop(found[0], None) if found is not None else None
        if code is None:
            code = self._code(found[0]) if found is not None else None
        if code is None:
            raise ImportError(f"{module.__name__} is not in {self.archive}", name=module.__name__)
        exec(code, module.__dict__)

    def is_package(self, fullname: str) -> bool:
        """Whether the module is a package.

        Raises:
            ImportError: when the module is not in the archive.
        """
        found = self._locate(fullname)
        if found is None:
            raise ImportError(f"{fullname} is not in {self.archive}", name=fullname)
        return found[1]

    def get_source(self, fullname: str) -> Optional[str]:
        """The module's source text (tracebacks show it), or None."""
        found = self._locate(fullname)
        source = self._member(found[0] + ".py") if found is not None else None
        return source.decode("utf-8") if source is not None else None

    def get_filename(self, fullname: str) -> str:
        """The module's location: ``<archive>/<package path>/<name>.py``.

        Raises:
            ImportError: when the module is not in the archive.
        """
        found = self._locate(fullname)
        if found is None:
            raise ImportError(f"{fullname} is not in {self.archive}", name=fullname)
        return f"{self.archive}/{found[0]}.py"


def install(archive: str) -> Optional[ArchiveFinder]:
    """Put an :class:`ArchiveFinder` for ``archive`` first on ``sys.meta_path``; returns it.

    Returns None and changes nothing when the archive cannot be read or indexed, or its bytecode
    is not this interpreter's (imports then go through zipimport as usual).
    """
    try:
        with open(archive, "rb") as handle:
            data = handle.read()
        finder = ArchiveFinder(archive, data, read_directory(data))
        if not finder.usable_bytecode(finder._member("lingjun/__init__.pyc")):
            return None
    except (OSError, ValueError, zlib.error):
        return None
    sys.meta_path.insert(0, finder)
    return finder
