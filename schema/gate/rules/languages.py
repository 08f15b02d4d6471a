"""``data.languages``: every prose text is written in both English and Chinese.

The Chinese text must contain CJK characters: an error when it is a sentence
(four or more space-separated words), a warning when it is shorter, because
a product name (``training-nv-pytorch（PPU）``) or a command can be the same
in both languages.  English text that is mostly
CJK characters (more than half of its letters) is a warning: it was most
likely pasted into the wrong field.
"""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.gate.walk import iter_instances
from lingjun.schema.fields import contains_cjk
from lingjun.schema.models import LocalizedText, Severity

_CJK = re.compile(r"[\u3400-\u9fff]")  # the range of lingjun.schema.fields.contains_cjk
_WORD = re.compile(r"[A-Za-z]+")


def mostly_cjk(text: str) -> bool:
    """True when more than half of the letters of ``text`` are CJK ideographs."""
    cjk = len(_CJK.findall(text))
    latin = sum(len(w) for w in _WORD.findall(text))
    return cjk > 0 and cjk > latin


@gate_rule("data.languages", Severity.error,
           "Chinese text contains Chinese characters (a warning for names of under four words) and English text is not mostly Chinese.", order=210)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Check every :class:`LocalizedText` of every document."""
    for doc in corpus.documents:
        for loc, text in iter_instances(doc.model, LocalizedText):
            if not contains_cjk(text.zh):
                sentence = sum(1 for token in text.zh.split() if _WORD.search(token)) >= 4
                yield Issue(doc.path, loc + ("zh",), "the Chinese text has no Chinese characters; translate it",
                            None if sentence else Severity.warning)
            if mostly_cjk(text.en):
                yield Issue(doc.path, loc + ("en",), "the English text is mostly Chinese characters; translate it",
                            Severity.warning)
