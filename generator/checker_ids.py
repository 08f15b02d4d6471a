"""The ids of lingjun-check's rules, which the data gate checks usage notes and error signatures against.

The gate (``lingjun.schema``) never imports the checker's rules (dependencies point one way: generator -> schema ->
the checker's core); the commands that run it read the ids here, from the checker's registry, and pass them on.
"""

from __future__ import annotations

from lingjun.checks.rules import load_rules

__all__ = ["checker_rule_ids"]


def checker_rule_ids() -> frozenset[str]:
    """Every registered rule id of :data:`lingjun.checks.rules.RULES` (``driver.minimum``, ...).

    Raises:
        lingjun.checks.core.registry.RegistrationError: a checker rule module registers nothing (its file named).
    """
    return frozenset(spec.id for spec in load_rules())
