"""The machine-readable report (``--format json``), schema ``lingjun-check/report/1``.

JSON Schema: ``checks/report.schema.json``.  Layout::

    {
      "schema": "lingjun-check/report/1",
      "tool": {"name": "lingjun-check", "version": "0.1.0"},
      "generated_at": "2025-08-01T10:00:00Z",        // UTC
      "lang": "en",                                  // language of message/remedy
      "origin": "live",                              // live | snapshot | collect_env | log
      "node": {"name": "node-a", "source": "NODE_NAME", "cluster": "prod-a"},  // option | NODE_NAME | hostname | null; cluster or null
      "exit_code": 0,
      "release": {
        "ref": "training-nv-pytorch:25.07",          // null when none applies
        "how": "fingerprint",                        // option | env | manifest | fingerprint | none
        "score": 0.92,                               // fingerprint only, else null
        "known": true,                               // the data holds a record for ref
        "url": "https://.../releases/training-nv-pytorch/25.07/",
        "candidates": [{"ref": "...", "score": 0.5}]
      },
      "summary": {"error": 0, "warning": 1, "info": 0, "ok": 9, "skipped": 12},
      "findings": [Finding.to_json(lang), ...],      // rule, severity, area, observed, expected, message, remedy, links, i18n
      "facts": {...}                                 // summary, see facts_summary()
    }

Additions within version 1 are new keys only; a consumer must ignore keys it
does not know.  Removing or retyping a key means ``report/2``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.core.inert_text import dumps
from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Finding
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.report.model import counts

__all__ = ["REPORT_SCHEMA", "report_dict", "render_json", "facts_summary"]

REPORT_SCHEMA = "lingjun-check/report/1"


def facts_summary(facts: Facts) -> dict[str, Any]:
    """The facts a reader of the report needs first (never host names or UUIDs)."""
    gpus = [
        {"index": g.index, "name": g.name, "brand": g.brand, "compute_capability": g.compute_capability, "memory_total_mib": g.memory_total_mib}
        for g in facts.gpus
    ]
    return {
        "os": facts.host.os_pretty_name,
        "machine": facts.host.machine,
        "python": facts.python.version,
        "driver_version": facts.driver_version,
        "driver_source": "proc" if facts.driver.kernel_module_version else ("nvml" if facts.nvml.driver_version else ("nvidia-smi" if facts.nvidia_smi.driver_version else None)),
        "nvml_init_error": facts.nvml.init_error,
        "gpus": gpus,
        "libcuda": {"path": facts.libcuda.path, "version": facts.libcuda.file_version, "forward_compat": facts.libcuda.is_forward_compat, "driver_api_version": facts.libcuda.driver_api_version},
        "cuda_toolkit": facts.cuda.toolkit_version or facts.cuda.env_cuda_version,
        "torch": None if facts.torch is None else {"version": facts.torch.version, "cuda": facts.torch.cuda},
        "cudnn": facts.cudnn.resolved.version if facts.cudnn.resolved else facts.cudnn.header_version,
        "nccl": facts.nccl.resolved.version if facts.nccl.resolved else facts.nccl.header_version,
        "distributions": len(facts.distributions),
        "interfaces": [i.name for i in facts.network],
        # what the input could show (lingjun.checks.coverage): sections not listed were observed
        "coverage": {"not_available": list(facts.coverage.not_available), "partial": list(facts.coverage.partial)},
        "symptoms": {"cuda_available": facts.symptoms.cuda_available, "errors": list(facts.symptoms.errors)},
        "probes": [
            {"name": p.name, "seconds": p.seconds, "ok": p.ok, "timed_out": p.timed_out, "error": p.error} for p in facts.probes
        ],
    }


def report_dict(
    findings: list[Finding],
    release: ReleaseMatch,
    facts: Facts,
    data: KnowledgeData,
    lang: str = "en",
    version: str = "",
    exit_status: Optional[int] = None,
    evidence: Optional[Evidence] = None,
    diagnoses: Optional[dict[str, dict[str, Any]]] = None,
) -> dict[str, Any]:
    """The report as a dict (see the module docstring); ``evidence``: what the logs showed (``evidence`` key,
    null when no log or error line was read)."""
    return {
        "schema": REPORT_SCHEMA,
        "tool": {"name": "lingjun-check", "version": version},
        "generated_at": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "lang": lang,
        "origin": facts.origin,
        "node": {"name": facts.node.name, "source": facts.node.source if facts.node.name else None, "cluster": facts.node.cluster},
        "exit_code": exit_status,
        "release": {
            "ref": release.ref,
            "how": release.how,
            "score": release.score,
            "known": release.record is not None,
            "url": data.release_url(release.ref, lang) if release.ref and release.record is not None else None,
            "candidates": [{"ref": ref, "score": score} for ref, score in release.candidates],
            "variant": release.variant,
            "variant_candidates": list(release.variant_candidates),
            "runtime": dict(release.runtime) if release.runtime else None,
        },
        "summary": counts(findings),
        "findings": [f.to_json(lang) for f in findings],
        "facts": facts_summary(facts),
        "evidence": evidence_summary(evidence, lang, diagnoses),
    }


def evidence_summary(evidence: Optional[Evidence], lang: str = "en",
                     diagnoses: Optional[dict[str, dict[str, Any]]] = None) -> Optional[dict[str, Any]]:
    """The logs read, their matched lines (signature, ``file:line``, the masked line, how many lines, and from
    ``diagnoses``: ``severity``, the leading ``cause`` id, the ``ruled_out`` cause ids, the ``places`` the remedy is
    for), the facts they state, the lines the catalogs name, the error lines nothing names (``unknown``) and the lines
    a pattern ran out of time on (``not_judged``), or None when none was read."""
    if evidence is None or not evidence.read_logs:
        return None
    return {
        "logs": list(evidence.sources),
        "lines": evidence.lines,
        "matches": [{"signature": h.signature, "where": h.first.where(), "line": h.first.text, "count": h.count,
                     **(diagnoses or {}).get(h.signature, {})}
                    for h in evidence.hits],
        "stated": {name: {"value": fact.value, "where": fact.line.where()} for name, fact in evidence.stated.items()
                   if name not in evidence.conflicts},
        "conflicts": {name: list(values) for name, values in evidence.conflicts.items()},
        "xids": list(evidence.xids),
        "catalog": [{"where": h.first.where(), "line": h.first.text, "count": h.count, "covered": h.covered,
                     "entries": [_catalog_entry(m) for m in h.matches]} for h in evidence.catalog_hits],
        "unknown": [{"where": line.where(), "line": line.text} for line in evidence.unmatched],
        "error_level": {"count": evidence.error_level_count,
                        "first": [{"where": line.where(), "line": line.text} for line in evidence.error_level]},
        "not_judged": [{"signature": n.signature, "literal": n.literal, "where": n.first.where(), "line": n.first.text,
                        "count": n.count, "why": n.why} for n in evidence.not_judged],
        "notes": [en if lang == "en" else zh for en, zh in evidence.notes],
    }


def _catalog_entry(match: Any) -> dict[str, Any]:
    """One catalog entry a line names, for tools: ``catalog`` (``xid``, ``cuda``, ``nccl``, ``container-cli``), ``id``
    (the entry's anchor on the site's catalog page: ``xid-45``, ``cuda-runtime-802``, ``nccl-1a2b3c4d``,
    ``cli-1a2b3c4d``; None when the catalog does not hold it), ``number`` (the Xid or code the line states), ``name``
    (NVIDIA's name, the enum name, the NCCL file, libnvidia-container's format), for NCCL and nvidia-container-cli
    ``subsystem``, and for nvidia-container-cli the CLI ``stage`` (``mount error``) or None."""
    info = match.info
    if match.catalog == "xid":
        return {"catalog": "xid", "id": f"xid-{match.number}" if info is not None else None, "number": match.number,
                "name": info.name if info is not None else None}
    if match.catalog == "cuda":
        return {"catalog": "cuda", "id": info.anchor if info is not None else None, "number": match.number,
                "name": info.name if info is not None else None, "api": match.api}
    if match.catalog == "container-cli":
        return {"catalog": "container-cli", "id": info.anchor if info is not None else None, "number": None,
                "name": info.format if info is not None else None, "subsystem": match.subsystem,
                "stage": match.context.stage if match.context is not None else None}
    return {"catalog": "nccl", "id": info.anchor if info is not None else None, "number": None,
            "name": info.file if info is not None else match.file, "subsystem": match.subsystem}


def render_json(*args: Any, **kwargs: Any) -> str:
    """:func:`report_dict` serialised with two-space indentation, ending with a newline.

    Every string is shortened past :data:`~lingjun.checks.core.inert_text.ECHO_LIMIT` characters
    (``… (N more characters)``) and C0/C1 controls, DEL and bidi controls are ``\\uNNNN`` escapes
    (see :func:`lingjun.checks.core.inert_text.dumps`).
    """
    return dumps(report_dict(*args, **kwargs), indent=2) + "\n"
