"""Run every probe and assemble :class:`~lingjun.checks.facts.Facts`.

Each probe (a module of :mod:`lingjun.checks.probes`, see
:mod:`lingjun.checks.probes._base`) runs in its own daemon thread; all start
at once and the collector waits for each until a common deadline of
``timeout`` seconds after the start (plus a small grace for bookkeeping).
A probe that is still running then gets ``timed_out = True`` in its
:class:`~lingjun.checks.facts.ProbeRecord` and its facts stay at their
defaults; its thread is abandoned (a daemon thread never delays the exit).
A probe that raises gets ``ok = False`` and the exception text; it never
stops the others.  The facts section a probe fills is *not available*
(:mod:`lingjun.checks.coverage`) when the probe timed out, raised, or returned
nothing because it cannot know (the ``limits`` probe under ``--root``): its
defaults are not observations.  Results are applied in the probes' declared ``order``
(:data:`lingjun.checks.probes.PROBES`), so the facts do not depend on thread timing.

Keys of a probe's result are ``Facts`` attribute names, or dotted
``"driver.device_nodes"`` to set one field of a nested section.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Any, Optional

from lingjun.checks.coverage import sections_not_probed
from lingjun.checks.facts import Facts, ProbeRecord
from lingjun.checks.probes import PROBES, ProbeSpec, load_probes
from lingjun.checks.probes._base import ProbeEnv

__all__ = ["collect"]

_GRACE_S = 0.25


class _Run(threading.Thread):
    def __init__(self, spec: ProbeSpec, env: ProbeEnv) -> None:
        super().__init__(name=f"probe-{spec.name}", daemon=True)
        self.spec = spec
        self.env = env
        self.record = ProbeRecord(name=spec.name)
        self.result: Optional[dict[str, Any]] = None
        self.started = 0.0

    def run(self) -> None:
        self.started = time.monotonic()
        try:
            self.result = self.spec.func(self.env, self.record)
        except Exception as exc:  # a probe bug must not stop the report
            self.record.ok = False
            self.record.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.record.seconds = round(time.monotonic() - self.started, 4)


def collect(env: ProbeEnv, probes: Optional[list[str]] = None) -> Facts:
    """Probe the system described by ``env``; never raises for system conditions.

    Args:
        env: root, environment and time budget.
        probes: module short names of :mod:`lingjun.checks.probes` to run, in this
            order (default: every registered probe, in ``order``).

    Raises:
        KeyError: for a name in ``probes`` that is no probe module.
        LookupError: when a probe module registered nothing.
    """
    facts = Facts(collected_at=dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"), origin="live")
    specs = load_probes()
    runs = [_Run(spec, env) for spec in ([PROBES[name] for name in probes] if probes else specs)]
    start = time.monotonic()
    for run in runs:
        run.start()
    deadline = start + env.timeout + _GRACE_S
    for run in runs:
        run.join(max(0.0, deadline - time.monotonic()))
    for run in runs:
        record = run.record
        if run.is_alive():
            record.timed_out = True
            record.ok = False
            record.seconds = round(time.monotonic() - start, 4)
            record.error = record.error or f"no answer within {env.timeout:g} s"
        elif run.result:
            try:
                _apply(facts, run.result)
            except (AttributeError, TypeError) as exc:
                record.ok = False
                record.error = f"bad probe result: {exc}"
        facts.probes.append(record)

    unknown = {run.record.name for run in runs if run.record.timed_out or not run.record.ok or not run.result}
    facts.coverage.not_available = sections_not_probed({r.name for r in facts.probes}, unknown)
    return facts


def _apply(facts: Facts, result: dict[str, Any]) -> None:
    for key, value in result.items():
        target: Any = facts
        *parents, attr = key.split(".")
        for parent in parents:
            target = getattr(target, parent)
        if not hasattr(target, attr):
            raise AttributeError(f"facts have no field {key!r}")
        setattr(target, attr, value)
