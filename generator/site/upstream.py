"""Links to a component's real upstream release page.

The component catalog gives ``release_notes_url`` as a pattern (source:
``releases/components.yaml``).  Placeholders:

* ``{version}``: the version exactly as the release publishes it (``2.3.0+5de3e14``);
* ``{release}``: the PEP 440 release part (``2.7.1.8`` for ``2.7.1.8+nv25.3``);
* ``{release3}``: the first three release fields (``2.7.1``), padded with ``0``.

When the version is not PEP 440 (``{release}``/``{release3}`` cannot be
computed) or there is no pattern, the component's homepage is used; when
there is neither, there is no link.
"""

from __future__ import annotations

from typing import Optional

from packaging.version import InvalidVersion, Version

from lingjun.schema.models import Component

__all__ = ["expand_release_notes_url", "upstream_link"]


def expand_release_notes_url(pattern: str, version: str) -> Optional[str]:
    """Fill ``pattern`` for ``version``; None when a placeholder cannot be filled.

    ``{release}``/``{release3}`` need a final PEP 440 version: a dev or
    pre-release build (``0.8.2.dev0+g61c7a1b8``, ``3.0.0b1``) comes before the
    release those notes describe, so it gets None (the caller falls back to
    the home page).

    >>> expand_release_notes_url("https://x/releases/tag/v{release3}", "2.7.1.8+nv25.3")
    'https://x/releases/tag/v2.7.1'
    """
    values = {"version": version}
    if "{release" in pattern:
        try:
            parsed = Version(version)
        except InvalidVersion:
            return None
        if parsed.is_prerelease:  # true for dev releases too
            return None
        release = parsed.release
        values["release"] = ".".join(str(p) for p in release)
        values["release3"] = ".".join(str(p) for p in (tuple(release) + (0, 0, 0))[:3])
    try:
        return pattern.format(**values)
    except (KeyError, IndexError, ValueError):
        return None


def upstream_link(component: Optional[Component], version: Optional[str]) -> tuple[Optional[str], str]:
    """``(url, kind)`` for a component at ``version``.

    ``kind`` is ``"release"`` for the expanded release-notes page,
    ``"homepage"`` for the fallback, ``"none"`` when no link is known.
    """
    if component is None:
        return None, "none"
    if component.release_notes_url and version:
        url = expand_release_notes_url(component.release_notes_url, version)
        if url:
            return url, "release"
    if component.homepage:
        return component.homepage, "homepage"
    return None, "none"
