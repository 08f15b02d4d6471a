"""``data.driver-branch-conflict``: a driver branch is not both allowed and must-upgrade without a decision."""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Severity


@gate_rule("data.driver-branch-conflict", Severity.error,
           "A branch listed in both driver.forward_compatibility and driver.must_upgrade_branches has a "
           "driver.branch_resolutions entry; every resolution names such a branch.", order=110)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report unresolved contradictions and resolutions of branches that are not contradicted."""
    for doc, record in corpus.releases():
        driver = record.driver
        if driver is None:
            continue
        allowed = {fc.branch for fc in driver.forward_compatibility}
        resolved = {r.branch for r in driver.branch_resolutions}
        conflicts: set[int] = set()
        for index, branch in enumerate(driver.must_upgrade_branches):
            if branch in allowed:
                conflicts.add(branch)
                if branch not in resolved:
                    yield Issue(doc.path, ("driver", "must_upgrade_branches", index),
                                f"R{branch} is listed both under forward_compatibility and must_upgrade_branches; "
                                "add a branch_resolutions entry saying which one the record keeps, and why")
        for index, resolution in enumerate(driver.branch_resolutions):
            if resolution.branch not in conflicts:
                yield Issue(doc.path, ("driver", "branch_resolutions", index, "branch"),
                            f"R{resolution.branch} is not listed both as allowed and as must-upgrade; "
                            "this resolution resolves nothing", Severity.warning)
