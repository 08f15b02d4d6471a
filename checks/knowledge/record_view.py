"""Views of a typed release record (:class:`lingjun.checks.knowledge.release_record.Release`) that several rules need.

The record is the one :attr:`lingjun.checks.context.ReleaseMatch.record` holds (the release as this image shows
it) or one of :attr:`lingjun.checks.knowledge.bundle.KnowledgeData.records`; its types were checked when it was
built, so these read attributes and only tolerate a missing record (None).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Optional, Union

if TYPE_CHECKING:
    from lingjun.checks.knowledge.release_record import ComponentEntry, ImageTag, Release, Runtime, UsageNote, Variant

__all__ = [
    "cpu_arch",
    "record_ref",
    "is_ppu",
    "record_components",
    "record_component",
    "usage_note",
    "mentions",
    "variant_of",
    "image_tags",
    "runtime_for",
]

_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "aarch64", "arm64": "aarch64"}


def cpu_arch(machine: Optional[str]) -> Optional[str]:
    """``uname -m`` -> the record's CPU architecture name (``amd64``/``aarch64``), or None."""
    return _ARCH.get((machine or "").strip().lower())


def record_ref(record: "Optional[Release]") -> Optional[str]:
    """``family:version`` of a record, or None (no record, or an empty family or version)."""
    if record is None or not record.family or not record.version:
        return None
    return record.ref


def is_ppu(record: "Optional[Release]") -> bool:
    """True for records of PPU images (no NVIDIA rules apply): the driver requirement is the PPU driver, or the
    record states no driver but a PPU SDK (``training-xpu-pytorch`` 2026-10-20: the page read shows no
    driver requirement, https://help.aliyun.com/zh/document_detail/3172892.html)."""
    if record is None:
        return False
    if record.driver is not None and record.driver.vendor:
        return record.driver.vendor == "ppu"
    return bool(record.ppu_sdk)


def record_components(record: "Optional[Release]", machine: Optional[str] = None) -> "list[ComponentEntry]":
    """The record's component entries that apply on this CPU architecture.

    Entries without ``architectures`` apply everywhere.  When the
    architecture is unknown and an id has per-architecture entries, the
    first one is kept so each id appears once.
    """
    arch = cpu_arch(machine)
    out: dict[str, ComponentEntry] = {}
    for entry in record.components if record is not None else ():
        if not entry.id:
            continue
        archs = entry.architectures
        if archs and arch is not None and arch not in archs:
            continue
        if entry.id in out and not archs:
            continue
        if entry.id not in out or (archs and arch in archs):
            out[entry.id] = entry
    return list(out.values())


def record_component(record: "Optional[Release]", component_id: str, machine: Optional[str] = None) -> "Optional[ComponentEntry]":
    """The entry for ``component_id`` on this architecture, or None."""
    return next((e for e in record_components(record, machine) if e.id == component_id), None)


def usage_note(record: "Optional[Release]", rule_id: str) -> "Optional[UsageNote]":
    """The usage note enforced by ``rule_id`` (its ``rule`` field), or None."""
    return next((n for n in record.usage_notes if n.rule == rule_id), None) if record is not None else None


def mentions(record: "Optional[Release]", needle: str) -> bool:
    """Whether usage notes, quick-start commands or feature texts of the record mention ``needle``."""
    if record is None:
        return False
    texts: list[str] = []
    for note in record.usage_notes:
        texts.extend(str(v) for v in note.text.values())
    for step in record.quick_start:
        texts.extend(step.commands)
    for feature in record.features:
        texts.extend(str(v) for v in feature.body.values())
    return any(needle in t for t in texts)


def variant_of(record: "Optional[Release]", variant_id: Optional[str]) -> "Optional[Variant]":
    """The variant ``variant_id`` of the record, or None."""
    if record is None or not variant_id:
        return None
    return next((v for v in record.variants if v.id == variant_id), None)


def image_tags(record: "Release") -> "list[tuple[Optional[str], ImageTag]]":
    """Every tag entry of the release with the variant it belongs to: ``[(variant id or None, tag), ...]``."""
    if record.variants:
        return [(v.id, t) for v in record.variants for t in v.image_tags]
    return [(None, t) for t in record.image_tags]


def _under(path: Optional[str], root: str) -> bool:
    """Whether the absolute ``path`` is ``root`` or lies under it, both normalised first (``posixpath.normpath``:
    ``/opt/runtimes/x/../../../usr`` is ``/usr``, not a path under ``/opt/runtimes/x``; ``//`` and ``/./`` fold).
    The text alone decides: symbolic links are not followed (a snapshot's paths name no files here)."""
    if not path or not path.startswith("/") or not root.startswith("/"):
        return False
    path, root = posixpath.normpath(path).lstrip("/"), posixpath.normpath(root).lstrip("/")
    return bool(root) and (path == root or path.startswith(root + "/"))


def runtime_for(image: "Union[Release, Variant, None]", prefix: Optional[str], executable: Optional[str]) -> "Optional[Runtime]":
    """The runtime of ``image`` (a variant or a record) whose ``path`` holds the running interpreter
    (``sys.prefix`` or ``sys.executable`` at or under it: ``/opt/runtimes/llama-factory-ppu/venv/bin/python``
    is under ``/opt/runtimes/llama-factory-ppu``), or None; the longest path wins when paths nest."""
    found = [r for r in (image.runtimes if image is not None else ()) if r.path is not None
             and (_under(prefix, r.path) or _under(executable, r.path))]
    return max(found, key=lambda r: len(r.path or "")) if found else None
