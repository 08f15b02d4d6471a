"""Whether a log line matches an error signature's pattern: the one definition the gate and the checker share.

A pattern (:class:`lingjun.schema.models.SignaturePattern`) matches a line when the line contains its
``literal`` (case-sensitive) and, when it has one, its ``regex`` is found in the line (``re.search``).
Standard library only.

>>> matches("posix_fallocate failed", None, "NCCL WARN Call to posix_fallocate failed : No space left on device")
True
>>> import re
>>> matches("posix_fallocate failed", re.compile("Invalid argument"), "Call to posix_fallocate failed : No space left")
False
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["matches"]


def matches(literal: str, regex: "Optional[re.Pattern[str]]", line: str) -> bool:
    """True when ``line`` holds ``literal`` and ``regex`` (if any) is found in it."""
    return literal in line and (regex is None or regex.search(line) is not None)
