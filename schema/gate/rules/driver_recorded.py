"""``data.driver-recorded``: a release of an NVIDIA GPU product family records its driver requirement.

Without a ``driver`` section the site cannot bound any verdict by the
release's own minimum, so every cell of the release in the driver matrix
reads "not stated".  That is honest but usually an omission: the rule warns,
so a record that really has no published requirement is a reviewed choice.
Upstream base families (role ``base``) are references, not our images, and
are left out.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import Accelerator, FamilyRole, Severity


@gate_rule("data.driver-recorded", Severity.warning,
           "A release of an NVIDIA GPU family records its driver requirement (driver section); without it every "
           "driver-matrix cell of the release is 'not stated'.", order=78, needs=("families",))
def check(corpus: Corpus) -> Iterator[Issue]:
    """Warn for each release of an ``nvidia-gpu`` product family that has no ``driver`` section."""
    for doc, record in corpus.releases():
        family = corpus.kb.families.get(record.family)
        if (family is None or family.role is not FamilyRole.product
                or family.accelerator is not Accelerator.nvidia_gpu or record.driver is not None):
            continue
        yield Issue(doc.path, ("driver",),
                    f"{record.ref} records no driver requirement; the driver matrix shows every branch as not "
                    "stated for it. Add the page's driver section (minimum, forward-compatibility and must-upgrade "
                    "branches), with text_truncated: true if our copy is cut off")
