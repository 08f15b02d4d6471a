"""Start-up cost of :mod:`dataclasses` in ``lingjun-check.pyz``: precompiled generated methods, ``inspect`` deferred.

``@dataclass`` writes the source text of ``__init__``, ``__repr__`` and
``__eq__`` for every class and compiles it with the built-in ``exec``; for
the checker's ~35 dataclasses that compilation is about 6 ms of a check
(Python 3.11).  The text depends only on the class definition and the
Python version, so the zipapp builder records every text the checker's
modules produce (:func:`record_texts`, run in a child interpreter), compiles
them (:func:`dump`) and packs the code as :data:`MEMBER`.  At start-up
:func:`install` gives :mod:`dataclasses` a module-level ``exec`` that runs
the precompiled code for a text it knows and compiles anything else as
before: the methods are the same code, only compiled earlier.  The code is
used only by an interpreter with the same bytecode magic number as the
builder's; any other interpreter ignores it.

:mod:`dataclasses` also imports :mod:`inspect` (with :mod:`ast`, :mod:`dis`
and :mod:`tokenize`, about 5 ms), which up to Python 3.11 it needs only for a
class without a docstring.  :func:`install` imports :mod:`dataclasses` with a
stand-in for ``inspect`` that imports the real module on first use (Python
3.12 and later use it for every class, so there it is imported at the first
dataclass as before).  Only the standard library is used.
"""

from __future__ import annotations

import builtins
import marshal
import sys
import types
from importlib.util import MAGIC_NUMBER
from typing import Callable, Iterable, Optional

__all__ = ["MEMBER", "dump", "load", "install", "record_texts"]

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


def install(blob: Optional[bytes]) -> bool:
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
    import dataclasses  # deferred: a module-level import would bring inspect in before install() can defer it
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
