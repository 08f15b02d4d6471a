"""``data.driver-branch-range``: every driver branch a record names is a plausible NVIDIA branch number.

The schema bounds ``forward_compatibility[].branch`` and
``branch_resolutions[].branch`` from below only and leaves
``driver.must_upgrade_branches`` unbounded, so a typo (``-535``, ``0``,
``5700``) or a made-up number would pass it.  NVIDIA data center branches
are three-digit numbers (R470, R535, R570); the bound here is the same
100-9999 range :class:`lingjun.checks.versions.DriverVersion` parses (2-4
digits, at least the schema's 100).
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.gate.corpus import Corpus
from lingjun.checks.gate.registry import Issue, gate_rule
from lingjun.schema.models import Severity

#: lowest and highest branch number accepted (inclusive)
BRANCH_MIN, BRANCH_MAX = 100, 9999


@gate_rule("data.driver-branch-range", Severity.error,
           f"Driver branches named in driver.must_upgrade_branches, forward_compatibility and branch_resolutions "
           f"are numbers from {BRANCH_MIN} to {BRANCH_MAX} (R535 is written 535).")
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every branch number of a release's driver requirement outside ``BRANCH_MIN..BRANCH_MAX``."""
    for doc, record in corpus.releases():
        driver = record.driver
        if driver is None:
            continue
        named = [(("driver", "must_upgrade_branches", i), b) for i, b in enumerate(driver.must_upgrade_branches)]
        named += [(("driver", "forward_compatibility", i, "branch"), fc.branch)
                  for i, fc in enumerate(driver.forward_compatibility)]
        named += [(("driver", "branch_resolutions", i, "branch"), r.branch)
                  for i, r in enumerate(driver.branch_resolutions)]
        for loc, branch in named:
            if not BRANCH_MIN <= branch <= BRANCH_MAX:
                yield Issue(doc.path, loc, f"{branch} is not a driver branch number; write the branch as a number "
                                           f"from {BRANCH_MIN} to {BRANCH_MAX}, e.g. 535 for R535")
