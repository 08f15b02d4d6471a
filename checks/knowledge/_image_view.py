"""The release record dict as one image shows it: the overlay :class:`lingjun.checks.context.ReleaseMatch` is built from.

Identification (:mod:`lingjun.checks.knowledge.identify`) and the release remedies of the site
(:mod:`lingjun.checks.release_remedies`) write the view of one image (a variant, the variants' common part, a
runtime) as a bundle dict, because the functions of :mod:`lingjun.checks.core` that the site shares read the
record as a dict (``record.raw`` of the typed view); the typed
:class:`~lingjun.checks.knowledge.release_record.Release` is then built from it.  Rules read the typed view
(:mod:`lingjun.checks.knowledge.record_view`), never this module.
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = ["image_record"]


# -- the images of a release (variants) and the runtimes of an image ---------------------------------------

#: fields an image (a variant) states for itself; a variant leaving ``python``/``cuda``/``ppu_sdk`` or
#: ``architectures`` out takes the release's (see :class:`lingjun.schema.models.ImageVariant`)
_IMAGE_OWN = ("image_tags", "components", "component_list", "presence_unknown", "runtimes")
_IMAGE_INHERITED = ("python", "cuda", "ppu_sdk", "architectures")
#: how assertive a component-list state is (a combined list is as assertive as its least assertive part);
#: ``not-captured`` (the page has a list the copy read does not show) asserts nothing, like ``not-published``
_LIST_RANK = {"complete": 2, "partial": 1, "not-published": 0, "not-captured": 0}


def _variants(record: Optional[dict]) -> list[dict[str, Any]]:
    """The record's variants (bundle dicts with an ``id``); empty for a release that publishes one image."""
    return [v for v in (record or {}).get("variants") or [] if isinstance(v, dict) and isinstance(v.get("id"), str)]


def _variant_of(record: Optional[dict], variant_id: Optional[str]) -> Optional[dict[str, Any]]:
    """The variant ``variant_id`` of the record dict, or None."""
    return next((v for v in _variants(record) if v.get("id") == variant_id), None) if variant_id else None


def _image_tags(record: Optional[dict]) -> list[tuple[Optional[str], dict[str, Any]]]:
    """Every tag entry of the release with the variant it belongs to: ``[(variant id or None, tag dict), ...]``."""
    variants = _variants(record)
    owners = [(v.get("id"), v) for v in variants] if variants else [(None, record or {})]
    return [(vid, t) for vid, owner in owners for t in owner.get("image_tags") or []
            if isinstance(t, dict) and isinstance(t.get("tag"), str)]


def _same_entries(a: dict, b: dict) -> bool:
    return (a.get("version") == b.get("version")
            and sorted(a.get("architectures") or []) == sorted(b.get("architectures") or []))


def _common_components(variants: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
                 runtime_id: Optional[str] = None) -> dict[str, Any]:
    """The record as rules read it for one image: a shallow copy whose component list, tags and
    ``python``/``cuda``/``ppu_sdk`` are the image's.

    * ``variant_id``: that variant's fields (a field the variant leaves out is the release's);
    * ``unknown_variant`` (a release with variants whose variant is not known): only what every variant
      states alike: the components each lists with the same version (:func:`_common_components`, their
      list ``partial``: a component one variant lacks is not known absent), and ``python``/``cuda``/
      ``ppu_sdk`` when all variants agree (else None, so rules that need them skip);
    * ``runtime_id`` (a runtime of the image, the variant's when one is named): its own list first, then the image's shared entries it
      does not list; its ``python`` over the image's.  The list is ``complete`` only when both are.

    A release without variants and no runtime is returned unchanged (the same dict).
    """
    variants = _variants(record)
    variant = _variant_of(record, variant_id)
    owner = variant if variant is not None else record
    runtime = next((r for r in owner.get("runtimes") or [] if isinstance(r, dict) and r.get("id") == runtime_id),
                   None) if runtime_id is not None else None
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
    """The variant's own fields over the release's; its inherited fields only where it states them (a list the
    variant leaves out is empty, its component list then ``not-published``: not known, never absent)."""
    for key in _IMAGE_OWN:
        view[key] = variant.get(key) or ("not-published" if key == "component_list" else [])
    if variant.get("components") is None:  # no list: a "complete" state would claim that nothing is installed
        view["component_list"] = "not-published"
    for key in _IMAGE_INHERITED:
        if variant.get(key):
            view[key] = variant[key]


def _take_common(view: dict[str, Any], record: dict[str, Any], variants: list[dict[str, Any]]) -> None:
    """The variant is not known: only what every variant states alike (see :func:`image_record`)."""
    view["components"] = _common_components(variants)
    view["component_list"] = "partial" if view["components"] else "not-published"
    view["image_tags"] = [t for _, t in _image_tags(record)]
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
