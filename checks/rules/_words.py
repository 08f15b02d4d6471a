"""A rule's sentences in both languages, kept in one table beside the rule and apart from its decisions.

Each rule module that words its findings through this module defines ``WORDS = Words({...})`` near its top: one
entry per outcome (``"ok"``, ``"below-default"``, ``"remedy"``, ...), each an ``(English, Chinese)`` pair of
:meth:`str.format` templates with the same named fields.  The decision code then asks for an outcome by key and
passes the values (``WORDS("ok", have="1 GiB")``), so the logic reads in one language and a translator finds
every string of the rule in one place.  ``tests/checks_rules/test_checks_rules_words.py`` checks every rule's
table: both languages name the same fields and every template formats.
"""

from __future__ import annotations

import string
from typing import Iterator, Mapping

from lingjun.checks.report.findings import Text

__all__ = ["Words", "join"]


class Words(Mapping[str, tuple[str, str]]):
    """Outcome key -> ``(en, zh)`` templates; calling it formats one entry into a :class:`Text`.

    Raises ``ValueError`` at import time when a pair's two templates do not name the same fields (a translation
    that dropped or renamed a value), and ``KeyError`` when called with an unknown key or without a field's value.
    """

    def __init__(self, table: Mapping[str, tuple[str, str]]) -> None:
        self._table = dict(table)
        for key, pair in self._table.items():
            en, zh = pair
            if fields(en) != fields(zh):
                raise ValueError(f"words {key!r}: the English names {sorted(fields(en))}, the Chinese {sorted(fields(zh))}")

    def __call__(self, key: str, /, **values: object) -> Text:
        """The entry ``key`` with ``values`` filled in, e.g. ``WORDS("ok", have="1 GiB")``.

        A value that is a :class:`Text` fills each language with its own wording (``source=Text("GPUs seen",
        "可见 GPU")``); any other value is formatted as it is in both.
        """
        en, zh = self._table[key]
        return Text(en.format(**{k: v.en if isinstance(v, Text) else v for k, v in values.items()}),
                    zh.format(**{k: v.zh if isinstance(v, Text) else v for k, v in values.items()}))

    def __getitem__(self, key: str) -> tuple[str, str]:
        return self._table[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def fields(template: str) -> frozenset[str]:
    """The named fields of a :meth:`str.format` template (``"{a} of {b:>3}"`` -> ``{"a", "b"}``)."""
    return frozenset(name.split(".", 1)[0].split("[", 1)[0]
                     for _, name, _, _ in string.Formatter().parse(template) if name)


def join(texts: "list[Text]") -> Text:
    """Clauses listed in each language's way: ``", "`` between English ones, ``"，"`` between Chinese ones."""
    return Text(", ".join(t.en for t in texts), "，".join(t.zh for t in texts))
