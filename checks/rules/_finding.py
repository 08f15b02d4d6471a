"""Building findings: links to the site page and upstream documents, both languages.

Private helper of the rule modules (one concern: how a finding is assembled).
"""

from __future__ import annotations

from typing import Iterable, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import record_ref

__all__ = ["make", "nvidia_url", "component_url", "listing", "NVIDIA_DOCS", "UNSET", "NOT_INSTALLED", "EMPTY", "BRIEF_ITEMS"]

#: NVIDIA pages the driver rules cite when the bundle's reference data does not carry them
NVIDIA_DOCS = {
    "toolkit": "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html",
    "minor": "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
    "forward": "https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html",
    "branches": "https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html",
    "daemon-reload": "https://github.com/NVIDIA/nvidia-docker/issues/1730",
}

_URL_HINTS = {
    "toolkit": "cuda-toolkit-release-notes",
    "minor": "minor-version-compatibility",
    "forward": "forward-compatibility",
    "branches": "supported-drivers",
}


def nvidia_url(ctx: CheckContext, kind: str) -> str:
    """URL of an NVIDIA document (``toolkit``, ``minor``, ``forward``, ``branches``, ``daemon-reload``).

    Taken from the bundle's reference ``sources`` when one matches, else the constant above.
    """
    hint = _URL_HINTS.get(kind)
    if hint:
        for ref in (ctx.data.cuda_drivers, ctx.data.raw.get("driver_branches") or {}):
            for source in (ref or {}).get("sources") or []:
                url = source.get("url") if isinstance(source, dict) else None
                if isinstance(url, str) and hint in url:
                    return url
    return NVIDIA_DOCS[kind]


def component_url(ctx: CheckContext, component_id: str, version: Optional[str] = None) -> Optional[str]:
    """Release notes of a component version (catalog ``release_notes_url``), else its homepage, else None."""
    comp = ctx.data.catalog_entry(component_id)
    pattern = comp.release_notes_url if comp is not None else None
    if pattern is not None and version:
        release = version.split("+", 1)[0]
        fields = release.split(".")
        try:
            return pattern.format(version=version, release=release, release3=".".join(fields[:3]))
        except (KeyError, IndexError, ValueError):
            pass
    return comp.homepage if comp is not None else None


def make(
    ctx: CheckContext,
    rule_id: str,
    area: str,
    severity: Severity,
    en: "str | Text",
    zh: Optional[str] = None,
    *,
    remedy: "Optional[tuple[str, str] | Text]" = None,
    observed: "Optional[str | Text]" = None,
    expected: "Optional[str | Text]" = None,
    links: Iterable[Optional[str]] = (),
    brief: Optional[tuple[str, str]] = None,
) -> Finding:
    """A finding with the rule's site page, the release page (when a record applies) and ``links``.

    The message is ``en`` and ``zh``, or one :class:`Text` given as ``en`` (what a rule's ``WORDS`` table
    returns, see :mod:`lingjun.checks.rules._words`); ``remedy`` is an ``(en, zh)`` pair or a :class:`Text`.

    ``observed``/``expected`` are values as text, or a :class:`Text` when they are words a
    reader should see in the report's language (``UNSET``, ``NOT_INSTALLED``); ``brief`` is the
    (en, zh) message for the text report when ``en``/``zh`` list many items (see :func:`listing`).
    """
    lang = ctx.options.lang
    urls: list[str] = []
    ref = ctx.release.ref or record_ref(ctx.record)
    for url in (ctx.data.release_url(ref, lang) if ref and ctx.record is not None else None,
                ctx.data.rule_url(rule_id, lang), *links):
        if url and url not in urls:
            urls.append(url)
    return Finding(
        rule=rule_id,
        severity=severity,
        area=area,
        message=_message(en, zh),
        remedy=(remedy if isinstance(remedy, Text) else Text(*remedy)) if remedy else None,
        observed=observed.en if isinstance(observed, Text) else observed,
        expected=expected.en if isinstance(expected, Text) else expected,
        links=urls,
        brief=Text(*brief) if brief else None,
        observed_text=observed if isinstance(observed, Text) else None,
        expected_text=expected if isinstance(expected, Text) else None,
    )


def _message(en: "str | Text", zh: Optional[str]) -> Text:
    """The finding's message from ``make``'s arguments; ``TypeError`` for English without its Chinese."""
    if isinstance(en, Text):
        return en
    if zh is None:
        raise TypeError("make(): a message given as str needs its Chinese (zh) too")
    return Text(en, zh)


#: words rules put in ``observed``/``expected``, in both languages
UNSET = Text("unset", "未设置")
NOT_INSTALLED = Text("not installed", "未安装")
EMPTY = Text("empty", "空")

#: how many items a text-report line lists before "... and N more"
BRIEF_ITEMS = 8


def listing(items: list[str], limit: int = BRIEF_ITEMS) -> tuple[str, str, str]:
    """``(all, short_en, short_zh)``: the items comma-separated, and at most ``limit`` of them plus the rest counted.

    >>> listing(["a", "b", "c"], 2)
    ('a, b, c', 'a, b … and 1 more', 'a, b 等共 3 个')
    >>> listing(["a"], 2)
    ('a', 'a', 'a')
    """
    full = ", ".join(items)
    if len(items) <= limit:
        return full, full, full
    head = ", ".join(items[:limit])
    return full, f"{head} … and {len(items) - limit} more", f"{head} 等共 {len(items)} 个"
