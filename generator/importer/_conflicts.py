"""What a page says against an existing record of the same release: ready-made ``source_conflicts`` entries.

Compared, image by image (the release itself, or each variant matched by
its tag) and architecture by architecture: component versions, components
one side lists and the other does not (only where both lists are complete),
the tags, Python, CUDA, the PPU SDK, the driver minimum and its data-centre
branch lists.  Each disagreement becomes a ``source_conflicts`` entry with
the record's value and the page's (``stated_in: other-page``, the page's
address as ``source``), its description written in both languages, and
``reason`` left as a placeholder: deciding which value holds is a person's
job.  Besides the conflicts, the record's missing translations: the page
itself as a source, when the record does not cite a page in its language.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.schema.models import ReleaseRecord
from lingjun.schema.placeholders import PLACEHOLDER, PLACEHOLDER_URL
from lingjun.schema.release_images import release_images

__all__ = ["compare_with_record"]

_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")


def _conflict(cid: str, field: str, en: str, zh: str, recorded: Any, page: Any, side: str, url: str,
              record_url: Optional[str]) -> dict[str, Any]:
    mine: dict[str, Any] = {"value": str(recorded), "stated_in": side}
    if record_url:
        mine["source"] = record_url
    return {
        "id": cid[:64].rstrip("-."),
        "field": field,
        "description": {"en": en, "zh": zh},
        "values": [mine, {"value": str(page), "stated_in": "other-page", "source": url}],
        "reason": {"en": f"{PLACEHOLDER}: which value the record keeps, and why",
                   "zh": f"{PLACEHOLDER}：记录采用哪个值及其理由"},
    }


def _components_of(items: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    out = {}
    for item in items:
        arches = item.get("architectures") or [""]
        for arch in arches:
            out.setdefault((item["id"], arch), item)
    return out


def _page_images(draft: dict[str, Any]) -> list[tuple[Optional[str], dict[str, Any]]]:
    if draft.get("variants"):
        return [(v["id"], v) for v in draft["variants"]]
    return [(None, draft)]


def _record_image(record_images: list, vid: Optional[str], page_tags: set[str]):
    """The recorded image the page's image is: by a shared tag, else by variant id, else the record's only one."""
    image = next((i for i in record_images if page_tags & {t.tag for t in i.image_tags}), None)
    if image is None:
        image = next((i for i in record_images if i.variant_id == vid), None) if vid else (
            record_images[0] if len(record_images) == 1 else None)
    return image


def _tag_and_version_conflicts(draft: dict[str, Any], page_image: dict[str, Any], image: Any, page_tags: set[str],
                               where: str, prefix: str, url: str, record_url: Optional[str]) -> list[dict[str, Any]]:
    """The image's tags and its python/cuda/ppu_sdk where page and record differ."""
    out = []
    recorded_tags = {t.tag for t in image.image_tags}
    if page_tags and page_tags != recorded_tags:
        out.append(_conflict(f"{where}tags".replace(" ", "-"), f"{prefix}image_tags",
                             f"The page lists the tags {', '.join(sorted(page_tags))}; the record has "
                             f"{', '.join(sorted(recorded_tags))}.",
                             f"页面列出的标签为 {'、'.join(sorted(page_tags))}，记录中为 {'、'.join(sorted(recorded_tags))}。",
                             ", ".join(sorted(recorded_tags)), ", ".join(sorted(page_tags)), "assets",
                             url, record_url))
    for name in ("python", "cuda", "ppu_sdk"):
        page_value = page_image.get(name) or draft.get(name)
        recorded = getattr(image, name, None)
        if page_value and recorded and str(page_value) != str(recorded):
            out.append(_conflict(f"{where}{name}".replace(" ", "-"), f"{prefix}{name}",
                                 f"The page gives {name} {page_value}; the record has {recorded}.",
                                 f"页面给出的 {name} 为 {page_value}，记录中为 {recorded}。",
                                 recorded, page_value, "component-list", url, record_url))
    return out


