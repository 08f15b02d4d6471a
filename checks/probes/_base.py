"""The environment every probe reads from: a filesystem root, environment variables and a time budget.

A probe is a module under :mod:`lingjun.checks.probes` with a ``NAME`` (the
probe's name in :class:`~lingjun.checks.facts.ProbeRecord`) and a function
``probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]`` returning the
:class:`~lingjun.checks.facts.Facts` attributes it fills (``{"driver": DriverFacts(...)}``).
Probes never raise for conditions of the system they read (a missing or
unreadable file is a fact); :mod:`lingjun.checks.probes._collect` turns any exception
that escapes into ``record.ok = False`` and runs each probe in its own thread
under a deadline.

Paths: probes speak in *container paths* (``/proc/driver/nvidia/version``).
:meth:`ProbeEnv.host_path` maps one to the file to open: the same path when
the root is ``/`` (a live run), else the path under the root with symbolic
links resolved *inside* the root (an absolute link target such as
``/usr/local/cuda-12.8`` stays within the fake root).  Facts store container
paths, never host paths.

Live-only probes: when ``root`` is not ``/`` nothing is loaded with ctypes
(NVML, libcuda): their facts then come from files only (library paths and the
versions in their file names).  Executables (``nvidia-smi``) are looked up
on ``PATH`` inside the root, but a program found there is run on this host
only when ``run_root_programs`` is set (``--run-root-programs``): a folder
under inspection may hold anything, so by default only the live system's own
programs run.

Only the standard library is used.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from typing import Any, Callable, Iterator, Mapping, Optional

__all__ = ["ProbeEnv", "DEFAULT_TIMEOUT_S", "describe_os_error"]

#: default time budget of one probe, seconds (``--timeout``)
DEFAULT_TIMEOUT_S = 3.0

_MAX_LINKS = 40
_READ_CHUNK = 16 * 1024
#: O_NONBLOCK: opening a FIFO must not wait for a writer (it has no effect on regular files)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def describe_os_error(exc: BaseException) -> str:
    """A short, stable description of a failed read: ``"absent"``, ``"permission denied"`` or the error text."""
    if isinstance(exc, FileNotFoundError):
        return "absent"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, UnicodeDecodeError):
        return "not valid UTF-8"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return f"{type(exc).__name__}: {exc}"


class ProbeEnv:
    """What probes read: a root directory, environment variables, options.

    Args:
        root: filesystem root to read, ``"/"`` for the live system.
        environ: the environment variables to examine (``os.environ`` when None).
        timeout: seconds one probe may take (subprocesses and ctypes calls
            are bounded by it).
        include_ids: collect host names and GPU UUIDs (``--include-ids``).
        run_root_programs: when ``root`` is not ``/``, run programs found inside it
            (``--run-root-programs``); without it they are looked for, never run.

    Shared results (the loader search path, the installed distributions) are
    computed once through :meth:`shared`, whichever probe asks first.
    File access goes through :meth:`open_bytes` and :meth:`listdir` so
    tests can simulate hostile systems by overriding them.
    """

    def __init__(
        self,
        root: str = "/",
        environ: Optional[Mapping[str, str]] = None,
        timeout: float = DEFAULT_TIMEOUT_S,
        include_ids: bool = False,
        run_root_programs: bool = False,
    ) -> None:
        self.root = os.path.abspath(root or "/")
        self.environ: dict[str, str] = dict(os.environ if environ is None else environ)
        self.timeout = float(timeout)
        self.include_ids = include_ids
        self.run_root_programs = run_root_programs
        self._shared: dict[str, Any] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    # -- identity ---------------------------------------------------------------

    @property
    def live(self) -> bool:
        """True when reading the running system (root ``/``): ctypes probes run only then."""
        return self.root == "/"

    @property
    def may_run_programs(self) -> bool:
        """True when a program found through :meth:`host_path` may be run: the live system, or ``run_root_programs``."""
        return self.live or self.run_root_programs

    # -- paths --------------------------------------------------------------------

    def host_path(self, path: str) -> str:
        """The file to open for a container path (see the module docstring)."""
        if self.live:
            return path
        return self._resolve_in_root(path, follow_last=True)

    def container_path(self, host: str) -> str:
        """Inverse of :meth:`host_path` for paths under the root: strip the root prefix."""
        if self.live:
            return host
        rel = os.path.relpath(host, self.root)
        if rel == ".":
            return "/"
        if rel.startswith(".."):
            return host
        return "/" + rel.replace(os.sep, "/")

    def real_path(self, path: str) -> str:
        """The container path with every symbolic link followed (inside the root when not live)."""
        if self.live:
            return os.path.realpath(path)
        return self.container_path(self._resolve_in_root(path, follow_last=True))

    def _resolve_in_root(self, path: str, follow_last: bool) -> str:
        parts = [p for p in path.split("/") if p and p != "."]
        resolved: list[str] = []
        hops = 0
        while parts:
            part = parts.pop(0)
            if part == "..":
                if resolved:
                    resolved.pop()
                continue
            candidate = os.path.join(self.root, *resolved, part)
            if (parts or follow_last) and os.path.islink(candidate):
                hops += 1
                if hops > _MAX_LINKS:  # a loop: leave the rest unresolved, so it fails to open (ELOOP)
                    return os.path.join(self.root, *resolved, part, *parts)
                try:
                    target = os.readlink(candidate)
                except OSError:
                    resolved.append(part)
                    continue
                target_parts = [p for p in target.split("/") if p and p != "."]
                if target.startswith("/"):
                    resolved = []
                parts = target_parts + parts
                continue
            resolved.append(part)
        return os.path.join(self.root, *resolved)

    # -- file access (overridable by tests) ------------------------------------

    def open_bytes(self, path: str, limit: int = 1 << 20) -> bytes:
        """Read at most ``limit`` bytes of a container path (all of it when ``limit`` is negative).

        Reads with ``os.open``/``os.read`` (the same system calls and errors as ``open(path, "rb")``
        and ``read(limit)``, without building a buffered file object: the distribution scan opens
        three files per distribution), in chunks of 16 KiB so a large ``limit`` allocates nothing
        up front.

        Only regular files are read (files under /proc and /sys are regular files): the file is
        opened without blocking and a FIFO, device or socket raises ``OSError(EINVAL, "not a regular
        file")``, so a FIFO does not wait for a writer and ``/dev/zero`` is not read forever.

        Raises:
            OSError: as ``open`` does (FileNotFoundError, PermissionError, IsADirectoryError, ...),
                and EINVAL for anything but a regular file or directory.
        """
        host = self.host_path(path)
        fd = os.open(host, _OPEN_FLAGS)
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):  # open() refuses directories the same way
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), host)
            if not stat.S_ISREG(mode):  # a FIFO would block, /dev/zero never ends: the files read here are regular
                raise OSError(errno.EINVAL, "not a regular file", host)
            parts = []
            left = limit
            while left:
                part = os.read(fd, _READ_CHUNK if left < 0 else min(left, _READ_CHUNK))
                if not part:
                    break
                parts.append(part)
                if left > 0:
                    left -= len(part)
            return parts[0] if len(parts) == 1 else b"".join(parts)
        finally:
            os.close(fd)

    def read_text(self, path: str, limit: int = 1 << 20) -> str:
        """Read a container path as UTF-8 text.

        Raises:
            OSError: when the file cannot be read.
            UnicodeDecodeError: when it is not UTF-8.
        """
        return self.open_bytes(path, limit).decode("utf-8")

    def listdir(self, path: str) -> list[str]:
        """Sorted names in a container directory; ``[]`` when it is absent or unreadable."""
        try:
            return sorted(os.listdir(self.host_path(path)))
        except OSError:
            return []

    def exists(self, path: str) -> bool:
        """Whether a container path exists (following links)."""
        return os.path.exists(self.host_path(path))

    def isdir(self, path: str) -> bool:
        """Whether a container path is a directory (following links)."""
        return os.path.isdir(self.host_path(path))

    def glob(self, directory: str, predicate: Callable[[str], bool]) -> Iterator[str]:
        """Container paths of names in ``directory`` accepted by ``predicate``, sorted."""
        for name in self.listdir(directory):
            if predicate(name):
                yield directory.rstrip("/") + "/" + name

    # -- shared computations -------------------------------------------------------

    def shared(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per key across probe threads; later callers get the same value.

        An exception from ``compute`` is re-raised to every caller.
        """
        with self._guard:
            if key in self._shared:
                return _unwrap(self._shared[key])
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            with self._guard:
                if key in self._shared:
                    return _unwrap(self._shared[key])
            try:
                value: Any = compute()
            except Exception as exc:  # re-raised to each caller
                value = _Failed(exc)
            with self._guard:
                self._shared[key] = value
        return _unwrap(value)


class _Failed:
    def __init__(self, exc: Exception) -> None:
        self.exc = exc


def _unwrap(value: Any) -> Any:
    if isinstance(value, _Failed):
        raise value.exc
    return value
