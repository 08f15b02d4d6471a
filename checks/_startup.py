"""The start-up tricks of ``lingjun-check.pyz``, each with what it earns, in one place.

A check is a short run (about 0.2 to 0.4 s), so what Python does before the first probe is a large share of it.
Measured on 2026-12-02 on the project's 2-core development machine (Python 3.11.7), as the median wall time of
``lingjun-check.pyz --format json`` with each trick left out in turn (``bench/startup.py``, alternating runs):
twice by a helper while other work loaded the machine (20 and 30 runs over the 16-GPU snapshot of
``tests/fixtures/snapshots/``), and once on the idle machine (30 runs, a live check, 254 ms as built, 406 ms
with none of the tricks).  Each trick earns at least 10 % of a check:

1. **One read of the archive** (:func:`install_archive_finder`, :class:`ArchiveFinder`): 27 to 100 ms, 10.6 to
   24 % of a check.  Python's own zip importer (:mod:`zipimport`) opens the archive again for every module and, up
   to at least Python 3.12, reads, decompresses and unmarshals each module twice: once to report the file
   name while building the module spec, once to run it.  The finder reads the archive once, indexes its
   central directory and serves the packages ``lingjun`` and ``packaging`` from the bytecode the zipapp
   carries (``x.pyc`` next to each ``x.py``, unchecked hash-based, written by
   :func:`lingjun.generator.zipapp.with_bytecode`).  A module is served only when its ``.pyc`` was written by
   this interpreter (same magic number) as an unchecked hash-based pyc; otherwise the finder steps aside and
   zipimport (which then compiles the ``.py``) loads it, as on other Python versions.  Modules get the same
   ``__file__``-style locations as under zipimport (``<archive>/lingjun/checks/cli.py``), ``get_data`` for
   package data (``<archive>/lingjun/checks/data/bundle.json``) and ``get_source`` for tracebacks.
2. **Precompiled ``@dataclass`` methods, ``inspect`` deferred** (:func:`install_dataclass_code`): 57 to 70 ms,
   15 to 22 %.  ``@dataclass`` writes the source text of ``__init__``, ``__repr__`` and ``__eq__`` for every
   class and compiles it with the built-in ``exec``.  The text depends only on the class definition and the
   Python version, so the zipapp builder records every text the checker's modules produce
   (:func:`record_texts`, run in a child interpreter), compiles them (:func:`dump`) and packs the code as
   :data:`MEMBER`; at start-up :mod:`dataclasses` gets a module-level ``exec`` that runs the precompiled code
   for a text it knows and compiles anything else as before (the same code, compiled earlier), and only for
   an interpreter with the builder's bytecode magic number.  :mod:`dataclasses` also imports :mod:`inspect`
   (with :mod:`ast`, :mod:`dis` and :mod:`tokenize`), which up to Python 3.11 it needs only for a class
   without a docstring: it is imported with a stand-in that imports the real module on first use (Python 3.12
   and later use it for every class, so there it is imported at the first dataclass as before).
3. **No cyclic garbage collection during the run** (:func:`pause_collection`, :func:`exit_frozen`): 45 to 66
   ms, 12 to 18 %.  A check creates few reference cycles, while loading the release data and the modules
   triggers collections that cost milliseconds each; the collector is paused for the run and, at exit, what
   the run allocated is frozen, so the interpreter's last collection skips it.

Removed, as earning less than 10 % of a check: ``fast_parse``, a hand-written parser of common command lines
that saved building :mod:`argparse`'s parser (-3 % to +1.5 %, within the noise).  Only the standard library is
used, and nothing here imports :mod:`dataclasses` at module level (that would bring :mod:`inspect` in before
:func:`install_dataclass_code` can defer it).
"""

from __future__ import annotations

import builtins
import gc
import marshal
import sys
import types
import zlib
from importlib.machinery import ModuleSpec
from importlib.util import MAGIC_NUMBER
from typing import Callable, Iterable, NoReturn, Optional

__all__ = ["PACKAGES", "ArchiveFinder", "read_directory", "install_archive_finder", "MEMBER", "dump", "load",
           "install_dataclass_code", "record_texts", "pause_collection", "resume_collection", "exit_frozen"]

# --- 1. one read of the archive -----------------------------------------------------------------------

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

    def _located(self, fullname: str) -> tuple[str, bool]:
        """:meth:`_locate`, for a module that must be there.

        Raises:
            ImportError: when the module is not in the archive.
        """
        found = self._locate(fullname)
        if found is None:
            raise ImportError(f"{fullname} is not in {self.archive}", name=fullname)
        return found

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
        return self._located(fullname)[1]

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
        return f"{self.archive}/{self._located(fullname)[0]}.py"


