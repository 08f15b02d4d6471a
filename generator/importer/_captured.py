"""Which sections of the page its copy does not show: the record's ``not_captured`` list.

Copies made from a stored excerpt mark what they could not show:
``(不可见)`` or "not visible" in a section says that section was not
seen; a marker saying everything *after* it is missing (``此后…不可见``,
"the rest is not visible") in the copy's last section says the copy ends
there, so every section of a release page not seen before it is not
captured either.  Only the record's page sections are named
(:class:`lingjun.schema.models.RecordSection`); a copy without markers
yields nothing (a section it lacks is then simply not recorded).
"""

from __future__ import annotations

import re

from lingjun.generator.importer._blocks import Block

__all__ = ["not_captured", "UNSEEN", "REST_UNSEEN"]

#: a copy's mark for text it could not show
UNSEEN = re.compile(r"不可见|not visible|\(the rest", re.I)
#: a mark that everything after it is missing
REST_UNSEEN = re.compile(r"此后|the rest|everything after", re.I)

#: page sections a record can name, in the order the records list them
#: (``driver``: the driver requirement, dropped by the caller when the copy states one elsewhere)
_RECORD_SECTIONS = ("highlights", "bug_fixes", "features", "known_issues", "usage_notes", "quick_start", "driver")


def _marked(blocks: list[Block], pattern: re.Pattern) -> bool:
    # one search over the section's text joined (a block per search would cost a call per line)
    return bool(pattern.search("\n".join(b.text for b in blocks))
                or pattern.search("\n".join(c for b in blocks if b.cells for c in b.cells)))


def not_captured(sections: dict[str, list[Block]]) -> list[str]:
    """The record sections the copy does not show, in :data:`_RECORD_SECTIONS` order.

    Args:
        sections: the page's sections in page order (see :func:`._sections.split_sections`).
    """
    missing = {key for key, blocks in sections.items() if key in _RECORD_SECTIONS and _marked(blocks, UNSEEN)}
    filled = [key for key, blocks in sections.items() if blocks]
    if filled:
        last = sections[filled[-1]]
        if _marked(last, UNSEEN) and _marked(last, REST_UNSEEN):
            missing.update(key for key in _RECORD_SECTIONS if key not in sections)
            if filled[-1] in _RECORD_SECTIONS:
                missing.add(filled[-1])
    return [key for key in _RECORD_SECTIONS if key in missing]
