"""What a gate rule reports: :class:`Issue`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

from lingjun.schema.models import Severity

__all__ = ["Issue"]


@dataclass(frozen=True)
class Issue:
    """What a rule reports: a file, a location inside it, a message.

    Attributes:
        path: the document's file.
        loc: location inside the document, as the data is written
            (``("components", 3, "version")``); ``()`` for the whole file.
        message: what is wrong and how to fix it.
        severity: overrides the rule's default severity when given.
    """

    path: Path
    loc: Sequence[Union[str, int]]
    message: str
    severity: Optional[Severity] = None