def _component_conflicts(page_image: dict[str, Any], image: Any, where: str, prefix: str, url: str,
                         record_url: Optional[str]) -> list[dict[str, Any]]:
    """Components the page and the record list differently (version, missing from either complete list)."""
    page_items = page_image.get("components", [])
    if not page_items:
        return []
    out = []
    page_components = _components_of(page_items)
    recorded_components = _components_of([c.model_dump(mode="json") for c in image.components])
    for key, item in page_components.items():
        other = recorded_components.get(key) or recorded_components.get((key[0], ""))
        label = item["name"] + (f" ({key[1]})" if key[1] else "")
        if other is None:
            if image.component_list.value == "complete":
                out.append(_conflict(f"{where}{key[0]}-{key[1]}-not-recorded".replace(" ", "-").replace("--", "-"),
                                     f"{prefix}components", f"The page lists {label} {item['version']}; the "
                                     "record's complete list does not.",
                                     f"页面列出了 {label} {item['version']}，记录的完整列表中没有。",
                                     "(not listed)", item["version"], "component-list", url, record_url))
        elif other["version"] != item["version"]:
            out.append(_conflict(f"{where}{key[0]}-{key[1]}-version".replace(" ", "-").replace("--", "-"),
                                 f"{prefix}components.{key[0]}",
                                 f"The page gives {label} {item['version']}; the record has {other['version']}.",
                                 f"页面给出的 {label} 版本为 {item['version']}，记录中为 {other['version']}。",
                                 other["version"], item["version"], "component-list", url, record_url))
    if page_image.get("component_list") == "complete":
        out += _not_on_page(page_components, recorded_components, where, prefix, url, record_url)
    return out


def _not_on_page(page_components: dict, recorded_components: dict, where: str, prefix: str, url: str,
                 record_url: Optional[str]) -> list[dict[str, Any]]:
    """Recorded components (from a component list) that the page's complete list does not have."""
    out = []
    for key, other in recorded_components.items():
        if key not in page_components and (key[0], "") not in page_components and other.get(
                "stated_in", "component-list") == "component-list":
            label = other["name"] + (f" ({key[1]})" if key[1] else "")
            out.append(_conflict(f"{where}{key[0]}-{key[1]}-not-on-page".replace(" ", "-").replace("--", "-"),
                                 f"{prefix}components.{key[0]}",
                                 f"The record lists {label} {other['version']}; the page's list does not.",
                                 f"记录列出了 {label} {other['version']}，页面的列表中没有。",
                                 other["version"], "(not listed)", "component-list", url, record_url))
    return out


def _image_conflicts(draft: dict[str, Any], record: ReleaseRecord, url: str,
                     record_url: Optional[str]) -> list[dict[str, Any]]:
    """Conflicts of each image of the page against the recorded image it is."""
    out = []
    record_images = release_images(record)
    for vid, page_image in _page_images(draft):
        page_tags = {t["tag"] for t in page_image.get("image_tags", [])}
        image = _record_image(record_images, vid, page_tags)
        where = f"{vid} " if vid else ""
        prefix = f"variants.{image.variant_id}." if image is not None and image.variant_id else ""
        if image is None:
            out.append(_conflict(f"image-{vid or 'release'}-not-recorded", "variants",
                                 f"The page shows an image ({', '.join(sorted(page_tags))}) the record does not have.",
                                 f"页面列出了记录中没有的镜像（{', '.join(sorted(page_tags))}）。",
                                 "(none)", ", ".join(sorted(page_tags)), "assets", url, record_url))
            continue
        out += _tag_and_version_conflicts(draft, page_image, image, page_tags, where, prefix, url, record_url)
        out += _component_conflicts(page_image, image, where, prefix, url, record_url)
    return out


