"""Which CUDA variant of a torch release to install: pure functions over the bundle's ``torch_wheels`` table.

The table (``releases/reference/torch-wheels.yaml``) lists, for each torch release, the CUDA variants PyTorch
published wheels for (``https://download.pytorch.org/whl/cu128``, as https://pytorch.org/get-started/previous-versions/
lists them).  :func:`best_variant` picks the newest of them whose CUDA the driver supports, so a remedy names one
index that exists, never "the newest of cu118, cu121, ... at or below ...".

Standard library only; malformed rows are skipped.
"""

from __future__ import annotations

import re
from typing import Optional

__all__ = ["INDEX", "index_url", "variant_cuda", "published_variants", "best_variant", "torch_release", "listed_releases"]

INDEX = "https://download.pytorch.org/whl/"
_VARIANT = re.compile(r"^cu(\d{2})(\d)$")
_RELEASE = re.compile(r"^(\d+)\.(\d+)\.(\d+)")


def index_url(variant: str) -> str:
    """``cu128`` -> ``https://download.pytorch.org/whl/cu128``."""
    return INDEX + variant


def variant_cuda(variant: str) -> Optional[tuple[int, int]]:
    """``cu128`` -> (12, 8); ``cu118`` -> (11, 8); None for anything else."""
    m = _VARIANT.match(variant or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def torch_release(version: Optional[str]) -> Optional[str]:
    """The public release a torch version names (``2.7.1+cu126`` -> ``2.7.1``); None for a build no index serves
    (``2.7.1.8+nv25.3`` has a fourth field, ``2.5.0a0+e000cf0`` is a pre-release)."""
    if not isinstance(version, str):
        return None
    base = version.split("+", 1)[0]
    return base if re.fullmatch(r"\d+\.\d+\.\d+", base) else None


def _rows(table: Optional[dict]) -> list[dict]:
    return [r for r in (table or {}).get("wheels") or [] if isinstance(r, dict)]


def listed_releases(table: Optional[dict]) -> list[str]:
    """Every torch release the table lists (``2.9.1``), newest first.

    >>> listed_releases({"wheels": [{"releases": ["2.1.0", "2.10.0"]}, {"releases": ["2.9.1"]}]})
    ['2.10.0', '2.9.1', '2.1.0']
    """
    found = {r for row in _rows(table) for r in row.get("releases") or [] if isinstance(r, str) and torch_release(r)}
    return sorted(found, key=lambda r: tuple(int(x) for x in r.split(".")), reverse=True)


def published_variants(table: Optional[dict], release: Optional[str]) -> list[str]:
    """The CUDA variants published for ``release`` (``2.7.1``), oldest CUDA first; empty when the table does not list it."""
    for row in _rows(table):
        if release in (row.get("releases") or []):
            variants = [v for v in row.get("cuda") or [] if isinstance(v, str) and variant_cuda(v)]
            return sorted(variants, key=lambda v: variant_cuda(v))  # type: ignore[arg-type,return-value]
    return []


def best_variant(table: Optional[dict], release: Optional[str], supported: Optional[tuple[int, int]],
                 at_least: Optional[tuple[int, int]] = None) -> Optional[str]:
    """The newest variant published for ``release`` whose CUDA is at most ``supported`` (what the driver runs) and at
    least ``at_least`` (the CUDA a GPU architecture needs); None when none fits or the release is not listed.

    >>> t = {"wheels": [{"releases": ["2.7.0", "2.7.1"], "cuda": ["cu118", "cu126", "cu128"]}]}
    >>> best_variant(t, "2.7.1", (12, 8)), best_variant(t, "2.7.1", (12, 4)), best_variant(t, "2.7.1", (11, 4))
    ('cu128', 'cu118', None)
    >>> best_variant(t, "2.7.1", (12, 9), at_least=(12, 8)), best_variant(t, "2.3.0", (12, 8))
    ('cu128', None)
    """
    if supported is None:
        return None
    fitting = [v for v in published_variants(table, release)
               if variant_cuda(v) <= supported and (at_least is None or variant_cuda(v) >= at_least)]  # type: ignore[operator]
    return fitting[-1] if fitting else None