def install_archive_finder(archive: str) -> Optional[ArchiveFinder]:
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


# --- 2. precompiled @dataclass methods, inspect deferred -----------------------------------------

#: the archive member (package data of ``lingjun.checks``) with the precompiled code
MEMBER = "lingjun/checks/data/dataclass-code.bin"
#: name of the code the builder passes to ``compile``: what ``exec`` uses for a text
_FILENAME = "<string>"


def dump(texts: Iterable[str]) -> bytes:
    """The :data:`MEMBER` content for ``texts``: this interpreter's magic number, then the marshalled
    ``((text, code), ...)`` pairs sorted by text, each code compiled as ``exec(text)`` would compile it.

    Raises:
        SyntaxError: when a text is not Python source.
    """
    pairs = tuple((text, compile(text, _FILENAME, "exec", dont_inherit=True)) for text in sorted(set(texts)))
    return MAGIC_NUMBER + marshal.dumps(pairs)


def load(blob: Optional[bytes]) -> Optional[dict]:
    """``{text: code}`` from :func:`dump`'s bytes; None when ``blob`` is None, damaged or another interpreter's."""
    if not blob or blob[:4] != MAGIC_NUMBER:
        return None
    try:
        pairs = marshal.loads(memoryview(blob)[4:])
        codes = {text: code for text, code in pairs if type(text) is str and type(code) is types.CodeType}
    except (EOFError, ValueError, TypeError):
        return None
    return codes


def _cached_exec(codes: dict) -> Callable:
    real = builtins.exec

    def run_precompiled(source, *args, **kwargs):  # dataclasses calls exec(text, globals, namespace)
        if type(source) is str:
            source = codes.get(source, source)
        return real(source, *args, **kwargs)

    return run_precompiled


class _DeferredModule(types.ModuleType):
    """Stands in for a module that :mod:`dataclasses` imports but may never use: imports it on first use."""

    def __getattr__(self, name: str):  # called only for attributes the stand-in lacks
        import importlib

        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        real = importlib.import_module(self.__name__)
        using = sys.modules.get("dataclasses")
        if using is not None and getattr(using, "__dict__", {}).get(self.__name__) is self:
            setattr(using, self.__name__, real)  # later uses go straight to the module
        return getattr(real, name)


def _import_dataclasses_deferring_inspect() -> None:
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return
    stand_in = _DeferredModule("inspect")
    sys.modules["inspect"] = stand_in
    try:
        import dataclasses  # noqa: F401
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]  # any other importer gets the real module


def install_dataclass_code(blob: Optional[bytes]) -> bool:
    """Import :mod:`dataclasses` with ``inspect`` deferred and, when ``blob`` (:data:`MEMBER`'s content)
    is this interpreter's, let it run the precompiled code; returns whether the code is in use.

    Call it before any dataclass is defined; never raises.
    """
    _import_dataclasses_deferring_inspect()
    codes = load(blob)
    if not codes:
        return False
    import dataclasses  # deferred: imported only after _import_dataclasses_deferring_inspect

    dataclasses.exec = _cached_exec(codes)  # module global: found before the built-in
    return True


def record_texts(modules: Iterable[str]) -> list[str]:
    """Import ``modules`` and return every text :mod:`dataclasses` compiled meanwhile (sorted, unique).

    For the zipapp builder, in a fresh interpreter whose ``sys.path`` holds the archive's files:
    classes defined before the call are not seen.

    Raises:
        ImportError: from importing a module.
    """
    import dataclasses  # deferred: a module-level import would bring inspect in before install_dataclass_code() can defer it
    import importlib

    texts: set[str] = set()
    real = builtins.exec

    def run_recording(source, *args, **kwargs):
        if type(source) is str:
            texts.add(source)
        return real(source, *args, **kwargs)

    dataclasses.exec = run_recording  # module global: found before the built-in
    try:
        for name in modules:
            importlib.import_module(name)
    finally:
        del dataclasses.exec
    return sorted(texts)


# --- 3. no cyclic garbage collection during the run ----------------------------------------------------


def pause_collection() -> bool:
    """Pause the cyclic garbage collector; returns whether it was running (give that to :func:`resume_collection`)."""
    running = gc.isenabled()
    gc.disable()
    return running


def resume_collection(was_running: bool) -> None:
    """Let the collector run again if it ran before :func:`pause_collection`."""
    if was_running:
        gc.enable()


def exit_frozen(status: int) -> NoReturn:
    """Exit with ``status`` after freezing every object the run allocated (the last collection then skips them).

    Raises:
        SystemExit: always, with ``status``.
    """
    gc.freeze()
    sys.exit(status)
