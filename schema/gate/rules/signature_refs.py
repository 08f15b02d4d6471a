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
    signatures = {signature.id for _, signature in corpus.signatures()}
    signatures |= {r.path.stem for r in corpus.rejected if r.kind == "error-signature"}
    rules = corpus.checker_rules or frozenset()
    for doc, signature in corpus.signatures():
        yield from _components(corpus, doc.path, ("components",), signature.components, by_index=True)
        yield from _issue_refs(corpus, doc.path, signature.known_issues)
        yield from _overlaps(doc.path, signature, signatures)
        yield from _rule_refs(doc.path, ("rules",), signature.rules, rules)
        for c_index, cause in enumerate(signature.causes):
            yield from _rule_refs(doc.path, ("causes", c_index, "rules"), cause.rules, rules)
            if cause.condition is not None:
                yield from _components(corpus, doc.path, ("causes", c_index, "condition", "components"),
                                       cause.condition.components, by_index=False)
    for doc, issue in corpus.known_issues():
        for index, signature_id in enumerate(issue.signatures):
            if signature_id not in signatures:
                hint = _hint(signature_id, signatures) or f"; add releases/troubleshooting/{signature_id}.yaml"
                yield Issue(doc.path, ("signatures", index), f"error signature {signature_id!r} does not exist{hint}")


def _rule_refs(path, loc: tuple, names, rules) -> Iterator[Issue]:
    """An error per name of ``names`` that is no registered lingjun-check rule (located at ``loc + (index,)``)."""
    for index, name in enumerate(names):
        if name not in rules:
            yield Issue(path, loc + (index,), f"{name!r} is not a lingjun-check rule{_hint(name, rules)}")


def _components(corpus: Corpus, path, loc: tuple, names, *, by_index: bool) -> Iterator[Issue]:
    """An error per component id of ``names`` not in the catalog, located by its index in the list (``by_index``)
    or, for a condition's mapping, by the id itself."""
    components = corpus.kb.components
    for index, component in enumerate(names):
        if component not in components:
            yield Issue(path, loc + ((index,) if by_index else (component,)),
                        f"component {component!r} is not in releases/components.yaml{_hint(component, components)}")


def _issue_refs(corpus: Corpus, path, issue_ids) -> Iterator[Issue]:
    """An error per known issue id that no record (loaded or rejected) defines."""
    issues = corpus.kb.known_issues
    for index, issue_id in enumerate(issue_ids):
        if issue_id not in issues and issue_id not in corpus.rejected_known_issues:
            hint = _hint(issue_id, issues) or f"; add releases/known-issues/{issue_id}.yaml"
            yield Issue(path, ("known_issues", index), f"known issue {issue_id!r} does not exist{hint}")


def _overlaps(path, signature, signatures: set[str]) -> Iterator[Issue]:
    """An error per ``overlaps`` entry naming no signature, or the signature itself."""
    for index, other in enumerate(signature.overlaps):
        if other not in signatures or other == signature.id:
            what = "is this signature itself" if other == signature.id else "does not exist" + (
                _hint(other, signatures) or f"; add releases/troubleshooting/{other}.yaml")
            yield Issue(path, ("overlaps", index), f"signature {other!r} {what}")
