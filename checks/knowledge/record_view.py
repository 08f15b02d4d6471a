"""Read-only views of a release record (bundle JSON) that several rules need.

A record is the ``model_dump(mode="json")`` of
:class:`lingjun.schema.models.ReleaseRecord`; every accessor here tolerates
missing or malformed fields and returns empty values instead of raising.
"""

from __future__ import annotations

import posixpath
from typing import Any, Optional

__all__ = [
    "cpu_arch",
    "record_ref",
    "is_ppu",
    "record_components",
    "record_component",
    "usage_note",
    "mentions",
    "record_variants",
    "variant_of",
    "image_tags",
    "common_components",
    "image_record",
    "runtime_for",
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
    """True for records of PPU images (no NVIDIA rules apply): the driver requirement is the PPU driver, or the
    record states no driver but a PPU SDK (``training-xpu-pytorch`` 2026-10-20: the page read shows no
    driver requirement, https://help.aliyun.com/zh/document_detail/3172892.html)."""
    rec = record or {}
    driver = rec.get("driver") or {}
    if isinstance(driver, dict) and driver.get("vendor"):
        return driver.get("vendor") == "ppu"
    return bool(rec.get("ppu_sdk"))


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


# -- the images of a release (variants) and the runtimes of an image ---------------------------------------

#: fields an image (a variant) states for itself; a variant leaving ``python``/``cuda``/``ppu_sdk`` or
#: ``architectures`` out takes the release's (see :class:`lingjun.schema.models.ImageVariant`)
_IMAGE_OWN = ("image_tags", "components", "component_list", "presence_unknown", "runtimes")
_IMAGE_INHERITED = ("python", "cuda", "ppu_sdk", "architectures")
#: how assertive a component-list state is (a combined list is as assertive as its least assertive part);
#: ``not-captured`` (the page has a list the copy read does not show) asserts nothing, like ``not-published``
_LIST_RANK = {"complete": 2, "partial": 1, "not-published": 0, "not-captured": 0}


def record_variants(record: Optional[dict]) -> list[dict[str, Any]]:
    """The record's variants (bundle dicts with an ``id``); empty for a release that publishes one image."""
    return [v for v in (record or {}).get("variants") or [] if isinstance(v, dict) and isinstance(v.get("id"), str)]


def variant_of(record: Optional[dict], variant_id: Optional[str]) -> Optional[dict[str, Any]]:
    """The variant ``variant_id`` of the record, or None."""
    return next((v for v in record_variants(record) if v.get("id") == variant_id), None) if variant_id else None


def image_tags(record: Optional[dict]) -> list[tuple[Optional[str], dict[str, Any]]]:
    """Every tag entry of the release with the variant it belongs to: ``[(variant id or None, tag dict), ...]``."""
    variants = record_variants(record)
    owners = [(v.get("id"), v) for v in variants] if variants else [(None, record or {})]
    return [(vid, t) for vid, owner in owners for t in owner.get("image_tags") or []
            if isinstance(t, dict) and isinstance(t.get("tag"), str)]


def _same_entries(a: dict, b: dict) -> bool:
    return (a.get("version") == b.get("version")
            and sorted(a.get("architectures") or []) == sorted(b.get("architectures") or []))


def common_components(variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The component entries every variant lists with the same version (and architectures), in the first
    variant's order: what is known of the image when the variant is not."""
    if not variants:
        return []
    rest = [[e for e in v.get("components") or [] if isinstance(e, dict)] for v in variants[1:]]
    return [e for e in variants[0].get("components") or [] if isinstance(e, dict)
            and all(any(o.get("id") == e.get("id") and _same_entries(o, e) for o in other) for other in rest)]


def _agreed(values: list[Any]) -> Any:
    """The value when every one is the same, else None."""
    return values[0] if values and all(v == values[0] for v in values) else None


def image_record(record: dict[str, Any], variant_id: Optional[str] = None, unknown_variant: bool = False,
                 runtime: Optional[dict[str, Any]] = None) -> dict[str, Any]:
    """The record as rules read it for one image: a shallow copy whose component list, tags and
    ``python``/``cuda``/``ppu_sdk`` are the image's.

    * ``variant_id``: that variant's fields (a field the variant leaves out is the release's);
    * ``unknown_variant`` (a release with variants whose variant is not known): only what every variant
      states alike: the components each lists with the same version (:func:`common_components`, their
      list ``partial``: a component one variant lacks is not known absent), and ``python``/``cuda``/
      ``ppu_sdk`` when all variants agree (else None, so rules that need them skip);
    * ``runtime`` (a runtime dict of the image): its own list first, then the image's shared entries it
      does not list; its ``python`` over the image's.  The list is ``complete`` only when both are.

    A release without variants and no runtime is returned unchanged (the same dict).
    """
    variants = record_variants(record)
    variant = variant_of(record, variant_id)
    if variant is None and not (variants and unknown_variant) and runtime is None:
        return record
    view = dict(record)
    if variant is not None:
        _take_variant(view, variant)
    elif variants and unknown_variant:
        _take_common(view, record, variants)
    if runtime is not None:
        _take_runtime(view, runtime)
    return view


def _take_variant(view: dict[str, Any], variant: dict[str, Any]) -> None:
    """The variant's own fields over the release's; its inherited fields only where it states them."""
    for key in _IMAGE_OWN:
        view[key] = variant.get(key) if key != "component_list" else (variant.get(key) or "not-published")
    for key in _IMAGE_INHERITED:
        if variant.get(key):
            view[key] = variant[key]


def _take_common(view: dict[str, Any], record: dict[str, Any], variants: list[dict[str, Any]]) -> None:
    """The variant is not known: only what every variant states alike (see :func:`image_record`)."""
    view["components"] = common_components(variants)
    view["component_list"] = "partial" if view["components"] else "not-published"
    view["image_tags"] = [t for _, t in image_tags(record)]
    view["presence_unknown"], view["runtimes"] = [], []
    for key in ("python", "cuda", "ppu_sdk"):
        view[key] = _agreed([v.get(key) or record.get(key) for v in variants])


def _take_runtime(view: dict[str, Any], runtime: dict[str, Any]) -> None:
    """The runtime's components first, then the image's it does not list; complete only when both lists are."""
    own = [e for e in runtime.get("components") or [] if isinstance(e, dict)]
    ids = {e.get("id") for e in own}
    view["components"] = own + [e for e in view.get("components") or [] if isinstance(e, dict) and e.get("id") not in ids]
    ranks = [_LIST_RANK.get(str(runtime.get("component_list")), 0), _LIST_RANK.get(str(view.get("component_list")), 0)]
    view["component_list"] = ("complete" if min(ranks) == 2 else "partial" if view["components"] else "not-published")
    if runtime.get("python"):
        view["python"] = runtime["python"]


def _under(path: Optional[str], root: str) -> bool:
    """Whether the absolute ``path`` is ``root`` or lies under it, both normalised first (``posixpath.normpath``:
    ``/opt/runtimes/x/../../../usr`` is ``/usr``, not a path under ``/opt/runtimes/x``; ``//`` and ``/./`` fold).
    The text alone decides: symbolic links are not followed (a snapshot's paths name no files here)."""
    if not path or not path.startswith("/") or not root.startswith("/"):
        return False
    path, root = posixpath.normpath(path).lstrip("/"), posixpath.normpath(root).lstrip("/")
    return bool(root) and (path == root or path.startswith(root + "/"))


def runtime_for(image: Optional[dict], prefix: Optional[str], executable: Optional[str]) -> Optional[dict[str, Any]]:
    """The runtime of ``image`` (a variant or record dict) whose ``path`` holds the running interpreter
    (``sys.prefix`` or ``sys.executable`` at or under it: ``/opt/runtimes/llama-factory-ppu/venv/bin/python``
    is under ``/opt/runtimes/llama-factory-ppu``), or None; the longest path wins when paths nest."""
    found = [r for r in (image or {}).get("runtimes") or [] if isinstance(r, dict) and isinstance(r.get("path"), str)
             and (_under(prefix, r["path"]) or _under(executable, r["path"]))]
    return max(found, key=lambda r: len(r["path"])) if found else None
