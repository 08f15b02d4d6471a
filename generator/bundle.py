"""Compile the validated knowledge base into the JSON bundle the checker embeds.

See :mod:`lingjun.checks.knowledge.bundle` for the layout.  The output is
deterministic: same input, byte-identical JSON.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from lingjun.checks.knowledge.error_catalogs import CATALOGS_FORMAT
from lingjun.checks.knowledge.bundle import BUNDLE_FORMAT
from lingjun.schema.error_catalogs import CUDA_APIS
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import Family, ReleaseRecord

__all__ = ["compile_bundle", "bundle_json"]


#: release fields the checker never reads and the bundle leaves out, so the single-file checker stays under
#: its size budget: the editorial account of where the official pages contradict each other, the summary,
#: highlights and bug fixes (prose in two languages, shown on the site), the base image and the acknowledged
#: downgrades (shown on the release page; no rule reads them), and the site's own bookkeeping (when a record
#: was added or revised, which lists the page states as empty)
_SITE_ONLY_RELEASE_FIELDS = {"source_conflicts", "summary", "highlights", "bug_fixes", "recorded", "revised", "stated_none",
                             "base_image", "acknowledged_downgrades", "carried_from", "carried_over"}
#: component-entry fields only the site shows (where on the page a version was read, the entry's note)
_SITE_ONLY_COMPONENT_FIELDS = {"stated_in", "note", "carried_over"}
#: what a source says about the copy of the page read, and its "last updated" stamp: the site shows them;
#: the checker links to a source by its url and language
_SITE_ONLY_SOURCE_FIELDS = {"sources": {"__all__": {"note", "last_updated"}}}
#: a signature's fields only the gate and the site read: its examples, overlaps, record kind, and its sources'
#: titles (the checker links a source by its address; the titles were a fifth of the signatures' bytes)
SIGNATURE_SITE_ONLY = {"examples": True, "overlaps": True, "kind": True, "schema_version": True,
                       "sources": {"__all__": {"title"}}}
#: more release fields only the site shows: notes and titles around what the checker reads (the driver's and
#: GPU list's notes, the quick-start steps' titles and notes, the features' titles)
_SITE_ONLY_NESTED = {"driver": {"note"}, "gpu_support": {"note"}, "quick_start": {"__all__": {"title", "note"}},
                     "features": {"__all__": {"title"}}, **_SITE_ONLY_SOURCE_FIELDS}
#: variant and runtime fields only the site shows (prose and links the checker never prints); the checker
#: reads a variant's id, title, tags, architectures, python/cuda/ppu_sdk and component list, and a runtime's
#: id, name, path, python and component list
_SITE_ONLY_VARIANT_FIELDS = {"use_case", "scenarios", "note", "carried_over"}
_SITE_ONLY_RUNTIME_FIELDS = {"upstream", "status", "note", "carried_over"}
#: family and catalog fields only the site shows (descriptions, scenarios, where a family is described); the
#: releases a family's pages name that hold no record are carried lean (:func:`_unrecorded`)
_SITE_ONLY_FAMILY_FIELDS = {"description", "scenarios", "unrecorded_releases", "sources", "accelerator", "framework"}
_SITE_ONLY_CATALOG_FIELDS = {"description", "layer"}


def _release(record: ReleaseRecord) -> dict[str, Any]:
    """One release as the checker reads it: the record less the site-only fields (at every level), with ``order_key``
    (``[year, month, day]`` or null: :meth:`ReleaseRecord.order_key`), so the checker never orders
    identifiers as text."""
    components = {"__all__": _SITE_ONLY_COMPONENT_FIELDS}
    runtime = {"__all__": {**{name: True for name in _SITE_ONLY_RUNTIME_FIELDS}, "components": components}}
    exclude: dict[str, Any] = {name: True for name in _SITE_ONLY_RELEASE_FIELDS}
    exclude.update(_SITE_ONLY_NESTED)
    exclude["components"] = components
    exclude["runtimes"] = runtime
    exclude["variants"] = {"__all__": {**{name: True for name in _SITE_ONLY_VARIANT_FIELDS}, "components": components,
                                       "runtimes": runtime}}
    exclude["released"] = True  # the checker orders by ``order_key``; it reads the date as ``release_date``
    out = record.model_dump(mode="json", exclude=exclude)
    if record.released is not None:
        out["release_date"] = record.released.date.isoformat()
    key = record.order_key
    out["order_key"] = list(key) if key is not None else None
    return out


def _family(family: Family) -> dict[str, Any]:
    """One family as the checker reads it, with ``unrecorded_releases`` lean: each release the pages name without a
    record as ``{"version", "image_tags": [tag, ...], "named_in": [url, ...]}`` (the checker says "published, not
    yet recorded" and where it is named, never more), left out when there are none."""
    out = family.model_dump(mode="json", exclude=_SITE_ONLY_FAMILY_FIELDS)
    unrecorded = [{"version": u.version, "image_tags": list(u.image_tags), "named_in": [str(s.url) for s in u.named_in]}
                  for u in family.unrecorded_releases]
    if unrecorded:
        out["unrecorded_releases"] = unrecorded
    return out


def compile_bundle(kb: KnowledgeBase, site_url: Optional[str] = None) -> dict[str, Any]:
    """The bundle dict for ``kb`` (every model dumped with ``mode="json"``; families, the catalog, release
    records, their variants, runtimes and component entries without the fields only the site shows, each
    release with its ``order_key``; each family's unrecorded releases lean, :func:`_family`).

    ``site_url``: the published site's root (ending in ``/``) the checker's report links point into;
    None (stored as null): the reports link to each record's official release page and to upstream
    documents instead."""
    return {
        "format": BUNDLE_FORMAT,
        "site_url": site_url,
        "families": [_family(f) for f in kb.families.values()],
        "components": [c.model_dump(mode="json", exclude=_SITE_ONLY_CATALOG_FIELDS) for c in kb.components.values()],
        "releases": [_release(r) for r in kb.releases],
        "known_issues": [k.model_dump(mode="json", exclude=_SITE_ONLY_SOURCE_FIELDS)
                         for k in sorted(kb.known_issues.values(), key=lambda k: k.id)],
        "signatures": [sig.model_dump(mode="json", exclude=SIGNATURE_SITE_ONLY)
                       for sig in sorted(kb.signatures.values(), key=lambda sig: sig.id)],
        "cuda_drivers": kb.cuda_drivers.model_dump(mode="json") if kb.cuda_drivers else None,
        "driver_branches": kb.driver_branches.model_dump(mode="json") if kb.driver_branches else None,
        "gpus": kb.gpus.model_dump(mode="json") if kb.gpus else None,
        "torch_wheels": kb.torch_wheels.model_dump(mode="json") if kb.torch_wheels else None,
        "catalog_messages": _catalog_messages(kb),
    }


def _catalog_messages(kb: KnowledgeBase) -> list[str]:
    """The CUDA runtime and driver messages a log is searched for (as :func:`~lingjun.checks.knowledge.catalog_lines.
    message_literals` writes them), so that ``lingjun-check --log`` finds one another program's wrapper quotes without
    reading the catalogs first: each message once, sorted (the literals are made from them when a log is read)."""
    from lingjun.checks.knowledge.catalog_lines import tail_messages  # deferred: the checker's reading of log lines

    if kb.cuda_errors is None:
        return []
    return tail_messages([message for api in ("runtime", "driver") for entry in getattr(kb.cuda_errors, api)
                          for message in ([entry.message] if entry.message else []) + list(entry.older_messages or ())])


def bundle_json(bundle: dict[str, Any]) -> str:
    """Serialise a bundle compactly and deterministically."""
    return json.dumps(bundle, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def compile_error_catalogs(kb: KnowledgeBase) -> Optional[dict[str, Any]]:
    """The error catalogs' dict (``checks/data/error-catalogs.json``, read by
    :mod:`lingjun.checks.knowledge.error_catalogs`), or None when ``releases/errors/`` holds none.

    NCCL's and libnvidia-container's messages become compact rows ``[file, first line, last line, first version, last version, format]``:
    the catalog holds several hundred of them and the archive has a size budget."""
    if kb.xids is None and kb.cuda_errors is None and kb.nccl_warnings is None and kb.container_cli is None:
        return None

    def head(catalog: Any) -> dict[str, Any]:
        return {"edition": catalog.edition, "sources": [s.model_dump(mode="json") for s in catalog.sources]}

    out: dict[str, Any] = {"format": CATALOGS_FORMAT}
    if kb.xids is not None:
        out["xid"] = {**head(kb.xids), "entries": [e.model_dump(mode="json", exclude_defaults=True) for e in kb.xids.entries]}
    if kb.cuda_errors is not None:
        cuda = kb.cuda_errors

        def cuda_entry(api: str, entry: Any) -> dict[str, Any]:
            dumped = entry.model_dump(mode="json", by_alias=True, exclude_defaults=True)
            remedy = cuda.remedy_of(api, entry)  # a driver code's runtime twin's remedy (schema's one rule)
            if remedy is not None:
                dumped["remedy"] = remedy.model_dump(mode="json")
            return dumped

        out["cuda"] = {**head(cuda), **{api: [cuda_entry(api, e) for e in getattr(cuda, api)] for api in CUDA_APIS}}
    if kb.nccl_warnings is not None:
        nccl = kb.nccl_warnings
        out["nccl"] = {**head(nccl), "versions": list(nccl.versions),
                       "subsystems": [s.model_dump(mode="json") for s in nccl.subsystems],
                       "messages": [[m.file, m.lines[0], m.lines[1], m.versions[0], m.versions[1], m.format]
                                    for m in nccl.messages]}
    if kb.container_cli is not None:  # rows: [file, first line, last line, first version, last version, format,
        cli = kb.container_cli        #        appends or None, context]
        out["container-cli"] = {**head(cli), "versions": list(cli.versions),
                                "subsystems": [s.model_dump(mode="json", exclude_defaults=True) for s in cli.subsystems],
                                "messages": [[m.file, m.lines[0], m.lines[1], m.versions[0], m.versions[1], m.format,
                                              m.appends, m.context] for m in cli.messages]}
    return out
