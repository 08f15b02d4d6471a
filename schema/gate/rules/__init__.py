"""The gate's cross-record rules, one module per rule, found by :func:`load_rules`.

Every module whose name does not start with ``_`` must register at least one
rule with :func:`gate_rule`.
"""

from __future__ import annotations

from lingjun.schema.gate.rules._registry import GATE_RULES, GateRule, gate_rule

__all__ = ["GATE_RULES", "GateRule", "gate_rule", "load_rules"]


def load_rules() -> dict[str, GateRule]:
    """Import every rule module (registering it) and return the rules as ``id -> rule`` in ``order``.

    Raises:
        lingjun.checks.core.registry.RegistrationError: when a rule module is broken or registered nothing (the message names its file).
    """
    import lingjun.schema.gate.rules as package  # deferred: the package itself

    GATE_RULES.discover(package)
    return dict(GATE_RULES)
