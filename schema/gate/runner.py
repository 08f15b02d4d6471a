"""Run every registered gate rule over a corpus and position what they report."""

from __future__ import annotations

from typing import Collection, Iterable, Optional

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.rules import load_rules
from lingjun.schema.loader import locate
from lingjun.schema.problems import Problem, Severity, field_path

__all__ = ["run_gate", "load_rules"]


def run_gate(corpus: Corpus, only: Optional[Iterable[str]] = None,
             checker_rules: Optional[Collection[str]] = None) -> list[Problem]:
    """Run the gate rules over ``corpus``.

    Args:
        corpus: every document that passed the schema (:meth:`Corpus.from_documents`).
        only: rule ids to run (all registered rules when None).
        checker_rules: the ids of lingjun-check's rules (the caller reads them from the checker's registry:
            :func:`lingjun.generator.checker_ids.checker_rule_ids`); None: the rules that check the names usage
            notes and signatures give (``needs=("checker_rules",)``) do not run.

    Returns:
        The problems found, each with its file, line and column.  A rule that
        raises is reported as one ``internal`` error naming the rule; it never
        stops the other rules.

    Raises:
        lingjun.checks.core.registry.RegistrationError: a gate rule module registers nothing.
    """
    rules = load_rules()
    if checker_rules is not None:
        corpus.checker_rules = frozenset(checker_rules)
    wanted = set(only) if only is not None else None
    problems: list[Problem] = []
    unloaded = corpus.unloaded_catalog_kinds
    for rule in rules.values():
        if wanted is not None and rule.id not in wanted:
            continue
        if unloaded.intersection(rule.needs):
            continue  # data.catalog-not-loaded says which catalog did not load and which rules did not run
        if "checker_rules" in rule.needs and corpus.checker_rules is None:
            continue  # no checker rule ids given: the names they check cannot be checked
        try:
            issues = list(rule.func(corpus))
        except Exception as exc:  # noqa: BLE001 - one broken rule must not hide the others
            problems.append(Problem("<gate>", None, None, "", f"rule {rule.id} failed: {type(exc).__name__}: {exc}",
                                    Severity.error, "internal"))
            continue
        for issue in issues:
            line, col, shown = locate(issue.path, tuple(issue.loc))
            problems.append(Problem(str(issue.path), line, col, shown or field_path(issue.loc), issue.message,
                                    issue.severity or rule.severity, rule.id))
    return problems
