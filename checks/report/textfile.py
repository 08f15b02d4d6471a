"""``--format prometheus -o FILE``: one writer per node, and a failed run that says so.

node-exporter's textfile collector serves every ``*.prom`` file of its folder
(https://github.com/prometheus/node_exporter#textfile-collector).  Two checks
writing the same series into two files of one folder make node-exporter serve
duplicate series, and a check that stopped producing reports leaves its last
good file behind, so a broken check looks healthy.  Hence, around a run:

* :func:`lock_folder` takes an exclusive ``flock`` on the folder itself (no
  lock file is created in the collector's folder); a second run waits for the
  first up to :data:`LOCK_WAIT_S` seconds, then gives up with one line;
* :func:`other_writers` names the other ``*.prom`` files of the folder that
  already hold our metrics: the run is refused rather than made a second
  writer;
* :func:`write_failure` replaces the file, atomically, with the metrics of a
  failed run (``lingjun_check_run_success 0``, the exit code, and the time of
  the last good run carried over from the file it replaces).  It only ever
  replaces a file of ours (:func:`~lingjun.checks.report.report_file.write_report`).

Standard library only; ``fcntl`` is POSIX (where it is missing, no lock is taken).
"""

from __future__ import annotations

import os
import stat
import time
from typing import Optional

from lingjun.checks.core.atomic_write import read_whole_text
from lingjun.checks.report.render_prometheus import last_success_time, render_prometheus_failure
from lingjun.checks.report.report_file import MAX_REPORT_BYTES, is_previous_report, write_report

__all__ = ["LOCK_WAIT_S", "TextfileBusy", "lock_folder", "unlock_folder", "other_writers", "write_failure"]

#: seconds a run waits for another run writing into the same folder
LOCK_WAIT_S = 30.0
#: seconds between two tries of the lock
_RETRY_S = 0.1


class TextfileBusy(Exception):
    """Another run holds the folder's lock for longer than the wait allowed (the message names the folder)."""


def lock_folder(path: str, wait: Optional[float] = None) -> Optional[int]:
    """Lock the folder of ``path`` (exclusive ``flock`` on the folder's own descriptor) and return that descriptor,
    or None where the system has no ``flock``.  Give it back with :func:`unlock_folder`.

    Args:
        path: the metrics file to be written.
        wait: seconds to wait for another holder; None: :data:`LOCK_WAIT_S`.

    Raises:
        TextfileBusy: still held by another run after ``wait`` seconds.
        OSError: the folder cannot be opened (missing, not a folder, not readable).
    """
    try:
        import fcntl  # optional: absent on some platforms
    except ImportError:  # not POSIX: no lock
        return None
    folder = os.path.dirname(os.path.abspath(path))
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    deadline = time.monotonic() + (LOCK_WAIT_S if wait is None else wait)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise TextfileBusy(f"another lingjun-check is writing metrics in {folder}; gave up after "
                                   f"{LOCK_WAIT_S if wait is None else wait:g} s") from None
            time.sleep(_RETRY_S)
        except OSError:
            os.close(fd)
            raise


def unlock_folder(fd: Optional[int]) -> None:
    """Release a lock of :func:`lock_folder` (closing the descriptor releases the ``flock``)."""
    if fd is not None:
        os.close(fd)


def other_writers(path: str) -> list[str]:
    """The other ``*.prom`` files in the folder of ``path`` that hold our metrics (regular files only, never
    followed through a link), sorted; ``path`` itself is not one."""
    folder = os.path.dirname(os.path.abspath(path))
    own = os.path.basename(path)
    found = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        if name == own or not name.endswith(".prom"):
            continue
        full = os.path.join(folder, name)
        try:
            if not stat.S_ISREG(os.lstat(full).st_mode):
                continue
        except OSError:
            continue
        if _starts_as_ours(full) and is_previous_report(full):
            found.append(full)
    return found


def _starts_as_ours(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(21) == b"# HELP lingjun_check_"
    except OSError:
        return False


def write_failure(path: str, exit_status: int, hostname: Optional[str] = None, now: Optional[float] = None) -> bool:
    """Replace the metrics file ``path`` (only a file of ours, or none) with the metrics of a failed run
    (:func:`~lingjun.checks.report.render_prometheus.render_prometheus_failure`), carrying over the time of the
    last good run from the file it replaces.  Returns True when written, False when the path may not be
    replaced or the write failed (nothing is left behind then)."""

    last = None
    try:
        if os.path.lexists(path) and is_previous_report(path):
            text = read_whole_text(path, MAX_REPORT_BYTES)
            last = last_success_time(text) if text and text.startswith("# HELP lingjun_check_") else None
    except OSError:
        last = None
    try:
        write_report(path, render_prometheus_failure(exit_status, time.time() if now is None else now, last, hostname))
    except OSError:
        return False
    return True
