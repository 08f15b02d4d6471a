"""Read-only views of a release record (bundle JSON) that several rules need.

A record is the ``model_dump(mode="json")`` of
:class:`lingjun.schema.models.ReleaseRecord`; every accessor here tolerates
missing or malformed fields and returns empty values instead of raising.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "cpu_arch",
    "record_ref",
    "is_ppu",
    "record_components",
    "record_component",
    "usage_note",
    "mentions",
]

_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "aarch64", "arm64": "aarch64"}


def cpu_arch(machine: Optional[str]) -> Optional[str]:
    """``uname -m`` -> the record's CPU architecture name (``amd64``/``aarch64``), or None."""
    return _ARCH.get((machine or "").strip().lower())


def record_ref(record: Optional[dict]) -> Optional[str]:
    """``family:version`` of a record, or None."""
    if not isinstance(record, dict) or not record.get("family") or not record.get("version"):
        return None
    return f"{record['family']}:{record['version']}"


def is_ppu(record: Optional[dict]) -> bool:
    """True for records whose driver requirement is the PPU driver (no NVIDIA rules apply)."""
    driver = (record or {}).get("driver") or {}
    return isinstance(driver, dict) and driver.get("vendor") == "ppu"


def record_components(record: Optional[dict], machine: Optional[str] = None) -> list[dict[str, Any]]:
    """The record's component entries that apply on this CPU architecture.

    Entries without ``architectures`` apply everywhere.  When the
    architecture is unknown and an id has per-architecture entries, the
    first one is kept so each id appears once.
    """
    arch = cpu_arch(machine)
    out: dict[str, dict[str, Any]] = {}
    for entry in (record or {}).get("components") or []:
        if not isinstance(entry, dict) or not entry.get("id"):
            continue
        archs = entry.get("architectures") or []
        if archs and arch is not None and arch not in archs:
            continue
        cid = entry["id"]
        if cid in out and not archs:
            continue
        if cid not in out or (archs and arch in archs):
            out[cid] = entry
    return list(out.values())


def record_component(record: Optional[dict], component_id: str, machine: Optional[str] = None) -> Optional[dict]:
    """The entry for ``component_id`` on this architecture, or None."""
    return next((e for e in record_components(record, machine) if e.get("id") == component_id), None)


def usage_note(record: Optional[dict], rule_id: str) -> Optional[dict]:
    """The usage note enforced by ``rule_id`` (its ``rule`` field), or None."""
    for note in (record or {}).get("usage_notes") or []:
        if isinstance(note, dict) and note.get("rule") == rule_id:
            return note
    return None


def mentions(record: Optional[dict], needle: str) -> bool:
    """Whether usage notes, quick-start commands or feature texts of the record mention ``needle``."""
    rec = record or {}
    texts: list[str] = []
    for note in rec.get("usage_notes") or []:
        if isinstance(note, dict):
            texts.extend(str(v) for v in (note.get("text") or {}).values())
    for step in rec.get("quick_start") or []:
        if isinstance(step, dict):
            texts.extend(str(c) for c in step.get("commands") or [])
    for feature in rec.get("features") or []:
        if isinstance(feature, dict):
            texts.extend(str(v) for v in (feature.get("body") or {}).values())
    return any(needle in t for t in texts)
