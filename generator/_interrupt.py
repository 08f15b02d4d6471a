"""Ctrl-C that cannot be lost: a SIGINT remembered even when its KeyboardInterrupt is swallowed.

Python raises KeyboardInterrupt wherever the main thread is when SIGINT arrives.  When that is a
finaliser or a lock release (``logging._releaseLock``), the interpreter prints "Exception ignored"
and carries on, and a build would then finish and replace the site as if nothing had happened.
:func:`install` records every SIGINT before raising; :func:`raise_if_interrupted` lets a command
stop at the points that matter (before the site is swapped into place); :func:`deferred` holds a
SIGINT back while a folder is made and its name kept, so an interrupt never strands a folder the
build made but had not yet recorded for clean-up.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from typing import Any, Iterator

__all__ = ["install", "raise_if_interrupted", "interrupted", "deferred", "at_checkpoints"]

#: set (never cleared) by the handler: a plain list, so the handler takes no lock
_seen: list[bool] = []


def _on_sigint(signum: int, frame: Any) -> None:
    _seen.append(True)
    raise KeyboardInterrupt


def _quiet_unraisable(previous: Any) -> Any:
    """An unraisable hook that drops the KeyboardInterrupt of a remembered SIGINT (Python would print "Exception
    ignored in ..." with a traceback for one raised inside a finaliser or a lock release); others go to ``previous``."""

    def hook(unraisable: Any) -> None:
        if _seen and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return  # remembered: raise_if_interrupted stops the command where it matters, with one line
        previous(unraisable)

    return hook


def install() -> None:
    """Record SIGINT (then raise KeyboardInterrupt as Python does); only from the main thread, else a no-op.

    A KeyboardInterrupt that Python cannot raise (it landed in a finaliser) is not printed: it is remembered.
    """
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_sigint)
        sys.unraisablehook = _quiet_unraisable(sys.unraisablehook)


def interrupted() -> bool:
    """True once a SIGINT has arrived since :func:`install`."""
    return bool(_seen)


def raise_if_interrupted() -> None:
    """Raise KeyboardInterrupt when a SIGINT arrived, even one whose own KeyboardInterrupt was swallowed."""
    if _seen:
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT back (blocked, so it stays pending) for the body; it is delivered when the body ends.

    The KeyboardInterrupt of a SIGINT that arrived meanwhile is raised as the block is left, so the
    body's assignments (a work folder's name) are complete when it is.  Outside the main thread, or on a
    platform without ``pthread_sigmask``, the body runs unprotected.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _remember(signum: int, frame: Any) -> None:
    _seen.append(True)


@contextlib.contextmanager
def at_checkpoints() -> Iterator[None]:
    """Within the body a SIGINT is only remembered; the body stops at its next :func:`raise_if_interrupted`.

    A KeyboardInterrupt raised wherever the main thread happens to be can land inside a lock's release
    (``logging``'s, the process pool's) and leave the lock held: a process forked after that, or another thread,
    then waits on it for ever, and Ctrl-C hangs the build instead of stopping it.  A build calls
    :func:`raise_if_interrupted` between its steps and from an MkDocs plugin before every page, so Ctrl-C still
    stops it within a page.  Outside the main thread the body runs as it is.  The KeyboardInterrupt of a SIGINT
    that arrived during the body is raised as the block is left.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _remember)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    raise_if_interrupted()
