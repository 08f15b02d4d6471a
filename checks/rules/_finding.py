"""Building findings: links to the site page and upstream documents, both languages.

Private helper of the rule modules (one concern: how a finding is assembled).
"""

from __future__ import annotations

from typing import Iterable, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.findings import Finding, Severity, Text
from lingjun.checks.record_view import record_ref

__all__ = ["make", "nvidia_url", "component_url", "NVIDIA_DOCS"]

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
    comp = ctx.data.component(component_id) or {}
    pattern = comp.get("release_notes_url")
    if isinstance(pattern, str) and version:
        release = version.split("+", 1)[0]
        fields = release.split(".")
        try:
            return pattern.format(version=version, release=release, release3=".".join(fields[:3]))
        except (KeyError, IndexError, ValueError):
            pass
    homepage = comp.get("homepage")
    return homepage if isinstance(homepage, str) else None


def make(
    ctx: CheckContext,
    rule_id: str,
    area: str,
    severity: Severity,
    en: str,
    zh: str,
    *,
    remedy: Optional[tuple[str, str]] = None,
    observed: Optional[str] = None,
    expected: Optional[str] = None,
    links: Iterable[Optional[str]] = (),
) -> Finding:
    """A finding with the rule's site page, the release page (when a record applies) and ``links``."""
    lang = ctx.options.lang
    urls: list[str] = []
    ref = ctx.release.ref or record_ref(ctx.record)
    if ref and ctx.record is not None:
        urls.append(ctx.data.release_url(ref, lang))
    urls.append(ctx.data.rule_url(rule_id, lang))
    for url in links:
        if url and url not in urls:
            urls.append(url)
    return Finding(
        rule=rule_id,
        severity=severity,
        area=area,
        message=Text(en, zh),
        remedy=Text(*remedy) if remedy else None,
        observed=observed,
        expected=expected,
        links=urls,
    )
