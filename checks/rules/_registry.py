"""Registry of checker rules: :class:`RuleSpec`, the :func:`rule` decorator and :data:`RULES`.

Each rule is a function in its own module under :mod:`lingjun.checks.rules`,
registered with :func:`rule`.  It takes a :class:`~lingjun.checks.context.CheckContext`
and yields :class:`~lingjun.checks.report.findings.Finding` objects.  A rule that
raises is reported by the runner as an ``internal`` error finding for that
rule; it never aborts the report.  Reports, ``--list-rules`` and the site
list rules in ascending ``order`` (areas in report order, then the rule's
place inside its area).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from lingjun.checks.core.registry import LAST, Registry
from lingjun.checks.coverage import SECTIONS
from lingjun.checks.report.findings import Finding, Text
from lingjun.checks.report.model import AREAS

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.checks.context import CheckContext

__all__ = ["RuleSpec", "rule", "RULES"]

RuleFunc = Callable[["CheckContext"], Iterable[Finding]]

@dataclass(frozen=True)
class RuleSpec:
    """A registered rule: id (``area.name``), report area, one-line title in both languages, and its function."""

    id: str
    area: str
    title: Text
    func: RuleFunc
    #: needs an NVIDIA driver in the container; reported as skipped without one
    needs_gpu: bool = False
    #: position in reports and listings (ascending; ties by id)
    order: int = LAST
    #: facts sections (:data:`lingjun.checks.coverage.SECTIONS`) the rule cannot judge without; when the input does
    #: not carry one of them the runner reports the rule skipped, naming what is missing
    needs: tuple[str, ...] = ()


#: id -> rule, in ``order``
RULES: Registry[RuleSpec] = Registry("checker rule", "@rule(id, area, title_en, title_zh)")


def rule(
    id: str, area: str, title_en: str, title_zh: str, needs_gpu: bool = False, order: int = LAST, needs: tuple[str, ...] = ()
) -> Callable[[RuleFunc], RuleFunc]:
    """Decorator registering a checker rule in :data:`RULES`.

    Args:
        order: position in reports and listings (ascending).
        needs: facts sections the rule cannot judge without (see :mod:`lingjun.checks.coverage`).
    Raises:
        ValueError: when the id is registered twice.
        KeyError: when ``area`` is not a report section (:data:`lingjun.checks.report.model.AREAS`) or ``needs``
            names a facts section that does not exist.
    """
    if area not in AREAS:  # a section of its own, untitled in both languages and missing from the site's page
        raise KeyError(f"rule {id}: area {area!r} is not a report area (known: {', '.join(AREAS)})")
    for section in needs:
        if section not in SECTIONS:
            raise KeyError(f"rule {id}: needs names unknown facts section {section!r} (known: {', '.join(SECTIONS)})")

    def decorate(func: RuleFunc) -> RuleFunc:
        spec = RuleSpec(id=id, area=area, title=Text(title_en, title_zh), func=func, needs_gpu=needs_gpu, order=order, needs=tuple(needs))
        RULES.add(id, spec, func.__module__)
        return func

    return decorate
