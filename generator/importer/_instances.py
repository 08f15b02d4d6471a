"""Supported instances: the chips and instance types a page's "supported instances" table names.

Each data row gives a chip (``M890``) and its instance types
(``efg3.GP9A/efg3.GP9AS``); a last column saying "supported" is a status,
not a name.  The names go to ``gpu_support.models`` in page order.
"""

from __future__ import annotations

import re

from lingjun.generator.importer._blocks import ROW, Block

__all__ = ["read_instances"]

_STATUS_HEADER = re.compile(r"支持情况|状态|status|support", re.I)


def read_instances(section: list[Block]) -> list[str]:
    """Chip and instance-type names of the section's first table (empty when it has none)."""
    rows = [b for b in section if b.kind == ROW]
    if len(rows) < 2:
        return []
    header = rows[0].cells
    skip_last = bool(header) and bool(_STATUS_HEADER.search(header[-1]))
    models: list[str] = []
    for row in rows[1:]:
        cells = row.cells[:-1] if skip_last and len(row.cells) == len(header) else row.cells
        for cell in cells:
            for name in re.split(r"[/、,，\s]+", cell):
                if name and name not in models and len(name) <= 40:
                    models.append(name)
    return models
