"""The importer's one exception: a page (or an argument) it refuses, with the reason in words."""

from __future__ import annotations

__all__ = ["ImportRefused", "USAGE", "REFUSED"]

#: exit status of a refused page or a bad argument (the page is unusable as given)
USAGE = 2
#: exit status of a refusal about the knowledge base (unknown family, the record file exists)
REFUSED = 1


class ImportRefused(Exception):
    """Why ``lingjun-kb import`` refused a page: one line, never the page's text.

    Attributes:
        reason: the sentence printed after ``lingjun-kb import: PAGE:``.
        status: the exit status (:data:`USAGE` for an unreadable or unrecognised page, :data:`REFUSED` for a
            refusal about the knowledge base).
    """

    def __init__(self, reason: str, status: int = USAGE):
        super().__init__(reason)
        self.reason = reason
        self.status = status
