"""Machine-readable outputs: the JSON API and the Atom feeds.

Files (paths relative to the English site root):

* ``api/v1/releases.json``: ``{"format": 1, "releases": [...], "images": [...],
  "unrecorded": [...], "sources": [...]}``: every release record dumped with
  ``model_dump(mode="json")`` (variants and runtimes included, valid against
  ``release.schema.json``; a release with variants has no top-level
  ``component_list``, tags or components: :func:`api_record`), in (family, date) order; ``images`` indexes every
  image (one per variant, or the release itself) with its tags and their
  public and VPC references (:func:`image_index`); ``unrecorded`` the releases
  the pages name without a record, with where each is named; ``sources`` the
  pages about every family (the official index);
* ``api/v1/families.json``: the family catalog as ``families.yaml`` holds it
  (valid against ``families.schema.json``), unrecorded releases included;
* ``api/v1/releases/<family>/<release>.json``: one record;
* ``api/v1/schema/<kind>.schema.json``: the JSON Schemas from ``schema/``;
* ``feed.xml`` (English) and ``zh/feed.xml`` (Chinese): Atom feeds.

Feeds never depend on the build time, and never invent a date.  An entry
is dated by the release's own date from the evidence (``released``: a
dated image tag, the page's publication date or its last-updated stamp,
midnight UTC), never by when this knowledge base recorded or revised the
record: ``published`` and ``updated`` are ``released.date``, and the
entry's ``category`` names the kind of evidence (a last-updated stamp
means "published by then", not "published that day").  A release whose
evidence states no date is left out of the feeds (``YY.MM`` names a month,
not a day).  Entries are ordered by that date, newest first, then by family
id and release.  The feed's own ``updated`` is the latest entry's
(2000-01-01 for a feed without entries).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional
from xml.sax.saxutils import escape as xml_escape

import lingjun.schema
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import DOCUMENT_MODELS, Family, FamilyCatalog, ReleaseRecord
from lingjun.schema.release_images import release_images

__all__ = ["API_FORMAT", "api_record", "write_api", "feed_entries", "entry_dates", "atom_feed", "schema_files", "schema_dir",
           "image_index", "unrecorded_index", "family_catalog"]

API_FORMAT = 1


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n"


def schema_dir() -> Path:
    """Folder of the exported JSON Schemas: the installed ``lingjun.schema`` package.

    They are package data of ``lingjun.schema`` (``*.schema.json``, declared
    in ``pyproject.toml``), so an installed wheel has them as well as a
    checkout (editable install: the repository's ``schema/`` folder).
    """
    return Path(lingjun.schema.__file__).parent


def schema_files(folder: Optional[Path] = None) -> dict[str, str]:
    """``{file name: content}`` of the exported JSON Schemas, read from ``folder`` (default :func:`schema_dir`).

    Every kind of :data:`DOCUMENT_MODELS` must have its exported file.

    Raises:
        FileNotFoundError: naming the folder and the missing files, when an
            exported schema is missing (run ``lingjun-kb schema`` in a checkout,
            or reinstall the package).
    """
    folder = Path(folder) if folder is not None else schema_dir()
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.schema.json"))}
    missing = sorted(f"{kind}.schema.json" for kind in DOCUMENT_MODELS if f"{kind}.schema.json" not in files)
    if missing:
        raise FileNotFoundError(f"{folder}: exported JSON Schema(s) missing: {', '.join(missing)} "
                                "(run `lingjun-kb schema` in a checkout, or reinstall lingjun-kb)")
    return files


def _vpc_reference(family: Optional[Family], tag: str) -> Optional[str]:
    if family is None or not family.vpc_registry_pattern:
        return None
    return family.vpc_registry_pattern.replace("{image}", family.image_name).replace("{tag}", tag)


def image_index(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """One entry per image of every release (a variant, or the release itself), in release order.

    Shape: ``{"ref": "inference-nv-pytorch:25.04#vllm", "release": "inference-nv-pytorch:25.04",
    "variant": "vllm" or None, "title": {"en", "zh"} or None, "image_tags": [{"tag", "reference",
    "vpc_reference" (None where the family has no VPC address)}], "runtimes": [runtime ids], "component_list":
    the image's list state, "cuda": NVIDIA CUDA toolkit (None on a PPU image), "cuda_api": on a PPU image the CUDA
    API level of its PPU SDK (the ``cuda`` component, printed as cuda-wrapper), else None}``.
    """
    found = []
    for record in kb.releases:
        family = kb.families.get(record.family)
        for image in release_images(record):
            found.append({
                "ref": image.ref, "release": record.ref, "variant": image.variant_id,
                "title": image.title.model_dump(mode="json") if image.title else None,
                "image_tags": [{"tag": t.tag, "reference": t.reference, "vpc_reference": _vpc_reference(family, t.tag)}
                               for t in image.image_tags],
                "runtimes": [r.id for r in image.runtimes],
                "component_list": image.component_list.value if image.component_list else None,
                "cuda": image.cuda,
                "cuda_api": _cuda_api(kb, record, image.components),
            })
    return found


#: fields a release with variants keeps only inside its variants (the schema's model validator)
_VARIANT_HELD = ("image_tags", "components", "component_list", "presence_unknown", "runtimes")


def api_record(record: ReleaseRecord) -> dict[str, Any]:
    """A release record as the API serves it: ``model_dump(mode="json")``, valid against ``release.schema.json``.

    A release with variants holds its tags and component lists in ``variants``: its top-level ``component_list``
    (which would read "not-published", but no list of the release as a whole exists), ``image_tags``, ``components``,
    ``presence_unknown`` and ``runtimes`` are left out rather than served as a state and empty lists; the dump
    still validates as a :class:`ReleaseRecord`.
    """
    data = record.model_dump(mode="json")
    if record.variants:
        for key in _VARIANT_HELD:
            data.pop(key, None)
    return data


def _cuda_api(kb: KnowledgeBase, record: ReleaseRecord, components: Any) -> Optional[str]:
    """On a PPU image, the CUDA API level its PPU SDK offers (the ``cuda`` component, printed as cuda-wrapper);
    None on an NVIDIA image (its toolkit is ``cuda``) or when the page names none."""
    family = kb.families.get(record.family)
    ppu = (record.driver.vendor.value == "ppu" if record.driver is not None
           else family is not None and family.accelerator.value == "ppu")
    if not ppu:
        return None
    return next((e.version for e in components if e.id == "cuda"), None)


def unrecorded_index(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """Releases the official pages name without a record here, per family in catalog order.

    Shape: ``{"family", "version", "named_in": [source], "image_tags", "release_date", "note"}`` (the
    family's :class:`~lingjun.schema.models.UnrecordedRelease` dumped, with its family id).
    """
    return [{"family": family.id, **u.model_dump(mode="json")}
            for family in kb.families.values() for u in family.unrecorded_releases]


def family_catalog(kb: KnowledgeBase) -> dict[str, Any]:
    """The family catalog as ``families.yaml`` holds it (a :class:`FamilyCatalog`, JSON)."""
    catalog = FamilyCatalog(kind="families", sources=list(kb.catalog_sources), families=list(kb.families.values()))
    return catalog.model_dump(mode="json")


def write_api(kb: KnowledgeBase, out: Path, schemas: Optional[Path] = None) -> list[Path]:
    """Write the JSON API under ``out/api/v1``; returns the files written.

    ``schemas`` is the folder of exported JSON Schemas (default: the installed package's).

    Raises:
        FileNotFoundError: see :func:`schema_files`.
    """
    base = out / "api" / "v1"
    written: list[Path] = []
    records = [api_record(r) for r in kb.releases]
    target = base / "releases.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(_dump({"format": API_FORMAT, "releases": records, "images": image_index(kb),
                             "unrecorded": unrecorded_index(kb),
                             "sources": [s.model_dump(mode="json") for s in kb.catalog_sources]}), encoding="utf-8")
    written.append(target)
    if kb.families:
        target = base / "families.json"
        target.write_text(_dump(family_catalog(kb)), encoding="utf-8")
        written.append(target)
    for record, data in zip(kb.releases, records):
        target = base / "releases" / record.family / f"{record.version}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_dump(data), encoding="utf-8")
        written.append(target)
    for name, content in schema_files(schemas).items():
        target = base / "schema" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")
        written.append(target)
    return written


def _stamp(day: Any) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def entry_dates(record: ReleaseRecord) -> Optional[tuple[Optional[str], str]]:
    """``(published, updated)`` of a release's feed entry as RFC 3339 timestamps (midnight UTC): both the release's
    own date (``released.date``) when evidence states one; else no ``published`` and, as ``updated``, the day this
    knowledge base recorded it (``recorded``: when the entry appeared, which is what Atom's ``updated`` means;
    https://www.rfc-editor.org/rfc/rfc4287#section-4.2.15); None when the record has neither (left out)."""
    if record.released is not None:
        stamp = _stamp(record.released.date)
        return stamp, stamp
    if record.recorded is not None:
        return None, _stamp(record.recorded)
    return None


def feed_entries(kb: KnowledgeBase) -> list[ReleaseRecord]:
    """Releases in feed order: every release :func:`entry_dates` dates, by its entry's ``updated`` (the release's own
    date, else the day it was recorded), newest first, then by release order (``order_key``), newest first. A release whose date
    no evidence states is in the feed, dated by its recording and labelled so, never by a guessed release date."""
    dated = sorted((r for r in kb.releases if entry_dates(r) is not None), key=lambda r: (r.family, r.version))
    # of entries of one day (several recorded at once), the newer release first
    return sorted(dated, key=lambda r: (entry_dates(r)[1], tuple(r.order_key or ())), reverse=True)


#: the entry's category label per kind of date evidence, by language
_KIND_LABELS = {
    "image-tag": ("date stamped in the image tag", "镜像标签中的日期"),
    "page-published": ("the page's publication date", "页面的发布日期"),
    "page-updated": ("the page's last-updated date: published by then", "页面的最后更新日期：此前已发布"),
    "recorded": ("the day this knowledge base recorded it: no evidence read states the release's own date",
                 "本知识库记录它的日期：所读资料均未给出该版本的发布日期"),
}


def _attr(text: str) -> str:
    """``text`` escaped for a double-quoted XML attribute."""
    return xml_escape(text, {'"': "&quot;"})


def atom_feed(kb: KnowledgeBase, lang: str, page_prefix: str = "", base_url: Optional[str] = None) -> str:
    """The Atom feed for ``lang``.

    Args:
        page_prefix: path from the feed to the language's site root ("" for both,
            since each feed sits at its language root).
        base_url: absolute URL of the language's site root (ending in ``/``): every link
            is absolute.  None: links are relative to the feed's own URL, as RFC 4287
            (section 2, no ``xml:base``) and RFC 3986 (section 5.1.3) resolve them; a comment
            in the feed says so.
    """
    prefix = (base_url or "") + page_prefix
    entries = feed_entries(kb)
    title = "Lingjun AI container image releases" if lang == "en" else "灵骏 AI 容器镜像版本发布"
    updated = max((entry_dates(r)[1] for r in entries), default="2000-01-01T00:00:00Z")
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{"en" if lang == "en" else "zh-CN"}">',
        *([] if base_url else ["  <!-- links are relative to the URL this feed was fetched from -->"]),
        f"  <title>{xml_escape(title)}</title>",
        f"  <id>urn:lingjun-kb:releases:{lang}</id>",
        f"  <updated>{updated}</updated>",
        f'  <link rel="self" href="{_attr(prefix)}feed.xml"/>',
        f'  <link rel="alternate" href="{_attr(prefix or "./")}"/>',
        "  <author><name>lingjun-kb</name></author>",
    ]
    for record in entries:
        family = kb.families.get(record.family)
        image = family.image_name if family else record.family
        summary: Optional[str] = getattr(record.summary, lang)
        href = f"{prefix}releases/{record.family}/{record.version}/"
        published, entry_updated = entry_dates(record)
        kind = record.released.kind.value if record.released is not None else "recorded"
        label = _KIND_LABELS[kind][0 if lang == "en" else 1]
        lines += [
            "  <entry>",
            f"    <title>{xml_escape(f'{image} {record.version}')}</title>",
            f"    <id>urn:lingjun-kb:release:{record.family}:{record.version}</id>",
            *([f"    <published>{published}</published>"] if published else []),
            f"    <updated>{entry_updated}</updated>",
            f'    <category scheme="urn:lingjun-kb:release-date-kind" term="{kind}" label="{_attr(label)}"/>',
            f'    <link rel="alternate" href="{_attr(href)}"/>',
            f"    <summary>{xml_escape(summary or '')}</summary>",
            "  </entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
