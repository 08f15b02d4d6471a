"""The ``lingjun-check`` rules as the site documents them, read from the checker's own registry.

Importing :mod:`lingjun.checks.rules` registers every rule in
:data:`lingjun.checks.rules.RULES` (id, area, title in English and
Chinese, ``needs_gpu``).  Beyond the title, the English page shows what the
rule's module docstring says it checks and what its function docstring says
it reports (both English only); the Chinese page shows the Chinese title and
no English prose.  Both list the environment variables those texts name
(identifiers, the same in every language), so each site's search finds a
rule by the variable it checks.  The anchor of a rule on ``checker/rules/`` is the id with
``.`` replaced by ``-`` (``driver.cuda-compatibility`` ->
``#driver-cuda-compatibility``); ``lingjun-check`` links to these anchors.
"""

from __future__ import annotations

import inspect
import re
import sys
from dataclasses import dataclass
from typing import Optional

from lingjun.checks.report.model import AREA_TITLES
from lingjun.checks.rules import load_rules

__all__ = ["CheckerRule", "checker_rules", "rule_anchor", "RULE_AREAS", "rule_areas", "variable_names"]


def rule_anchor(rule_id: str) -> str:
    """``driver.branch-eol`` -> ``driver-branch-eol``."""
    return rule_id.replace(".", "-")


#: titles of the checker's report areas (``RuleSpec.area``), in display order: the report's own table
#: (:data:`lingjun.checks.report.model.AREA_TITLES`), less the checker's own findings
RULE_AREAS: dict[str, dict[str, str]] = {
    area: {"en": title.en, "zh": title.zh} for area, title in AREA_TITLES.items() if area != "checker"}


@dataclass(frozen=True)
class CheckerRule:
    """One registered rule, ready for the page.

    Attributes:
        id: ``area.name`` (``driver.branch-eol``).
        area: the report area the checker files it under.
        title: language -> one-line title (from the registry).
        checks_en: what the rule checks (module docstring, without the
            leading ``id:``), English; None when the module has no docstring.
        reports_en: the severities it reports (function docstring), English; or None.
        needs_gpu: skipped without an NVIDIA driver in the container.
        names: the environment variables the English texts name (``NCCL_SOCKET_IFNAME``), in the
            order they first appear: identifiers, the same in both languages, so the Chinese page
            lists them too (and its search finds them).
    """

    id: str
    area: str
    title: dict[str, str]
    checks_en: Optional[str]
    reports_en: Optional[str]
    needs_gpu: bool
    names: tuple[str, ...] = ()

    @property
    def anchor(self) -> str:
        """HTML id of the rule's entry on the rules page."""
        return rule_anchor(self.id)


def _first_paragraph(doc: Optional[str]) -> Optional[str]:
    """First paragraph of a docstring on one line, reStructuredText ````x```` as Markdown ```x```."""
    if not doc:
        return None
    paragraph = inspect.cleandoc(doc).split("\n\n")[0]
    text = " ".join(line.strip() for line in paragraph.splitlines()).strip()
    return text.replace("``", "`") or None


def _checks_sentence(rule_id: str, module_doc: Optional[str]) -> Optional[str]:
    text = _first_paragraph(module_doc)
    if text is None:
        return None
    text = re.sub(rf"^{re.escape(rule_id)}\s*:\s*", "", text)
    if not text:
        return None
    first = text.split(" ", 1)[0]
    # capitalise a plain lower-case word only ("the ..." -> "The ..."; "cuda-compat ..." stays)
    return text[:1].upper() + text[1:] if first.isalpha() and first.islower() else text


#: an environment variable name as the rule texts write them: upper-case words joined by ``_`` (``NCCL_IB_HCA``)
_VARIABLE = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])")


def variable_names(*texts: Optional[str]) -> tuple[str, ...]:
    """The environment-variable names in ``texts``, each once, in order of first appearance.

    >>> variable_names("NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME name an interface", "NCCL_SOCKET_IFNAME")
    ('NCCL_SOCKET_IFNAME', 'GLOO_SOCKET_IFNAME')
    """
    found: dict[str, None] = {}
    for text in texts:
        for match in _VARIABLE.finditer(text or ""):
            found.setdefault(match.group(), None)
    return tuple(found)


def checker_rules() -> list[CheckerRule]:
    """Every rule of ``lingjun.checks.rules.RULES``, in the rules' declared ``order``.

    Raises:
        ImportError: when the checker package is not installed (the site ships with it).
    """
    found = []
    for spec in load_rules():
        module = sys.modules.get(spec.func.__module__)
        checks_en = _checks_sentence(spec.id, module.__doc__ if module else None)
        reports_en = _first_paragraph(spec.func.__doc__)
        found.append(CheckerRule(
            id=spec.id,
            area=spec.area,
            title={"en": spec.title.en, "zh": spec.title.zh},
            checks_en=checks_en,
            reports_en=reports_en,
            needs_gpu=spec.needs_gpu,
            names=variable_names(spec.title.en, checks_en, reports_en),
        ))
    return found


def rule_areas(rules: list[CheckerRule]) -> list[tuple[str, dict[str, str]]]:
    """``[(area, title per language)]`` for the areas that have rules, in :data:`RULE_AREAS` order.

    An area missing from :data:`RULE_AREAS` comes last with its id as title.
    """
    present = {r.area for r in rules}
    known = [(a, t) for a, t in RULE_AREAS.items() if a in present]
    extra = sorted(present - set(RULE_AREAS))
    return known + [(a, {"en": a, "zh": a}) for a in extra]
