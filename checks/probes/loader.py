"""Probe: the dynamic loader's search order, and library resolution over it.

glibc's ``ld.so`` looks for a SONAME such as ``libcuda.so.1`` in this order
(ld.so(8)): the caller's ``DT_RPATH``, ``LD_LIBRARY_PATH``, the caller's
``DT_RUNPATH``, the ``/etc/ld.so.cache`` that ``ldconfig`` built from
``/etc/ld.so.conf`` (whose ``include /etc/ld.so.conf.d/*.conf`` expands in
sorted order), then the trusted default directories.  The probe records the
two parts that vary between containers:

* ``loader.ld_library_path``: the ``LD_LIBRARY_PATH`` entries in order
  (``:`` or ``;`` separated; empty entries, which mean the current directory,
  are kept out);
* ``loader.ld_so_conf``: each configuration file in the order ``ldconfig``
  reads it, with its directories: ``{"file": "/etc/ld.so.conf.d/00-cuda-compat.conf", "dirs": [...]}``.

:func:`search_dirs` turns them into the ordered directory list that
:func:`resolve` walks.  Approximations, stated: the cache is modelled by
configuration order (ldconfig keeps the first directory that provides a
SONAME), and ``DT_RUNPATH`` is represented only by the pip wheel directories
callers pass in (torch's ``$ORIGIN/../../nvidia/<lib>/lib``), placed after
``LD_LIBRARY_PATH`` as ld.so does.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from lingjun.checks.facts import LdSoConfFile, LibraryFile, LoaderFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "loader"

#: directories glibc searches after the cache on 64-bit Linux
DEFAULT_DIRS = ["/lib64", "/usr/lib64", "/lib", "/usr/lib"]
#: multiarch directories Debian/Ubuntu list in ld.so.conf.d; added after the defaults when no conf names them
MULTIARCH_DIRS = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]

_MAX_CONF_FILES = 256
_VERSION_IN_NAME = re.compile(r"\.so\.(\d+(?:\.\d+){1,3})$")


def split_ld_library_path(value: Optional[str]) -> list[str]:
    """``LD_LIBRARY_PATH`` entries in order, without empty entries.  Secrets in the value (a URL with
    credentials, ``token=...``, ``password: x``, ``Authorization: Bearer x``) are masked in the whole value before
    the split (:func:`~lingjun.checks.core.redaction.mask_text`, secrets only): split at its colons, no part keeps
    the key or the shape that masking knows it by (``https://user:pw@host`` would become ``https``, ``//user``,
    ``pw@host``; ``password:x`` ``password`` and ``x``)."""
    if not value:
        return []
    from lingjun.checks.core.redaction import mask_text  # deferred: only a set LD_LIBRARY_PATH needs it

    return [p for p in re.split(r"[:;]", mask_text(value, identifiers=False)) if p]


def read_ld_so_conf(env: ProbeEnv) -> list[LdSoConfFile]:
    """The ld.so configuration files in ``ldconfig`` order, each with the directories it adds.

    Starts at ``/etc/ld.so.conf`` and follows ``include`` globs (sorted);
    without ``/etc/ld.so.conf`` the files of ``/etc/ld.so.conf.d/*.conf``
    are read in sorted order.  Unreadable files are listed with no dirs and
    ``error`` set to the exception name.
    """
    out: list[LdSoConfFile] = []
    seen: set[str] = set()

    def read(path: str) -> None:
        if path in seen or len(seen) >= _MAX_CONF_FILES:
            return
        seen.add(path)
        try:
            text = env.open_bytes(path, 256 * 1024).decode("utf-8", errors="replace")
        except OSError as exc:
            if path != "/etc/ld.so.conf":
                out.append(LdSoConfFile(file=path, error=type(exc).__name__))
            return
        entry = LdSoConfFile(file=path)
        out.append(entry)
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("include"):
                pattern = line[len("include"):].strip()
                if not pattern.startswith("/"):
                    pattern = path.rsplit("/", 1)[0] + "/" + pattern
                for included in _expand(env, pattern):
                    read(included)
                continue
            if line.startswith("hwcap"):
                continue
            for token in re.split(r"[\s:,=]+", line):
                if token.startswith("/"):
                    entry.dirs.append(token.rstrip("/") or "/")

    if env.exists("/etc/ld.so.conf"):
        read("/etc/ld.so.conf")
    else:
        for path in _expand(env, "/etc/ld.so.conf.d/*.conf"):
            read(path)
    return [e for e in out if e.file != "/etc/ld.so.conf" or e.dirs]


def _expand(env: ProbeEnv, pattern: str) -> list[str]:
    directory, _, name_glob = pattern.rpartition("/")
    return list(env.glob(directory or "/", lambda n: fnmatch.fnmatchcase(n, name_glob)))


@register_probe(NAME, order=50)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Record ``LD_LIBRARY_PATH`` and the ld.so.conf order."""
    return {"loader": loader_facts(env)}


def loader_facts(env: ProbeEnv) -> LoaderFacts:
    """The loader facts, computed once per :class:`ProbeEnv` (other probes share them)."""
    return env.shared(
        "loader",
        lambda: LoaderFacts(
            ld_library_path=split_ld_library_path(env.environ.get("LD_LIBRARY_PATH")),
            ld_so_conf=read_ld_so_conf(env),
        ),
    )


@dataclass(frozen=True)
class SearchDir:
    """A directory the loader searches and how it got there (``LibraryFile.via`` values)."""

    path: str
    via: str


def search_dirs(loader: LoaderFacts, wheel_dirs: Iterable[str] = ()) -> list[SearchDir]:
    """The ordered, de-duplicated directories the loader searches (see the module docstring)."""
    ordered: list[SearchDir] = []
    seen: set[str] = set()

    def add(path: str, via: str) -> None:
        norm = path.rstrip("/") or "/"
        if norm not in seen:
            seen.add(norm)
            ordered.append(SearchDir(norm, via))

    for path in loader.ld_library_path:
        add(path, "LD_LIBRARY_PATH")
    for path in wheel_dirs:
        add(path, "wheel")
    for conf in loader.ld_so_conf:
        for path in conf.dirs:
            add(path, "ld.so.conf")
    for path in DEFAULT_DIRS:
        add(path, "default")
    for path in MULTIARCH_DIRS:
        add(path, "default")
    return ordered


def version_from_name(name: str) -> Optional[str]:
    """The dotted version in a library file name: ``libcuda.so.570.124.06`` -> ``"570.124.06"``; None without one."""
    match = _VERSION_IN_NAME.search(name)
    return match.group(1) if match else None


@dataclass
class Resolution:
    """Where a SONAME resolves: every candidate in search order and the first one."""

    candidates: list[LibraryFile]

    @property
    def chosen(self) -> Optional[LibraryFile]:
        """The file the loader would load (the first candidate), or None."""
        return self.candidates[0] if self.candidates else None


def resolve(env: ProbeEnv, soname: str, dirs: list[SearchDir]) -> Resolution:
    """Find ``soname`` in each directory; version from the real file name after following links."""
    found: list[LibraryFile] = []
    for directory in dirs:
        path = directory.path.rstrip("/") + "/" + soname
        if not env.exists(path):
            continue
        real = env.real_path(path)
        found.append(LibraryFile(path=path, version=version_from_name(real.rsplit("/", 1)[-1]), via=directory.via))
    return Resolution(found)
