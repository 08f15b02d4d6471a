"""Registry of the gate's cross-record rules: :class:`GateRule`, the :func:`gate_rule` decorator and :data:`GATE_RULES`.

A rule is a function ``(corpus) -> Iterable[Issue]`` in its own module under
:mod:`lingjun.schema.gate.rules`, registered with :func:`gate_rule`.  The
runner turns each :class:`~lingjun.schema.gate.issue.Issue` into a positioned
:class:`~lingjun.schema.problems.Problem` carrying the rule's id.  Rules run,
and ``validate --list-rules`` lists them, in ascending ``order``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from lingjun.checks.core.registry import LAST, Registry
from lingjun.schema.gate.issue import Issue
from lingjun.schema.models import Severity

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.schema.gate.corpus import Corpus

__all__ = ["GateRule", "gate_rule", "GATE_RULES"]

RuleFunc = Callable[["Corpus"], Iterable[Issue]]

@dataclass(frozen=True)
class GateRule:
    """A registered rule: id (``data.<name>``), default severity, one-line description, function, position."""

    id: str
    severity: Severity
    description: str
    func: RuleFunc
    #: position in runs and listings (ascending; ties by id)
    order: int = LAST
    #: kinds of catalog document the rule reads (``components``, ``families``): when a file of one of these
    #: kinds fails the schema, the rule does not run (it would report every reference to the catalog as
    #: missing) and ``data.catalog-not-loaded`` says so once per file; ``checker_rules``: the ids of lingjun-check's
    #: rules, which the caller gives (:attr:`~lingjun.schema.gate.corpus.Corpus.checker_rules`), else it does not run
    needs: tuple[str, ...] = ()


#: id -> rule, in ``order``
GATE_RULES: Registry[GateRule] = Registry("gate rule", '@gate_rule("data.<name>", severity, description)')


def gate_rule(id: str, severity: Severity, description: str, order: int = LAST,
              needs: tuple[str, ...] = ()) -> Callable[[RuleFunc], RuleFunc]:
    """Decorator registering a gate rule in :data:`GATE_RULES`.

    Args:
        order: position in runs and listings (ascending).
        needs: document kinds the rule reads as catalogs (:attr:`GateRule.needs`).
    Raises:
        ValueError: when the id does not start with ``data.`` or is registered twice.
    """

    def decorate(func: RuleFunc) -> RuleFunc:
        if not id.startswith("data."):
            raise ValueError(f"gate rule id {id!r} must start with 'data.'")
        GATE_RULES.add(id, GateRule(id=id, severity=severity, description=description, func=func, order=order,
                                        needs=tuple(needs)), func.__module__)
        return func

    return decorate
