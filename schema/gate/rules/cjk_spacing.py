"""``data.cjk-spacing``: no stray space between two Chinese characters.

YAML's folded blocks (``zh: >-``) join their lines with a space.  Between
two Chinese characters or full-width punctuation marks that space is a
typo a reader sees ("仅 华北2"), so it is reported with the remedy: keep the
Chinese sentence on one line, or break the line next to a Latin word.
"""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.gate.walk import iter_instances
from lingjun.schema.models import LocalizedText, Severity

#: a CJK ideograph or a CJK/full-width punctuation mark
_WIDE = r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
_STRAY = re.compile(rf"({_WIDE})[ \t]+({_WIDE})")


def stray_space(text: str) -> str | None:
    """The first ``"字 字"`` pair separated by a space in ``text``, or None."""
    match = _STRAY.search(text)
    return match.group(0) if match else None


@gate_rule("data.cjk-spacing", Severity.warning,
           "Chinese text has no space between two Chinese characters (a YAML folded block joins its lines with one).", order=220)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Check the ``zh`` side of every :class:`LocalizedText`."""
    for doc in corpus.documents:
        for loc, text in iter_instances(doc.model, LocalizedText):
            found = stray_space(text.zh)
            if found:
                yield Issue(doc.path, loc + ("zh",),
                            f"stray space in the Chinese text ({found!r}): a folded block joins lines with a space; "
                            f"keep the Chinese sentence on one line or break it next to a Latin word")
