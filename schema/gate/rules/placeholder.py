"""``data.placeholder``: no placeholder left by ``lingjun-kb new`` remains.

Two kinds of placeholder are refused:

* text holding the marker :data:`~lingjun.schema.placeholders.PLACEHOLDER`
  or the id :data:`~lingjun.schema.placeholders.PLACEHOLDER_ID` in a release record (the id also
  stands in for what fits only an id: a known issue, a tag that cannot be derived,
  ``todo.lingjun-kb-new-1``, and a runtime's build, ``cosmos-framework/todo.lingjun-kb-new``);
* an address whose host is in the ``.invalid`` top-level domain, in any
  document.  RFC 2606 reserves ``.invalid`` for names that can never
  resolve, so such an address can only be a stand-in (``lingjun-kb new``
  writes ``https://todo.invalid/...`` as the source to replace).
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.gate.walk import iter_strings
from lingjun.schema.models import Severity
from lingjun.schema.placeholders import PLACEHOLDER, PLACEHOLDER_ID


#: ``scheme://authority`` anywhere in a text; the authority may hold user info and a port
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://([^/\s?#\"'<>\\]+)")


def invalid_host(text: str) -> Optional[str]:
    """The first address in ``text`` whose host is ``invalid`` or ends in ``.invalid`` (case-insensitive), or None.

    >>> invalid_host("see https://todo.invalid/page")
    'https://todo.invalid/page'
    >>> invalid_host("https://invalid.example.com/") is None
    True
    """
    for match in _ADDRESS.finditer(text):
        host = match.group(1).rpartition("@")[2]
        host = host[1:host.find("]")] if host.startswith("[") else host.partition(":")[0]
        host = host.rstrip(".").lower()
        if host == "invalid" or host.endswith(".invalid"):
            end = match.end()
            while end < len(text) and not text[end].isspace():
                end += 1
            return text[match.start():end]
    return None


@gate_rule("data.placeholder", Severity.error,
           f"No text still holds the {PLACEHOLDER} (or id {PLACEHOLDER_ID}) marker that `lingjun-kb new` writes, "
           "and no address points into the reserved .invalid domain.", order=130)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Report every string holding the placeholder marker, and every ``.invalid`` address."""
    for doc in corpus.documents:
        dumped = doc.model.model_dump_json()
        markers = doc.kind == "release" and (PLACEHOLDER in dumped or PLACEHOLDER_ID in dumped)
        addresses = ".invalid" in dumped.lower()
        if not (markers or addresses):
            continue  # the JSON dump is a fast pre-filter; the walk below finds the places
        for loc, text in iter_strings(doc.model):
            if markers and (PLACEHOLDER in text or PLACEHOLDER_ID in text):
                yield Issue(doc.path, loc, f"placeholder not filled in: {text!r}; write the real value or remove the entry")
                continue
            address = invalid_host(text) if addresses else None
            if address is not None:
                yield Issue(doc.path, loc, f"placeholder address {address!r}: the .invalid domain is reserved for "
                                           "names that never resolve; write the real address or remove the entry")
