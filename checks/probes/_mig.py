"""The MIG device lines of ``nvidia-smi -L``, shared by the nvidia-smi probe and the collect_env parser.

``nvidia-smi -L`` prints each MIG device under its GPU::

    GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-...)
      MIG 3g.40gb     Device  0: (UUID: MIG-...)

(drivers before R470 wrote ``MIG-GPU-<uuid>/<gi>/<ci>`` UUIDs); torch's
collect_env prints the same listing with the ``(UUID: ...)`` parts removed.
Only the standard library is used.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["parse_mig_line"]

_MIG_RE = re.compile(r"^MIG\s+(\S+)\s+Device\s+(\d+)\s*:\s*(?:\(UUID:\s*([^)\s]+)\s*\))?")


def parse_mig_line(line: str) -> "Optional[tuple[str, int, Optional[str]]]":
    """``(profile, index, uuid)`` from one MIG line (``"  MIG 3g.40gb     Device  0: (UUID: MIG-...)"``).

    ``uuid`` is None when the line has none (collect_env drops it).  Returns None for any other line.
    """
    match = _MIG_RE.match(line.strip())
    if not match:
        return None
    return match.group(1), int(match.group(2)), match.group(3)
