"""The remedies ``lingjun-check`` prints for one release, in the words it prints them, for the site's pages.

A release page and the checker-rules page show what the checker tells a user of that release when its driver
is too old or when the image's own builds were replaced, so the page and the report never disagree: the text
comes from the same functions the rules call (:func:`lingjun.checks.rules._driver_facts.driver_fix_text`,
:func:`lingjun.checks.rules._remedies.restore_remedy`), over a context that holds the release's record and
no facts about a node (so nothing here depends on a GPU, a driver or a torch build that was never observed).

Standard library only (the checker's own modules).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, Optional

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge._image_view import image_record
from lingjun.checks.knowledge.release_record import release_from_dict
from lingjun.checks.report.findings import Text
from lingjun.checks.rules._driver_facts import driver_upgrade_remedy, release_minimum
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.rules._remedies import CONSTRAINTS_COMMANDS, image_references, restore_remedy

__all__ = ["ReleaseRemedy", "release_remedies"]

#: situation -> (what the user sees, en / zh); the remedy is computed
SITUATIONS = {
    "driver": ("The host driver is older than this release needs",
               "宿主机驱动低于该发布的要求"),
    "image-builds": ("A pip install replaced one of the image's own builds ({names})",
                     "pip install 替换了镜像自带的构建（{names}）"),
}


@dataclass(frozen=True)
class ReleaseRemedy:
    """One remedy as the checker prints it for a release.

    Attributes:
        situation: ``"driver"`` or ``"image-builds"`` (a key of :data:`SITUATIONS`).
        when: what the user sees, both languages.
        remedy: the remedy sentence exactly as the report prints it, both languages.
        rules: the checker rules that print it (ids, in report order).
        variant: the image variant it is for (``vllm``), None for a release with one image.
        code: the commands, image references and versions inside ``remedy`` (a page shows them as code).
    """

    situation: str
    when: Text
    remedy: Text
    rules: tuple[str, ...]
    variant: Optional[str] = None
    code: tuple[str, ...] = ()


def _context(record: dict[str, Any], data: KnowledgeData, today: dt.date, variant: Optional[str]) -> CheckContext:
    ref = f"{record.get('family')}:{record.get('version')}"
    match = ReleaseMatch(ref=ref, how="option", record=image_record(record, variant_id=variant), variant=variant)
    return CheckContext(facts=Facts(), data=data, release=match, options=CheckOptions(today=today))


def release_remedies(record: dict[str, Any], data: KnowledgeData, today: Optional[dt.date] = None) -> list[ReleaseRemedy]:
    """The driver and image-build remedies ``lingjun-check`` prints for ``record`` (bundle form), on ``today``.

    * ``driver``: when the record states an NVIDIA driver minimum, the upgrade sentence of ``driver.minimum``
      (the one driver target of the report, which every other driver remedy names too: the newest supported
      branch that meets the release's minimum and its CUDA's, end of life computed against ``today``; a node's
      torch build or an older GPU can only add requirements the page does not know).
    * ``image-builds``: when the record lists packages that are the image's own builds (``+nv25.3``, ``+ali``),
      the remedy of ``packages.image-build-replaced``: a fresh container from the release's image reference and
      the constraints-file command.

    A release with variants gets the remedies of each variant (``variant`` set), one shared remedy once.
    Returns an empty list for a record that states neither (a PPU release without an NVIDIA driver minimum and
    without modified builds).
    """
    variants = [v.id for v in release_from_dict(record).variants]
    found: list[ReleaseRemedy] = []
    for variant in variants or [None]:
        for remedy in _remedies(_context(record, data, today or dt.date.today(), variant)):
            shared = next((r for r in found if (r.situation, r.remedy) == (remedy.situation, remedy.remedy)), None)
            if shared is None:
                found.append(dataclasses.replace(remedy, variant=variant if len(variants) > 1 else None))
            elif shared.variant is not None:  # the same for several variants: shown once, for the release
                found[found.index(shared)] = dataclasses.replace(shared, variant=None)
    return found


def _remedies(ctx: CheckContext) -> list[ReleaseRemedy]:
    found: list[ReleaseRemedy] = []
    if release_minimum(ctx) is not None:
        en, zh = SITUATIONS["driver"]
        found.append(ReleaseRemedy("driver", Text(en, zh), driver_upgrade_remedy(ctx),
                                   ("driver.minimum",)))
    builds = [p for p in record_packages(ctx) if p.image_build]
    if builds:
        names = ", ".join(f"{p.catalog.label} {p.published}" for p in builds[:4])
        en, zh = SITUATIONS["image-builds"]
        found.append(ReleaseRemedy("image-builds", Text(en.format(names=names), zh.format(names=names)),
                                   restore_remedy(ctx, builds[:1]),
                                   ("packages.image-build-replaced", "packages.version-mismatch"),
                                   code=(*image_references(ctx), *CONSTRAINTS_COMMANDS, *(p.published for p in builds))))
    return found
