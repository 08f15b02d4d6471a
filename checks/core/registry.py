"""One registry for everything that registers itself: checker rules, gate rules, probes.

A :class:`Registry` is an ordered ``id -> spec`` mapping.  Specs are added by
a decorator that lives with the things it registers (``lingjun.checks.rules.rule``,
``lingjun.schema.gate.rules.gate_rule``, ``lingjun.checks.probes.register_probe``);
:meth:`Registry.discover` imports every public module of a package so no
import list is kept by hand.  Iteration order is the spec's declared
``order`` (then id), never the import order, so reports stay identical
however the modules were imported.  Stdlib only; works from a zipapp.

Modules are listed the way :func:`pkgutil.iter_modules` lists them (a
folder's ``*.py`` files and sub-packages; an archive's entries under the
package prefix through :mod:`zipimport`'s directory cache), but without
:mod:`pkgutil`'s import of :mod:`inspect`, which ``lingjun-check.pyz``
defers to keep its start-up short (see :mod:`lingjun.checks._startup`).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import zipimport
from types import ModuleType
from typing import Any, Generic, Iterator, Mapping, TypeVar

__all__ = ["LAST", "RegistrationError", "Registry", "module_names"]

#: ``order`` of a spec whose decorator was given none: after every ordered spec
LAST = 1_000_000

S = TypeVar("S")


def module_names(package: ModuleType) -> frozenset[str]:
    """Short names of the modules and sub-packages of ``package`` (``__init__`` excluded).

    Same result as ``{m.name for m in pkgutil.iter_modules(package.__path__)}``
    for source folders and zip archives, without importing :mod:`inspect`.

    Raises:
        AttributeError: when ``package`` is a plain module (no ``__path__``).
    """
    names: set[str] = set()
    for entry in package.__path__:
        importer = pkgutil.get_importer(entry)
        if isinstance(importer, zipimport.zipimporter):
            # the listing zipimport already read; pkgutil.iter_zipimport_modules reads the same
            files = zipimport._zip_directory_cache.get(importer.archive, {})  # type: ignore[attr-defined]
            prefix = importer.prefix.replace(os.sep, "/")
            for path in files:
                path = path.replace(os.sep, "/")
                if not path.startswith(prefix):
                    continue
                parts = path[len(prefix):].split("/")
                if len(parts) == 1 and parts[0].endswith(".py"):
                    names.add(parts[0][:-3])
                elif len(parts) == 2 and parts[1] == "__init__.py":
                    names.add(parts[0])
        elif os.path.isdir(entry):
            for item in os.listdir(entry):
                full = os.path.join(entry, item)
                if item.endswith(".py") and os.path.isfile(full):
                    names.add(item[:-3])
                elif item.isidentifier() and os.path.isfile(os.path.join(full, "__init__.py")):
                    names.add(item)
    names.discard("__init__")
    return frozenset(names)


class RegistrationError(LookupError):
    """A module of a discovered package is broken: a contributor's mistake, not a data problem.

    Raised when its file name is not a Python identifier, it fails to import
    (a syntax error, a duplicate id, anything it raises) or it registered
    nothing.  The message names the module's file and, where there is one, the
    fix (decorate the function, or give a helper module a leading ``_``).
    """


class Registry(Mapping[str, S], Generic[S]):
    """Ordered ``id -> spec`` mapping that refuses duplicate ids.

    Iteration yields ids sorted by ``(spec.order, id)``; every spec must have
    an integer ``order`` attribute.

    Args:
        kind: what is registered ("checker rule"), used in error messages.
        decorator: how a module registers, for the error message of :meth:`discover`
            (``"@rule(...)"``).
    """

    def __init__(self, kind: str, decorator: str = "") -> None:
        self.kind = kind
        self.decorator = decorator
        self._specs: dict[str, S] = {}
        self._modules: dict[str, str] = {}  # id -> module that registered it
        self._ordered: list[str] | None = None

    def add(self, id: str, spec: S, module: str) -> S:
        """Register ``spec`` under ``id``, recording the ``module`` (dotted name) that did it.

        Returns:
            the spec.
        Raises:
            ValueError: when ``id`` is already registered.
        """
        if id in self._specs:
            raise ValueError(f"{self.kind} {id!r} registered twice")
        self._specs[id] = spec
        self._modules[id] = module
        self._ordered = None
        return spec

    def pop(self, id: str, default: Any = None) -> Any:
        """Remove ``id`` and return its spec (``default`` when absent); for tests that register temporary specs."""
        self._modules.pop(id, None)
        self._ordered = None
        return self._specs.pop(id, default)

    def modules(self) -> frozenset[str]:
        """Dotted names of the modules that registered at least one spec."""
        return frozenset(self._modules.values())

    def discover(self, package: ModuleType) -> "Registry[S]":
        """Import every module of ``package`` whose name does not start with ``_``, sorted by name.

        Already imported modules are not imported again; each must have
        registered at least one spec here.

        Returns:
            this registry.
        Raises:
            RegistrationError: when a discovered module's name is not a Python identifier,
                it fails to import (a syntax error, a duplicate id, anything it raises),
                or it registered nothing; the message names the file.
        """
        names = sorted(name for name in module_names(package) if not name.startswith("_"))
        folder = os.path.dirname(getattr(package, "__file__", None) or "") or package.__name__
        for name in names:
            dotted = f"{package.__name__}.{name}"
            where = os.path.join(folder, name + ".py")
            if not name.isidentifier():
                raise RegistrationError(
                    f"{where}: {name!r} is not a Python module name; use letters, digits and '_' (as in the other modules)"
                )
            try:
                module = importlib.import_module(dotted)
            except Exception as exc:  # noqa: BLE001 - a contributor's broken module: name it, do not crash
                raise RegistrationError(f"{where}: cannot be imported: {type(exc).__name__}: {exc}") from exc
            if dotted not in self._modules.values():
                where = getattr(module, "__file__", None) or where
                how = f"decorate its function with {self.decorator}" if self.decorator else f"register a {self.kind}"
                raise RegistrationError(
                    f"{where} registers no {self.kind}: {how}, or start the module's name with '_' if it only holds helpers"
                )
        return self

    def _order(self) -> list[str]:
        if self._ordered is None:
            self._ordered = sorted(self._specs, key=lambda i: (getattr(self._specs[i], "order"), i))
        return self._ordered

    def __getitem__(self, id: str) -> S:
        return self._specs[id]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order()))

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, id: object) -> bool:
        return id in self._specs

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._order())!r})"
