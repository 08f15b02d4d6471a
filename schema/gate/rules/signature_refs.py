"""``data.signature-refs``: what an error signature names exists.

Its ``components`` and the components of its causes' conditions are catalog ids, its ``known_issues``
are files under ``releases/known-issues/``, its ``overlaps`` are other signatures, and its ``rules`` and
its causes' ``rules`` are lingjun-check rule ids.  Known issues' ``signatures`` name signatures that exist.
"""

from __future__ import annotations

import difflib
from typing import Iterable, Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity

__all__ = ["check"]


def _hint(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


@gate_rule("data.signature-refs", Severity.error,
           "Components, known issues, overlaps and checker rules named by error signatures exist; known issues name existing signatures.",
           order=252, needs=("components", "checker_rules"))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every name an error signature (or a known issue's ``signatures``) gives that nothing defines."""
    components = corpus.kb.components
    issues = corpus.kb.known_issues
    unloaded_issues = corpus.rejected_known_issues
    signatures = {signature.id for _, signature in corpus.signatures()}
    signatures |= {r.path.stem for r in corpus.rejected if r.kind == "error-signature"}
    rules = corpus.checker_rules or frozenset()

    def rule_issues(path, loc, names):
        for index, name in enumerate(names):
            if name not in rules:
                yield Issue(path, loc + (index,), f"{name!r} is not a lingjun-check rule{_hint(name, rules)}")

    for doc, signature in corpus.signatures():
        for index, component in enumerate(signature.components):
            if component not in components:
                yield Issue(doc.path, ("components", index),
                            f"component {component!r} is not in releases/components.yaml{_hint(component, components)}")
        for index, issue_id in enumerate(signature.known_issues):
            if issue_id not in issues and issue_id not in unloaded_issues:
                hint = _hint(issue_id, issues) or f"; add releases/known-issues/{issue_id}.yaml"
                yield Issue(doc.path, ("known_issues", index), f"known issue {issue_id!r} does not exist{hint}")
        for index, other in enumerate(signature.overlaps):
            if other not in signatures or other == signature.id:
                what = "is this signature itself" if other == signature.id else "does not exist" + (
                    _hint(other, signatures) or f"; add releases/troubleshooting/{other}.yaml")
                yield Issue(doc.path, ("overlaps", index), f"signature {other!r} {what}")
        yield from rule_issues(doc.path, ("rules",), signature.rules)
        for c_index, cause in enumerate(signature.causes):
            yield from rule_issues(doc.path, ("causes", c_index, "rules"), cause.rules)
            if cause.condition is not None:
                for component in cause.condition.components:
                    if component not in components:
                        yield Issue(doc.path, ("causes", c_index, "condition", "components", component),
                                    f"component {component!r} is not in releases/components.yaml{_hint(component, components)}")
    for doc, issue in corpus.known_issues():
        for index, signature_id in enumerate(issue.signatures):
            if signature_id not in signatures:
                hint = _hint(signature_id, signatures) or f"; add releases/troubleshooting/{signature_id}.yaml"
                yield Issue(doc.path, ("signatures", index), f"error signature {signature_id!r} does not exist{hint}")
