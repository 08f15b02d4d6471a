"""Data files of the ``lingjun.checks`` package, read through the package's own loader (a folder or the zipapp).

The zipapp holds the files read only for some inputs xz-compressed (``generator/zipapp.py``: the error catalogs and
the error signatures, read only when a log is), a checkout as plain JSON.
"""

from __future__ import annotations

import os

__all__ = ["PackageDataError", "read", "unxz"]


class PackageDataError(ValueError):
    """A data file is missing, damaged, or cannot be unpacked by this Python (no ``lzma``)."""


def read(name: str) -> bytes:
    """The content of ``lingjun/checks/data/<name>``: from ``<name>.xz`` unpacked where the package holds that (the
    zipapp), else from ``<name>``.

    Raises:
        PackageDataError: neither file is there, or the ``.xz`` one is damaged (:func:`unxz`).
    """
    import lingjun.checks as package  # the package's loader reads a folder and the zipapp alike

    folder = os.path.join(os.path.dirname(package.__file__), "data")
    loader = getattr(package, "__loader__", None)
    try:
        packed = loader.get_data(os.path.join(folder, name + ".xz"))  # type: ignore[union-attr]
    except (OSError, AttributeError):
        packed = None
    if packed is not None:
        return unxz(packed, name + ".xz")
    try:
        return loader.get_data(os.path.join(folder, name))  # type: ignore[union-attr]
    except (OSError, AttributeError):
        raise PackageDataError(f"lingjun/checks/data/{name} is missing; run `lingjun-kb bundle`") from None


def unxz(data: bytes, name: str) -> bytes:
    """``data`` (the content of the data file ``name``) unpacked from xz.

    Raises:
        PackageDataError: the data is not xz or is cut short (a damaged archive), or this Python has no ``lzma``."""
    try:
        import lzma  # deferred: only the zipapp's copies are compressed
    except ImportError:  # a Python built without liblzma
        raise PackageDataError(f"this Python has no lzma module, which unpacks lingjun/checks/data/{name}") from None
    try:
        return lzma.decompress(data, format=lzma.FORMAT_XZ)
    except (lzma.LZMAError, EOFError) as exc:
        raise PackageDataError(f"lingjun/checks/data/{name} is damaged ({exc})") from None
