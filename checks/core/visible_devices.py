"""``CUDA_VISIBLE_DEVICES`` as CUDA reads it: which of the container's GPUs a process sees, in what order.

Facts (NVIDIA's CUDA Programming Guide, appendix "CUDA Environment Variables",
https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html):

* unset: every GPU is visible; set to the empty string: **no** GPU is visible;
* a comma-separated list of integer indices (nvidia-smi's order), GPU UUIDs
  (``GPU-8932f937-...``, a unique prefix is enough) or MIG device UUIDs
  (``MIG-...``); visible devices are renumbered 0, 1, ... in list order;
* at the first invalid entry the list stops: ``0,2,-1,1`` makes 0 and 2
  visible and hides 1.

A repeated entry makes the whole list empty: CUDA then sees no device (the
parser torch uses to predict CUDA's device count says so, "Repeated ordinal
results in empty set", ``torch/cuda/__init__.py`` ``_parse_visible_devices``,
pytorch/pytorch pull request #84879).  An index is read like ``strtoul``: the
leading digits count (``1gpu`` is ``1``).

Only the standard library is used.

Example:
    >>> v = parse("1,2")
    >>> [e.text for e in v.entries], v.duplicate
    (['1', '2'], None)
    >>> resolve(parse("0,2,-1,1"), gpu_count=4).visible
    ['0', '2']
    >>> resolve(parse("0,0"), gpu_count=2).visible
    []
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

__all__ = ["Entry", "VisibleDevices", "Resolved", "parse", "resolve", "HIDES_ALL", "CUDA_ENV_DOC", "TORCH_PARSER_PR"]

#: NVIDIA's description of CUDA_VISIBLE_DEVICES
CUDA_ENV_DOC = "https://docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/environment-variables.html"
#: torch's reading of the variable (repeated entries, strtoul-like indices)
TORCH_PARSER_PR = "https://github.com/pytorch/pytorch/pull/84879"
#: values people use to hide every GPU (the empty string is the documented one)
HIDES_ALL = ("", "-1", "none", "NoDevFiles")

_INDEX_RE = re.compile(r"^([0-9]+)")
#: an index with more digits than this names no GPU (and Python refuses int() past 4,300 digits)
_MAX_INDEX_DIGITS = 18


@dataclass(frozen=True)
class Entry:
    """One list entry: ``kind`` is ``"index"``, ``"gpu-uuid"``, ``"mig-uuid"`` or ``"invalid"``; ``index`` for indices."""

    text: str
    kind: str
    index: Optional[int] = None


@dataclass(frozen=True)
class VisibleDevices:
    """A parsed value: its entries up to (not including) the first invalid one, and what stopped the list."""

    value: str
    entries: list[Entry] = field(default_factory=list)
    #: the first invalid entry, which hides itself and everything after it; None when none
    stopped_at: Optional[str] = None
    #: the first entry that repeats an earlier one (CUDA then sees no device); None when none
    duplicate: Optional[str] = None

    @property
    def hides_all(self) -> bool:
        """The value hides every GPU: empty (the documented way), a conventional ``-1``/``none``, or a repeated entry."""
        return self.value.strip() in HIDES_ALL or self.duplicate is not None or not self.entries


@dataclass(frozen=True)
class Resolved:
    """The entries checked against what the input shows of the GPUs.

    ``visible``: entries CUDA will expose, in order (renumbered 0..n-1);
    ``out_of_range``: the first entry that names no GPU of the container (an index
    ``>= gpu_count``, a UUID no GPU has), which hides the rest; ``unchecked``:
    entries that could not be checked (no GPU count, no UUIDs in the input).
    """

    visible: list[str]
    out_of_range: Optional[str] = None
    unchecked: list[str] = field(default_factory=list)


def _kind(text: str) -> Entry:
    if text.startswith("MIG-"):
        return Entry(text, "mig-uuid")
    if text.startswith("GPU-"):
        return Entry(text, "gpu-uuid")
    match = _INDEX_RE.match(text)
    if match:
        digits = match.group(1).lstrip("0") or "0"
        # strtoul saturates a longer run at ULONG_MAX: an index no container has, so any huge number is out of range
        return Entry(text, "index", int(digits) if len(digits) <= _MAX_INDEX_DIGITS else 10 ** _MAX_INDEX_DIGITS)
    return Entry(text, "invalid")


def parse(value: str) -> VisibleDevices:
    """Read a ``CUDA_VISIBLE_DEVICES`` value (never raises)."""
    entries: list[Entry] = []
    stopped: Optional[str] = None
    duplicate: Optional[str] = None
    seen: set = set()
    if value.strip() not in HIDES_ALL:
        for raw in value.split(","):
            entry = _kind(raw.strip())
            if entry.kind == "invalid":
                stopped = raw.strip()
                break
            key = entry.index if entry.kind == "index" else entry.text
            if key in seen and duplicate is None:
                duplicate = entry.text
            seen.add(key)
            entries.append(entry)
    return VisibleDevices(value=value, entries=entries, stopped_at=stopped, duplicate=duplicate)


def resolve(parsed: VisibleDevices, gpu_count: Optional[int] = None, gpu_uuids: Iterable[str] = (),
            mig_uuids: Iterable[str] = ()) -> Resolved:
    """Which entries CUDA exposes, given the container's GPU count and the UUIDs the input shows (when it shows them).

    An index is checked only with ``gpu_count``; a ``GPU-``/``MIG-`` UUID only when the input shows UUIDs of that
    kind (a prefix of one of them matches).  A repeated entry gives no visible device.
    """
    if parsed.duplicate is not None:
        return Resolved(visible=[])
    gpus = [u for u in gpu_uuids if u]
    migs = [u for u in mig_uuids if u]
    visible: list[str] = []
    unchecked: list[str] = []
    for entry in parsed.entries:
        if entry.kind == "index":
            if gpu_count is None:
                unchecked.append(entry.text)
            elif entry.index is not None and entry.index >= gpu_count:
                return Resolved(visible=visible, out_of_range=entry.text, unchecked=unchecked)
        else:
            known = gpus if entry.kind == "gpu-uuid" else migs
            if not known:
                unchecked.append(entry.text)
            elif not any(u.startswith(entry.text) for u in known):
                return Resolved(visible=visible, out_of_range=entry.text, unchecked=unchecked)
        visible.append(entry.text)
    return Resolved(visible=visible, unchecked=unchecked)
