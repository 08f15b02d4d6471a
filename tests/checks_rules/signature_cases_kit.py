"""Helpers for the case tests of error signatures read from logs: the checkout's real signatures
(``releases/troubleshooting/``) on top of the fixture knowledge base, in process and through the command line.

The signatures are loaded from their YAML files here, not taken from ``checks/data/bundle.json``, so a test judges
the records as written (``lingjun-kb bundle`` carries the same dump into the embedded data).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from checks_rules_kit import ROOT, assert_bilingual, context, fixture_bundle, run
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.report.findings import Severity

TROUBLESHOOTING = ROOT / "releases" / "troubleshooting"
RULE = "evidence.error-lines"


@functools.lru_cache(maxsize=1)
def _signatures() -> tuple:
    from lingjun.schema.loader import assemble, load_paths

    result = load_paths(sorted(TROUBLESHOOTING.glob("*.yaml")))
    errors = [p for p in result.problems if p.is_error]
    assert not errors, f"{TROUBLESHOOTING} does not load: {errors}"
    kb = assemble(result.documents)
    from lingjun.generator.bundle import SIGNATURE_SITE_ONLY

    return tuple(json.dumps(sig.model_dump(mode="json", exclude=SIGNATURE_SITE_ONLY))
                 for sig in sorted(kb.signatures.values(), key=lambda sig: sig.id))


def bundle() -> dict[str, Any]:
    """The fixture bundle with every signature of the checkout (as ``lingjun-kb bundle`` dumps them)."""
    out = fixture_bundle()
    out["signatures"] = [json.loads(sig) for sig in _signatures()]
    return out


def signature(sig_id: str) -> dict[str, Any]:
    """One signature of the checkout, as the bundle holds it."""
    return next(sig for sig in bundle()["signatures"] if sig["id"] == sig_id)


def findings_for_log(tmp_path: Path, lines: list[str], facts: "Facts | None" = None, **options: Any) -> list:
    """The ``evidence.error-lines`` findings of a log made of ``lines`` (``job.log`` in ``tmp_path``)."""
    log = tmp_path / "job.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    kd = KnowledgeData.from_dict(bundle())
    facts = facts if facts is not None else Facts()
    ctx = context(facts, kd, **options)
    ctx.evidence = gather_evidence(kd, facts, [str(log)])
    return [f for f in run(RULE, ctx)]


def remedy_values_for_log(tmp_path: Path, lines: list[str], names: list[str]):
    """The remedy values (:func:`lingjun.checks.rules._remedy_values.remedy_values`, English and Chinese) a log made
    of ``lines`` gives, nothing probed."""
    from lingjun.checks.rules._remedy_values import remedy_values

    log = tmp_path / "values.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    kd = KnowledgeData.from_dict(bundle())
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    return remedy_values(ctx, names)


def lead_finding(tmp_path: Path, lines: list[str]):
    """The first ``evidence.error-lines`` finding of a log made of ``lines``."""
    return findings_for_log(tmp_path, lines)[0]


def evidence_for_log(tmp_path: Path, lines: list[str]):
    """The evidence a log made of ``lines`` gives (matched signatures and stated facts)."""
    log = tmp_path / "job.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    kd = KnowledgeData.from_dict(bundle())
    return gather_evidence(kd, Facts(), [str(log)])


def cli_report(tmp_path: Path, lines: list[str], *args: str) -> dict[str, Any]:
    """``lingjun-check --log job.log --data <this bundle> --format json --lang en`` (exit 0 or 1), as a dict."""
    log = tmp_path / "job.log"
    log.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    data = tmp_path / "bundle.json"
    data.write_text(json.dumps(bundle()), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--log", str(log), "--data", str(data),
                           "--format", "json", "--lang", "en", *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def line_finding(report: dict[str, Any], signature_id: str) -> dict[str, Any]:
    """The ``evidence.error-lines`` finding of the JSON report whose line matched ``signature_id``."""
    where = next(m["where"] for m in report["evidence"]["matches"] if m["signature"] == signature_id)
    return next(f for f in report["findings"] if f["rule"] == RULE and f["observed"] == where)


def lead_cause(report: dict[str, Any], signature_id: str) -> "str | None":
    """The leading cause id the JSON report names for ``signature_id``."""
    return next(m for m in report["evidence"]["matches"] if m["signature"] == signature_id).get("cause")


# --- the checks every case module of a trial makes ------------------------------------------------------------------


def assert_line_is(tmp_path: Path, line: str, sig_id: str, cause: str) -> None:
    """``line`` alone matches ``sig_id`` and nothing else, and the command line's report leads with ``cause``."""
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [sig_id]
    assert lead_cause(cli_report(tmp_path, [line]), sig_id) == cause


def assert_matches_none(tmp_path: Path, line: str, signature_ids: "set[str]") -> None:
    """``line`` (a near miss) matches none of ``signature_ids``."""
    assert not signature_ids & {h.signature for h in evidence_for_log(tmp_path, [line]).hits}


def assert_log_leads(tmp_path: Path, lines: list[str], sig_id: str, cause: str) -> list:
    """The report of a log made of ``lines`` lists ``sig_id`` first with ``cause`` as its lead; returns the log's
    findings that are not ok (each checked bilingual), for the module's own further checks."""
    report = cli_report(tmp_path, lines)
    assert report["evidence"]["matches"][0]["signature"] == sig_id
    assert lead_cause(report, sig_id) == cause
    findings = not_ok_findings(tmp_path, lines)
    assert_bilingual(findings)
    return findings


def not_ok_findings(tmp_path: Path, lines: list[str]) -> list:
    """The findings of a log made of ``lines`` that are not ok, in report order (the first is the lead)."""
    return [f for f in findings_for_log(tmp_path, lines) if f.severity is not Severity.ok]

