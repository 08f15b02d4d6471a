"""Checker rules, one small module each, found by :func:`load_rules`.

Every module whose name does not start with ``_`` must register at least one
rule with :func:`rule`; modules starting with ``_`` are helpers shared by the rules.
"""

from __future__ import annotations

from lingjun.checks.rules._registry import RULES, RuleSpec, rule

__all__ = ["RULES", "RuleSpec", "rule", "load_rules"]


def load_rules() -> list[RuleSpec]:
    """Import every rule module (registering it) and return the rules in ``order``.

    Raises:
        lingjun.checks.core.registry.RegistrationError: when a rule module is broken or registered nothing (the message names its file).
    """
    import lingjun.checks.rules as package  # deferred: the package itself

    return list(RULES.discover(package).values())
