"""Read a file the user named on the command line (``--from``, ``--from-collect-env``, ``--deepspeed-config``, ``--data``).

The path can be anything: a FIFO (opening it normally waits for a writer that
never comes), ``/dev/zero`` (reading never ends), a directory, a file of
hundreds of megabytes.  :func:`read_input_file` opens without blocking, accepts
only regular files, and reads at most ``limit`` bytes, so none of these hangs
the checker or exhausts its memory; each becomes an :class:`InputFileError`
whose message names the file.  Standard library only.
"""

from __future__ import annotations

import os
import stat
from typing import Callable, Optional

__all__ = ["InputFileError", "STDIN", "SNIFF_BYTES", "read_input_file", "unusable_reason", "is_utf8_start"]

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class InputFileError(ValueError):
    """The file cannot be used; ``str(error)`` is ``"<path>: <reason>"``, also kept as ``path`` and ``reason``."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a file")


def unusable_reason(path: str) -> "str | None":
    """Why ``path`` cannot be read as an input file (``"no such file"``, ``"not a regular file (a FIFO)"``), or None.

    Uses ``os.stat`` only, which never blocks, so it is safe on FIFOs and devices.  ``-`` (standard input) is
    always usable here; reading it says what went wrong.
    """
    if path == STDIN:
        return None
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return f"not a regular file ({_kind(info.st_mode)})"
    return None


#: the name that reads standard input instead of a file (``--from -``)
STDIN = "-"

#: the first block of a file, which ``sniff`` sees before the rest is read (bytes)
SNIFF_BYTES = 64 * 1024


def is_utf8_start(block: bytes) -> bool:
    """Whether ``block``, the first bytes of a file (:data:`SNIFF_BYTES` or the whole of a smaller one), is UTF-8 text
    (a byte order mark allowed; a character cut at the end of a full block is not an error)."""
    try:
        block.decode("utf-8-sig")
        return True
    except UnicodeDecodeError as exc:
        return len(block) >= SNIFF_BYTES and exc.start >= len(block) - 3


def read_input_file(path: str, limit: int, truncate: bool = False,
                    sniff: "Callable[[bytes], Optional[str]] | None" = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Args:
        path: the path as given by the user.
        limit: the largest size accepted, in bytes.
        truncate: when True a larger file yields its first ``limit`` bytes instead of an error.
        sniff: called with the first :data:`SNIFF_BYTES` bytes (fewer for a smaller file) before the rest is
            read; a reason it returns refuses the file there, so an input that is not of its kind (50 MB of
            binary garbage as a snapshot) costs one block of memory, not the whole file.

    Raises:
        InputFileError: the file is missing or unreadable, is not a regular file
            (directory, FIFO, device, socket), is larger than ``limit`` (unless ``truncate``), or
            ``sniff`` refused it (its reason).
    """
    if path == STDIN:
        return _read_stdin(limit, truncate, sniff)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(path, f"not a regular file ({_kind(info.st_mode)})")
        if info.st_size > limit and not truncate:
            raise InputFileError(path, f"file is {info.st_size} bytes, larger than the {limit} accepted")
        return _read_limited(fd, path, limit, truncate, sniff)
    except OSError as exc:
        raise InputFileError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _read_stdin(limit: int, truncate: bool, sniff: "Callable[[bytes], Optional[str]] | None") -> bytes:
    """Standard input read as :func:`read_input_file` reads a file (a pipe or a redirected file; it may wait for
    its writer, as any reader of standard input does)."""
    import sys  # deferred: a plain or live check never needs it

    stream = sys.stdin
    if stream is None:
        raise InputFileError(STDIN, "standard input is closed")
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        raise InputFileError(STDIN, "standard input cannot be read here") from None
    try:
        return _read_limited(fd, STDIN, limit, truncate, sniff)
    except OSError as exc:
        raise InputFileError(STDIN, f"cannot read standard input: {exc.strerror or exc}") from None


def _read_limited(fd: int, path: str, limit: int, truncate: bool,
                  sniff: "Callable[[bytes], Optional[str]] | None") -> bytes:
    """At most ``limit`` bytes of ``fd`` (see :func:`read_input_file`); OSError passes through.

    ``sniff`` sees the first :data:`SNIFF_BYTES` whole (a pipe gives them in several reads), or all of a shorter input.
    """
    chunks: list[bytes] = []
    size = 0
    sniffed = sniff is None
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if chunk:
            chunks.append(chunk)
            size += len(chunk)
        if not sniffed and (size >= SNIFF_BYTES or not chunk):
            sniffed = True
            reason = sniff(b"".join(chunks)[:SNIFF_BYTES])  # type: ignore[misc]
            if reason:
                raise InputFileError(path, reason)
        if not chunk:
            break
    data = b"".join(chunks)
    if len(data) > limit:
        if not truncate:
            raise InputFileError(path, f"file is larger than the {limit} bytes accepted")
        data = data[:limit]
    return data
