"""``data.cjk-spacing``: no stray space between two Chinese characters or after Chinese punctuation.

YAML's folded blocks (``zh: >-``) join their lines with a space.  Between
two Chinese characters or full-width punctuation marks that space is a
typo a reader sees ("仅 华北2"), and so is a space after a Chinese
punctuation mark even when a Latin word follows ("2.23.4.11、 Transformers",
"驱动。 training-nv-pytorch"): Chinese punctuation carries its own spacing.
Both are reported with the remedy: keep the Chinese sentence on one line, or
break the line next to a Latin word that does not follow a punctuation mark.
The rule reads the loaded string, so it sees the spaces folding creates.
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
#: Chinese (full-width) punctuation that is never followed by a space: commas, stops, colons,
#: question and exclamation marks, closing brackets and quotes
CJK_PUNCTUATION = "，。、；：？！）」』】》〉〕〗〙〛”’…—～"
_STRAY = re.compile(rf"({_WIDE})[ \t]+({_WIDE})|([{CJK_PUNCTUATION}])[ \t]+(\S)")


def stray_space(text: str) -> str | None:
    """The first stray space in ``text`` with its neighbours, or None.

    A stray space sits between two Chinese characters or punctuation marks
    (``"字 字"``), or after a Chinese punctuation mark before anything else
    (``"、 Transformers"`` gives ``"、 T"``).  Trailing spaces at the end of the
    text are not reported here.
    """
    match = _STRAY.search(text)
    return match.group(0) if match else None


@gate_rule("data.cjk-spacing", Severity.warning,
           "Chinese text has no space between two Chinese characters or after Chinese punctuation (a YAML folded block joins its lines with one).", order=220)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Check the ``zh`` side of every :class:`LocalizedText`."""
    for doc in corpus.documents:
        for loc, text in iter_instances(doc.model, LocalizedText):
            found = stray_space(text.zh)
            if found:
                yield Issue(doc.path, loc + ("zh",),
                            f"stray space in the Chinese text ({found!r}): a folded block joins lines with a space; "
                            f"keep the Chinese sentence on one line or break it next to a Latin word that does not follow punctuation")
