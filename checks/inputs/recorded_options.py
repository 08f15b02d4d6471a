"""The options a snapshot records (``check_options``) and how a re-check applies them.

A pod that ran ``lingjun-check --collect - --require-gpu`` wrote a snapshot whose findings depend on
``--require-gpu``.  The snapshot records the options that change findings or the exit code
(:class:`~lingjun.checks.facts.CheckOptionsFacts`), and ``--from`` and ``lingjun-check fleet`` re-check it as
its own run did.  Explicit flags add to them: a flag given (``--require-gpu``, ``--strict``) turns the option
on, a value given (``--release``, ``--gpus-per-pod``, ``--model``) replaces the recorded one; nothing given
turns a recorded option off.  A snapshot without ``check_options`` (older than the key, or hand-written)
records nothing.  Standard library only.
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.facts import MAX_GPUS_PER_POD, CheckOptionsFacts
from lingjun.checks.knowledge.identify import UnknownReleaseError, identify

__all__ = ["merged_options", "identify_with"]


def merged_options(recorded: Optional[CheckOptionsFacts], require_gpu: bool = False, strict: bool = False,
                   gpus_per_pod: Optional[int] = None, release: Optional[str] = None,
                   model: Optional[str] = None) -> CheckOptionsFacts:
    """The options to check with: ``recorded`` (a snapshot's, or None for a live run) with the explicit ones added
    (see the module docstring).  A recorded ``gpus_per_pod`` below 1 or above :data:`MAX_GPUS_PER_POD` is dropped
    (a hand-edited snapshot)."""
    rec = recorded or CheckOptionsFacts()
    count = rec.gpus_per_pod
    kept_gpus = count if isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= MAX_GPUS_PER_POD else None
    return CheckOptionsFacts(
        require_gpu=bool(require_gpu or rec.require_gpu),
        strict=bool(strict or rec.strict),
        gpus_per_pod=gpus_per_pod if gpus_per_pod is not None else kept_gpus,
        release=release or (rec.release.strip() if isinstance(rec.release, str) and rec.release.strip() else None),
        model=model or (rec.model if isinstance(rec.model, str) and rec.model.strip() else None),
    )


def identify_with(facts: Any, data: Any, release: Optional[str], explicit: Optional[str], problems: list) -> Any:
    """:func:`~lingjun.checks.knowledge.identify.identify` with ``release``, the merged release option.

    When it is not the ``explicit`` one (it was recorded in the snapshot) and names no release in ``data`` (the
    snapshot's run had other release data), the release is identified from the facts instead and one line saying
    so is appended to ``problems`` (the snapshot problems, reported as findings).

    Raises:
        UnknownReleaseError: ``explicit`` names no known release.
    """
    try:
        return identify(facts, data, release)
    except UnknownReleaseError as exc:
        if explicit:
            raise
        from lingjun.checks.core.inert_text import NAME_LIMIT, capped

        problems.append(f"check_options.release: {capped(exc.ref, NAME_LIMIT)!r} names no release in this release data; "
                        f"the release is identified from the facts instead")
        return identify(facts, data, None)
