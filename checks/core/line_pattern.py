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
from typing import Callable, Optional

__all__ = ["matches"]


def _search(regex: "re.Pattern[str]", line: str) -> bool:
    return regex.search(line) is not None


def matches(literal: str, regex: "Optional[re.Pattern[str]]", line: str,
            search: "Callable[[re.Pattern[str], str], Optional[bool]]" = _search) -> Optional[bool]:
    """True when ``line`` holds ``literal`` and ``regex`` (if any) is found in it by ``search`` (the checker passes one
    that gives up after a time limit); None when ``line`` holds the literal and ``search`` gave up (returned None)."""
    return literal in line and (regex is None or search(regex, line))
