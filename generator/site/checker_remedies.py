"""What ``lingjun-check`` prints as the fix for a release, on the release's page and on the checker-rules page.

The sentences are the checker's own (:func:`lingjun.checks.release_remedies.release_remedies`, the functions the
rules call), evaluated when the site is built: the driver a remedy names depends on which branches are past end
of life on that day, so the pages state the date (``on``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Optional

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.release_remedies import ReleaseRemedy, release_remedies
from lingjun.generator.bundle import compile_bundle
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import ReleaseRecord

__all__ = ["RemedyView", "CheckerRemedies", "checker_remedies"]


@dataclass(frozen=True)
class RemedyView:
    """One remedy for the page: ``when`` and ``remedy`` as ``{"en", "zh"}`` (Markdown: its commands and image
    references in code spans, the rest plain text for the prose filter), the rules printing it, the variant's title."""

    situation: str
    when: dict[str, str]
    remedy: dict[str, str]
    rules: tuple[str, ...]
    variant: Optional[dict[str, str]] = None


@dataclass
class CheckerRemedies:
    """Remedies per release (``family:version`` -> views) and the day they were computed."""

    on: dt.date
    by_release: dict[str, list[RemedyView]]

    def for_release(self, record: ReleaseRecord) -> list[RemedyView]:
        """The views of one release (empty when it has none)."""
        return self.by_release.get(f"{record.family}:{record.version}", [])

    def for_rule(self, rule_id: str, newest: list[ReleaseRecord]) -> list[tuple[ReleaseRecord, RemedyView]]:
        """``[(release, remedy)]`` the rule ``rule_id`` prints for each release of ``newest`` (one per family)."""
        return [(record, view) for record in newest for view in self.for_release(record) if rule_id in view.rules]


def _view(record: ReleaseRecord, remedy: ReleaseRemedy) -> RemedyView:
    variant = None
    if remedy.variant is not None:
        found = next((v for v in record.variants if v.id == remedy.variant), None)
        variant = {"en": found.title.en, "zh": found.title.zh} if found is not None else {"en": remedy.variant,
                                                                                          "zh": remedy.variant}
    return RemedyView(remedy.situation, {"en": remedy.when.en, "zh": remedy.when.zh},
                      {"en": _code_spans(remedy.remedy.en, remedy.code), "zh": _code_spans(remedy.remedy.zh, remedy.code)},
                      remedy.rules, variant)


def _code_spans(text: str, code: tuple[str, ...]) -> str:
    """``text`` with each occurrence of ``code`` (commands, image references, versions) in a Markdown code span.

    One left-to-right pass, the longest snippet first at each position, so a reference that another one starts
    (``...:25.02`` and ``...:25.02-serverless``) is never wrapped twice.  The prose filter keeps code spans and
    escapes everything else, so a command reads as code in both languages.

    >>> _code_spans("run pip list now", ("pip list",))
    'run `pip list` now'
    >>> _code_spans("a:25.02-x or a:25.02", ("a:25.02", "a:25.02-x"))
    '`a:25.02-x` or `a:25.02`'
    """
    snippets = sorted({c for c in code if c and "`" not in c}, key=len, reverse=True)
    if not snippets:
        return text
    pattern = re.compile("|".join(re.escape(c) for c in snippets))
    return pattern.sub(lambda m: f"`{m.group()}`", text)


def checker_remedies(kb: KnowledgeBase, on: Optional[dt.date] = None) -> CheckerRemedies:
    """The remedies of every release of ``kb`` as the checker would print them on ``on`` (default: today).

    The records are read in the bundle's form (:func:`lingjun.generator.bundle.compile_bundle`), exactly what the
    checker reads; about 0.3 s for the whole data.
    """
    day = on or dt.date.today()
    data = KnowledgeData.from_dict(compile_bundle(kb), check_shape=False)
    by_release: dict[str, list[RemedyView]] = {}
    for record in kb.releases:
        ref = f"{record.family}:{record.version}"
        raw = data.release(ref)
        if raw is not None:
            by_release[ref] = [_view(record, r) for r in release_remedies(raw, data, day)]
    return CheckerRemedies(day, by_release)
