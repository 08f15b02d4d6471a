"""Registry of the gate's cross-record rules.

A rule is a function ``(corpus) -> Iterable[Issue]`` in its own module under
:mod:`lingjun.schema.gate.rules`, registered with :func:`gate_rule`.  The
runner turns each :class:`Issue` into a positioned
:class:`~lingjun.schema.problems.Problem` carrying the rule's id.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Optional, Sequence, Union

from lingjun.schema.models import Severity

if TYPE_CHECKING:  # pragma: no cover
    from lingjun.schema.gate.corpus import Corpus

__all__ = ["Issue", "GateRule", "gate_rule", "GATE_RULES"]


@dataclass(frozen=True)
class Issue:
    """What a rule reports: a file, a location inside it, a message.

    Attributes:
        path: the document's file.
        loc: location inside the document, as the data is written
            (``("components", 3, "version")``); ``()`` for the whole file.
        message: what is wrong and how to fix it.
        severity: overrides the rule's default severity when given.
    """

    path: Path
    loc: Sequence[Union[str, int]]
    message: str
    severity: Optional[Severity] = None


RuleFunc = Callable[["Corpus"], Iterable[Issue]]


@dataclass(frozen=True)
class GateRule:
    """A registered rule: id (``data.<name>``), default severity, one-line description, function."""

    id: str
    severity: Severity
    description: str
    func: RuleFunc


#: id -> rule, in registration order
GATE_RULES: dict[str, GateRule] = {}


def gate_rule(id: str, severity: Severity, description: str) -> Callable[[RuleFunc], RuleFunc]:
    """Decorator registering a gate rule.

    Raises:
        ValueError: when the id does not start with ``data.`` or is registered twice.
    """

    def decorate(func: RuleFunc) -> RuleFunc:
        if not id.startswith("data."):
            raise ValueError(f"gate rule id {id!r} must start with 'data.'")
        if id in GATE_RULES:
            raise ValueError(f"gate rule {id!r} registered twice")
        GATE_RULES[id] = GateRule(id=id, severity=severity, description=description, func=func)
        return func

    return decorate
