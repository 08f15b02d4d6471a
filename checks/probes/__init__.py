"""Probes: each reads one part of the system into the facts, isolated and time-bounded.

Every module whose name does not start with ``_`` registers one probe with
:func:`register_probe`; :func:`load_probes` finds them all.  ``_base`` holds
:class:`~lingjun.checks.probes._base.ProbeEnv`, ``_collect`` runs the probes,
``_native`` is shared by the native-library probes.
"""

from __future__ import annotations

from lingjun.checks.probes._registry import PROBES, ProbeSpec, register_probe

__all__ = ["PROBES", "ProbeSpec", "register_probe", "load_probes"]


def load_probes() -> list[ProbeSpec]:
    """Import every probe module (registering it) and return the probes in ``order``.

    Raises:
        lingjun.checks.core.registry.RegistrationError: when a probe module is broken or registered nothing (the message names its file).
    """
    import lingjun.checks.probes as package  # deferred: the package itself

    return list(PROBES.discover(package).values())
