"""A release whose recorded driver text is cut off, read with what its family's neighbouring releases state.

A record's ``driver.text_truncated: true`` says that our copy of the page's driver section is incomplete: a branch
it does not name is unknown, not absent.  The evidence that remains decides it, each piece named in the verdict
(:func:`lingjun.checks.core.release_compat.release_verdict`):

* the release's CUDA and NVIDIA's tables for it: the CUDA base image's forward-compatibility branches
  (``cuda_drivers.forward_compat_images``, https://docs.nvidia.com/deploy/cuda-compatibility/forward-compatibility.html),
  the minor version compatibility floor (``minor_version_compat``) and Table 3's minimum driver, read by
  :func:`lingjun.checks.core.compat.decide`;
* the image's cuda-compat package: the record's own list of forward-compatible branches shows it;
* what the family states: the nearest release before and the nearest after it (by release order, same CUDA
  ``major.minor``, an NVIDIA driver text that is not cut off) that both name the branch the same way, both
  admitting it for forward compatibility (the higher of their minimums) or both listing it as a branch to upgrade.
  When only one side has such a release, it alone.  Neighbours that disagree, or one that does not name the
  branch, state nothing.

:func:`driver_view` writes that family evidence into a copy of the record as ``driver.derived``, a list of
``{"branch": 535, "decision": "forward" | "must-upgrade", "minimum": "535.86" | None, "from": ["25.06", "25.08"]}``
for the branches the record's own text does not name; :func:`lingjun.checks.core.compat.forward_admitted` and the
verdict read it there.  The checker (its release match), the finder, ``lingjun-kb which``, the drivers page and the
release pages all read a release through this one view.

Pure functions over bundle dicts; standard library only.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from lingjun.checks.core.versions import CudaVersion, DriverVersion, VersionFormatError

__all__ = ["driver_view", "derived_entry", "cut_off"]


def _cuda_mm(record: dict) -> Optional[tuple[int, int]]:
    try:
        return CudaVersion.parse(str(record.get("cuda"))).major_minor if record.get("cuda") else None
    except VersionFormatError:
        return None


def _driver(record: dict) -> dict:
    drv = record.get("driver")
    return drv if isinstance(drv, dict) else {}


def cut_off(record: Optional[dict]) -> bool:
    """True when ``record`` (a bundle release dict) has an NVIDIA driver text recorded as cut off."""
    drv = _driver(record or {})
    return drv.get("text_truncated") is True and drv.get("vendor", "nvidia") == "nvidia"


def _statements(drv: dict) -> dict[int, tuple[str, Optional[str]]]:
    """``{branch: ("forward", minimum) | ("must-upgrade", None)}`` that one complete driver text states."""
    resolutions = {r.get("branch"): r.get("decision") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}
    found: dict[int, tuple[str, Optional[str]]] = {}
    for branch in drv.get("must_upgrade_branches") or []:
        if isinstance(branch, int) and resolutions.get(branch) != "allowed":
            found[branch] = ("must-upgrade", None)
    for entry in drv.get("forward_compatibility") or []:
        if isinstance(entry, dict) and isinstance(entry.get("branch"), int):
            branch = entry["branch"]
            if resolutions.get(branch) == "must-upgrade":
                found[branch] = ("must-upgrade", None)
            elif branch not in found or resolutions.get(branch) == "allowed":
                found[branch] = ("forward", entry.get("minimum") if isinstance(entry.get("minimum"), str) else None)
    return found


def _higher(a: Optional[str], b: Optional[str]) -> Optional[str]:
    try:
        va, vb = (DriverVersion.parse(a) if a else None), (DriverVersion.parse(b) if b else None)
    except VersionFormatError:
        return None
    if va is None or vb is None:
        return a or b
    return a if va >= vb else b


def driver_view(record: Optional[dict], family: Iterable[Any] = ()) -> Optional[dict]:
    """``record`` with ``driver.derived`` from its family's neighbours when its driver text is cut off (module docstring).

    Args:
        record: a bundle release dict (``ReleaseRecord.model_dump(mode="json")``), or a rule's view of one.
        family: the family's release dicts (the record itself may be among them; dicts of other families are ignored).

    Returns the same dict when nothing is derived (a complete driver text, no neighbour of the same CUDA, nothing
    they state alike), else a shallow copy with a copied ``driver``.  Never raises on odd data.
    """
    if not isinstance(record, dict) or not cut_off(record) or "derived" in _driver(record):
        return record
    cuda = _cuda_mm(record)
    key = record.get("order_key")
    if cuda is None or not isinstance(key, list):
        return record
    own = _driver(record)
    sides = _neighbours(record, family, cuda, key)
    derived = _stated_alike(sides, _named(own)) if sides else []
    if not derived:
        return record
    view = dict(record)
    view["driver"] = dict(own, derived=derived)
    return view


def _named(drv: dict) -> set:
    """The branches a driver text names: forward compatible, to upgrade, or resolved."""
    named = {e.get("branch") for e in drv.get("forward_compatibility") or [] if isinstance(e, dict)}
    named |= set(drv.get("must_upgrade_branches") or [])
    return named | {r.get("branch") for r in drv.get("branch_resolutions") or [] if isinstance(r, dict)}


def _neighbours(record: dict, family: Iterable[Any], cuda: tuple[int, int], key: list) -> list[dict]:
    """The nearest release before ``record`` and the nearest after it (by ``order_key``) of its family, with the same
    CUDA ``major.minor`` and an NVIDIA driver text that is not cut off; one or both may be missing."""
    siblings = [r for r in family if isinstance(r, dict) and r is not record and r.get("family") == record.get("family")
                and r.get("version") != record.get("version") and isinstance(r.get("order_key"), list)
                and not cut_off(r) and _driver(r).get("vendor") == "nvidia" and _cuda_mm(r) == cuda]
    before = max((r for r in siblings if r["order_key"] < key), key=lambda r: r["order_key"], default=None)
    after = min((r for r in siblings if r["order_key"] > key), key=lambda r: r["order_key"], default=None)
    return [r for r in (before, after) if r is not None]


def _stated_alike(sides: list[dict], named: set) -> list[dict]:
    """The ``driver.derived`` entries: branches outside ``named`` that every one of ``sides`` states the same way."""
    said = [_statements(_driver(r)) for r in sides]
    derived = []
    for branch in sorted(set(said[0]).difference(named)):
        stated = [s.get(branch) for s in said]
        if any(s is None or s[0] != stated[0][0] for s in stated):
            continue
        minimum = stated[0][1]
        for s in stated[1:]:
            minimum = _higher(minimum, s[1])
        derived.append({"branch": branch, "decision": stated[0][0], "minimum": minimum if stated[0][0] == "forward" else None,
                        "from": [str(r.get("version")) for r in sides]})
    return derived


def derived_entry(drv: Optional[dict], branch: int) -> Optional[dict]:
    """The ``driver.derived`` entry of ``branch`` (see :func:`driver_view`), or None."""
    for entry in (drv or {}).get("derived") or []:
        if isinstance(entry, dict) and entry.get("branch") == branch:
            return entry
    return None
