"""Image references built from a family's registry pattern.

Used by the gate rule ``data.image-tag-pattern`` and by ``lingjun-kb new``
when it rewrites a release's image references for the new version.
"""

from __future__ import annotations

__all__ = ["expected_reference"]


def expected_reference(pattern: str, image: str, tag: str) -> str:
    """Fill ``{image}`` and ``{tag}`` of a registry pattern (``registry/ns/{image}:{tag}``).

    >>> expected_reference("registry.example.com/ns/{image}:{tag}", "demo-nv", "25.03")
    'registry.example.com/ns/demo-nv:25.03'
    """
    return pattern.replace("{image}", image).replace("{tag}", tag)
