"""NVIDIA GPU model names as NVML, nvidia-smi and collect_env print them -> the model of the bundle's GPU table.

A collect_env paste (``GPU 0: NVIDIA GeForce RTX 5090``) and many snapshots
name the GPU but not its compute capability or class, so the architecture
and forward-compatibility checks would be skipped exactly where they matter.
The table is the knowledge base's ``releases/reference/gpus.yaml`` (NVIDIA's
CUDA GPUs list, https://developer.nvidia.com/cuda-gpus), carried by the
bundle (:attr:`lingjun.checks.knowledge.bundle.KnowledgeData.gpus`): rows
``{"name": "GeForce RTX 4090", "compute_capability": "8.9", "data_center": false}``.

A printed name names the row whose name it contains as whole words, the
longest such row winning (``NVIDIA A100-SXM4-40GB`` -> ``A100``;
``NVIDIA GeForce RTX 2080 Ti`` -> ``GeForce RTX 2080``; ``NVIDIA H200`` ->
``H200``, never ``H20``).  Case is ignored and ``-``, ``_``, ``/``,
parentheses and commas count as blanks.  A truncated name (nvidia-smi prints
``NVIDIA GeForce ...`` in narrow columns) or another vendor's GPU names no row.
Pure functions, standard library only.

Examples:
    >>> table = [{"name": "A100", "compute_capability": "8.0", "data_center": True},
    ...          {"name": "GeForce RTX 5090", "compute_capability": "12.0", "data_center": False}]
    >>> compute_capability_from_name("NVIDIA A100-SXM4-40GB", table)
    '8.0'
    >>> compute_capability_from_name("NVIDIA GeForce RTX 5090 D", table)
    '12.0'
    >>> compute_capability_from_name("NVIDIA GeForce ...", table) is None
    True
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Optional

__all__ = ["model_from_name", "compute_capability_from_name", "normalise_name", "lookup_key"]

_SEPARATORS = re.compile(r"[\s\-_/(),]+")


def normalise_name(name: str) -> str:
    """``"NVIDIA A100-SXM4-40GB"`` -> ``" nvidia a100 sxm4 40gb "`` (NFKC, lower case, separators as single blanks, padded).

    NFKC makes full-width letters and digits (``４０９０``) the ASCII ones.
    """
    return " " + _SEPARATORS.sub(" ", unicodedata.normalize("NFKC", name).lower()).strip() + " "


def lookup_key(name: str) -> str:
    """The key two GPU model names are equal under: :func:`normalise_name` without padding and without a leading
    ``nvidia`` word (``"NVIDIA  GeForce_RTX-4090"`` -> ``"geforce rtx 4090"``).  The data gate
    (``data.gpu-table``) refuses two rows of ``gpus.yaml`` with one key, and ``lingjun-kb which`` and the finder
    compare names by it."""
    key = normalise_name(name).strip()
    if key == "nvidia":
        return ""
    return key[len("nvidia "):] if key.startswith("nvidia ") else key


def model_from_name(name: object, table: Iterable[Any]) -> Optional[dict]:
    """The row of ``table`` (dicts with ``name``) that the printed GPU ``name`` names, or None.

    Never raises: anything but a non-empty string of at most 200 characters, and rows without a string
    ``name``, give no match.
    """
    if not isinstance(name, str) or not name or len(name) > 200:
        return None
    printed = normalise_name(name)
    best: Optional[dict] = None
    best_len = 0
    for row in table or ():
        if not isinstance(row, dict) or not isinstance(row.get("name"), str) or not row["name"].strip():
            continue
        wanted = normalise_name(row["name"])
        if len(wanted) > best_len and wanted in printed:
            best, best_len = row, len(wanted)
    return best


def compute_capability_from_name(name: object, table: Iterable[Any]) -> Optional[str]:
    """Compute capability (``"12.0"``) of the row :func:`model_from_name` finds, or None (no row, or a row without
    a string ``compute_capability``)."""
    row = model_from_name(name, table)
    cc = row.get("compute_capability") if row else None
    return cc if isinstance(cc, str) else None
