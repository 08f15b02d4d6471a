"""Findings: what a checker rule reports.

A finding is one line of the report: a rule id, a severity, what was
observed and expected, a message and a remedy in English and Simplified
Chinese, and links (the lingjun-kb page of the release or rule, and the real
upstream component or issue).  Only the standard library is used.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Optional

__all__ = ["Severity", "Text", "Finding", "SEVERITY_ORDER", "sentence_case"]


class Severity(str, Enum):
    """Finding severity.

    ``error``: the job will fail or misbehave; ``warning``: likely trouble;
    ``info``: worth knowing; ``ok``: the check passed; ``skipped``: the check
    could not run here (e.g. no NVIDIA driver in this container).
    """

    error = "error"
    warning = "warning"
    info = "info"
    ok = "ok"
    skipped = "skipped"


#: most severe first; used to sort and to compute the exit code
SEVERITY_ORDER = [Severity.error, Severity.warning, Severity.info, Severity.ok, Severity.skipped]


@dataclass(frozen=True)
class Text:
    """The same message in English and Simplified Chinese."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` ("en" or "zh"); English for anything else."""
        return self.zh if lang == "zh" else self.en

    def __format__(self, spec: str) -> str:
        """Refused: ``f"NCCL_DEBUG={UNSET}"`` would put ``Text(en=..., zh=...)`` into a report.

        Raises:
            TypeError: always; build the sentence in both languages (``Text(f"...{word.en}", f"...{word.zh}")``)
                or pick one language with :meth:`get`.
        """
        raise TypeError(f"a Text holds two languages ({self.en!r} / {self.zh!r}): format .en and .zh, or .get(lang)")

    def as_sentence(self) -> "Text":
        """A clause ("the snapshot does not show …") as a sentence of its own: English capitalised and ended with
        ".", Chinese ended with "。"."""
        return Text(sentence_case(self.en) + ".", self.zh + "。")


def sentence_case(text: str) -> str:
    """``text`` with its first letter in upper case, to start a sentence ("the snapshot …" -> "The snapshot …")."""
    return text[:1].upper() + text[1:]


@dataclass
class Finding:
    """One result of one rule.

    Attributes:
        rule: registered rule id, e.g. ``driver.minimum``.
        severity: see :class:`Severity`.
        area: report section: ``release``, ``driver``, ``cuda``, ``libraries``,
            ``python``, ``environment``, ``config`` or ``known-issues``.
        message: what is wrong (or right), both languages.
        remedy: what to do about it; ``None`` for ok/info findings that need nothing.
        observed: the value found, as text (``"570.124.06"``), or None.
        expected: the value the release record or NVIDIA's rules want, or None.
        links: URLs: the site page for the release/rule and the upstream component or issue.
        brief: the message as the text report shows it, when ``message`` lists more than a reader
            scans on one line (eight items and "... and N more"); None: the text report shows
            ``message``.  The JSON report always carries the full ``message``.
        observed_text: ``observed`` in both languages, when it is a word rather than a value
            (``unset``, ``not installed``); None: ``observed`` is shown as it is.  The JSON
            report keeps ``observed`` (English) as the machine-readable value.
        expected_text: the same for ``expected``.

    ``brief``, ``observed_text`` and ``expected_text`` were added later (optional, default None).
    """

    rule: str
    severity: Severity
    area: str
    message: Text
    remedy: Optional[Text] = None
    observed: Optional[str] = None
    expected: Optional[str] = None
    links: list[str] = field(default_factory=list)
    brief: Optional[Text] = None
    observed_text: Optional[Text] = None
    expected_text: Optional[Text] = None

    def shown_observed(self, lang: str) -> Optional[str]:
        """``observed`` as a report in ``lang`` shows it."""
        return self.observed_text.get(lang) if self.observed_text is not None else self.observed

    def shown_expected(self, lang: str) -> Optional[str]:
        """``expected`` as a report in ``lang`` shows it."""
        return self.expected_text.get(lang) if self.expected_text is not None else self.expected

    def to_json(self, lang: str) -> dict[str, Any]:
        """The finding as in the ``--format json`` report (texts in ``lang``, both kept under ``i18n``)."""
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "area": self.area,
            "observed": self.observed,
            "expected": self.expected,
            "message": self.message.get(lang),
            "remedy": self.remedy.get(lang) if self.remedy else None,
            "links": list(self.links),
            "i18n": {
                "message": asdict(self.message),
                "remedy": asdict(self.remedy) if self.remedy else None,
            },
        }
