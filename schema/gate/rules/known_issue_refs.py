"""``data.known-issue-refs``: known issues named by release records exist."""

from __future__ import annotations

import difflib
from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity
from lingjun.schema.placeholders import PLACEHOLDER_ID


@gate_rule("data.known-issue-refs", Severity.error,
           "Every id in a release's known_issues and bug_fixes[].known_issue is a file under releases/known-issues/.", order=140)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report known-issue ids that no ``known-issues/<id>.yaml`` defines (a file that exists but failed the schema
    is not reported here: its own errors are)."""
    issues = corpus.kb.known_issues
    unloaded = corpus.rejected_known_issues  # their files' own errors are reported: not "does not exist"

    def message(issue_id: str) -> str:
        close = difflib.get_close_matches(issue_id, list(issues), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f"; add releases/known-issues/{issue_id}.yaml"
        return f"known issue {issue_id!r} does not exist{hint}"

    for doc, record in corpus.releases():
        for index, issue_id in enumerate(record.known_issues):
            if issue_id not in issues and issue_id not in unloaded and issue_id != PLACEHOLDER_ID:  # data.placeholder reports that one
                yield Issue(doc.path, ("known_issues", index), message(issue_id))
        for index, fix in enumerate(record.bug_fixes):
            if fix.known_issue is not None and fix.known_issue not in issues and fix.known_issue not in unloaded:
                yield Issue(doc.path, ("bug_fixes", index, "known_issue"), message(fix.known_issue))