def _driver_conflicts(driver: dict[str, Any], recorded: Any, url: str,
                      record_url: Optional[str]) -> list[dict[str, Any]]:
    """The driver minimum, forward-compatibility branches and branches to upgrade where page and record differ."""
    out = []
    if driver["minimum"] != recorded.minimum:
        out.append(_conflict("driver-minimum", "driver.minimum",
                             f"The page requires driver {driver['minimum']}; the record has {recorded.minimum}.",
                             f"页面要求的驱动为 {driver['minimum']}，记录中为 {recorded.minimum}。",
                             recorded.minimum, driver["minimum"], "driver-text", url, record_url))
    page_forward = {f["branch"]: f["minimum"] for f in driver.get("forward_compatibility", [])}
    recorded_forward = {f.branch: f.minimum for f in recorded.forward_compatibility}
    if page_forward and page_forward != recorded_forward:
        shown = lambda d: ", ".join(f"R{b} {m}" for b, m in sorted(d.items())) or "(none)"  # noqa: E731
        out.append(_conflict("driver-forward-compatibility", "driver.forward_compatibility",
                             f"The page allows {shown(page_forward)} through forward compatibility; the "
                             f"record has {shown(recorded_forward)}.",
                             f"页面允许通过向前兼容使用 {shown(page_forward)}，记录中为 {shown(recorded_forward)}。",
                             shown(recorded_forward), shown(page_forward), "driver-text", url, record_url))
    page_upgrade = driver.get("must_upgrade_branches", [])
    if page_upgrade and sorted(page_upgrade) != sorted(recorded.must_upgrade_branches):
        shown_list = lambda xs: ", ".join(f"R{b}" for b in sorted(xs)) or "(none)"  # noqa: E731
        out.append(_conflict("driver-must-upgrade", "driver.must_upgrade_branches",
                             f"The page names {shown_list(page_upgrade)} as branches to upgrade; the record "
                             f"has {shown_list(recorded.must_upgrade_branches)}.",
                             f"页面列出需升级的分支为 {shown_list(page_upgrade)}，记录中为 "
                             f"{shown_list(recorded.must_upgrade_branches)}。",
                             shown_list(recorded.must_upgrade_branches), shown_list(page_upgrade),
                             "driver-text", url, record_url))
    return out


def _unique_ids(conflicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``conflicts`` with a repeated id numbered (``-2``, ``-3``, ...), in order."""
    seen: set[str] = set()
    unique = []
    for entry in conflicts:
        base, n = entry["id"], 2
        while entry["id"] in seen:
            entry["id"], n = f"{base}-{n}", n + 1
        seen.add(entry["id"])
        unique.append(entry)
    return unique


def compare_with_record(draft: dict[str, Any], record: ReleaseRecord, language: str) -> dict[str, Any]:
    """``{"source_conflicts": [...], "sources": [...]}`` (keys only when non-empty) for an existing record.

    Args:
        draft: the page's draft (see :func:`lingjun.generator.importer._draft.build_draft`).
        record: the record of the same release.
        language: the page's language.
    """
    url = draft["sources"][0]["url"]
    record_url = record.sources[0].url if record.sources else None
    conflicts: list[dict[str, Any]] = list(draft.get("source_conflicts", []))
    conflicts += _image_conflicts(draft, record, url, record_url)
    driver = draft.get("driver")
    if driver and record.driver is not None:
        conflicts += _driver_conflicts(driver, record.driver, url, record_url)
    out: dict[str, Any] = {}
    unique = _unique_ids(conflicts)
    if unique:
        out["source_conflicts"] = unique
    page_source = draft["sources"][0]
    cited_urls = {s.url for s in record.sources}
    languages = {s.language.value for s in record.sources}
    placeholder = page_source["url"] == PLACEHOLDER_URL
    if (not placeholder and page_source["url"] not in cited_urls) or (placeholder and language not in languages):
        out["sources"] = [{k: v for k, v in page_source.items() if k != "note"}]
    return out
