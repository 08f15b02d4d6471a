"""Check each node of a fleet as ``lingjun-check --from`` would, once per distinct set of facts.

A snapshot is read (:func:`~lingjun.checks.inputs.snapshot.facts_from_snapshot_dict`),
its release identified and every rule run, exactly as for one node.  Nodes of
one job mostly carry the same facts, and the rules see only the facts (never the
node's name or the time of collection), so the result is cached by a
fingerprint: the SHA-256 of the snapshot without ``node``, ``collected_at``,
``host.hostname`` and the probes' ``seconds``.  A snapshot still held as text
(:class:`~lingjun.checks.fleet._inputs.Record`) is fingerprinted from its text
with those members cut out (:func:`text_fingerprint`), so a repeat is never
parsed; a parsed one from its JSON (:func:`fingerprint`).  Two snapshots that
differ in anything else (even key order or spacing) are checked apart: the
cache can miss, never confuse two sets of facts.  Cost: a repeat costs a hash of
its text (well under a millisecond); each distinct set of facts one full check
(about 10 ms of CPU here, measured with 200 distinct snapshots), so a fleet
whose nodes all differ is as slow as checking each node alone.  A report is not checked again: its findings, summary
and exit code are taken as written (with ``--strict`` the exit code is derived
again from its summary).  A snapshot is checked with the options its own run recorded (``check_options``:
``--require-gpu``, ``--release`` as given, ``--gpus-per-pod``, ``--model``, ``--strict``), fleet's ``--require-gpu``,
``--strict`` and ``--release`` added (:mod:`lingjun.checks.inputs.recorded_options`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core.inert_text import capped
from lingjun.checks.fleet._identity import own_name
from lingjun.checks.fleet._inputs import SNAPSHOT, Record
from lingjun.checks.fleet._node_facts import facts_values, nccl_env_shown, release_fact, report_values
from lingjun.checks.report.findings import SEVERITY_ORDER

__all__ = ["NodeResult", "Checker", "fingerprint", "text_fingerprint", "report_fingerprint", "SHOWN_SEVERITIES", "field_notes",
           "NOTES_PER_NODE"]

#: the unusable fields named per node; the rest are counted in one more note
NOTES_PER_NODE = 5

#: the severities whose findings are listed per node and grouped per rule (ok and skipped are only counted)
SHOWN_SEVERITIES = ("error", "warning", "info")
_SEVERITIES = tuple(s.value for s in SEVERITY_ORDER)


@dataclass
class NodeResult:
    """One node checked.

    ``findings`` are ``(rule, severity, message)`` of the :data:`SHOWN_SEVERITIES`, message in the
    report's language (shortened to :data:`~lingjun.checks.core.inert_text.ECHO_LIMIT` characters), and
    ``findings_json`` the same as JSON objects (one list shared by the nodes of one set of facts); ``counts`` the findings per severity; ``exit_code`` 0, 1 or 2 as
    ``lingjun-check`` would exit; ``values`` the compared facts (:mod:`._node_facts`);
    ``env_shown`` whether an ``NCCL_*`` variable it lacks is known not to be set.
    """

    name: str
    source: str
    input: str
    kind: str
    release: Optional[str]
    exit_code: int
    counts: dict
    findings: list
    values: dict
    env_shown: bool
    snapshot_problems: int = 0
    findings_json: list = field(default_factory=list)
    #: what the node's findings were derived from (:func:`fingerprint`, :func:`text_fingerprint`, a report's
    #: :func:`report_fingerprint`): two inputs of one node with the same key are one node checked twice (a retry)
    key: str = ""
    #: the snapshot reader's problems (field and why: "shm.size_bytes: -1 is out of range ...; ignored")
    field_problems: list = field(default_factory=list)


@dataclass
class _Checked:
    release: Optional[str]
    counts: dict
    findings: list
    findings_json: list
    has_errors: bool
    has_warnings: bool
    values: dict
    env_shown: bool
    snapshot_problems: int
    #: the node's own run asked for --strict (recorded in its snapshot): its warnings make its exit code 2
    strict: bool = False
    field_problems: list = field(default_factory=list)


#: the members cut from a snapshot's text before it is fingerprinted: identity and time (keys only: a quote inside a
#: JSON string is always escaped, so these patterns cannot match inside a value)
_VOLATILE = re.compile(
    r'"(?:collected_at|hostname)"\s*:\s*(?:null|"(?:[^"\\]|\\.)*")'
    r'|"seconds"\s*:\s*-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?=\s*[,}])'
    r'|"node"\s*:\s*\{[^{}]*\}'
)


def text_fingerprint(text: str) -> str:
    """``"t:"`` and the SHA-256 (hex) of a snapshot's JSON text without its identity and time members."""
    return "t:" + hashlib.sha256(_VOLATILE.sub("", text).encode("utf-8", "surrogatepass")).hexdigest()


def field_notes(record: Record, field_problems: "list[str]") -> list:
    """One :class:`~lingjun.checks.fleet._inputs.InputProblem` per unusable field of ``record``'s snapshot (the field and
    why, as the snapshot reader words it), at most :data:`NOTES_PER_NODE` and one that counts the rest."""
    from lingjun.checks.core.inert_text import inert
    from lingjun.checks.fleet._inputs import InputProblem

    notes = [InputProblem(record.input, record.line, f"snapshot field {inert(p, 300)}", record.pod, note=True)
             for p in field_problems[:NOTES_PER_NODE]]
    if len(field_problems) > NOTES_PER_NODE:
        notes.append(InputProblem(record.input, record.line, f"and {len(field_problems) - NOTES_PER_NODE} more unusable snapshot fields",
                                  record.pod, note=True))
    return notes


def _as_json(findings: list) -> list:
    return [{"rule": rule, "severity": severity, "message": message} for rule, severity, message in findings]


def fingerprint(data: "dict[str, Any]") -> str:
    """``"d:"`` and the SHA-256 (hex) of the parsed snapshot ``data`` without its identity and time fields."""
    trimmed = {k: v for k, v in data.items() if k not in ("node", "collected_at")}
    host = trimmed.get("host")
    if isinstance(host, dict) and "hostname" in host:
        trimmed["host"] = {k: v for k, v in host.items() if k != "hostname"}
    probes = trimmed.get("probes")
    if isinstance(probes, list):
        trimmed["probes"] = [{k: v for k, v in p.items() if k != "seconds"} if isinstance(p, dict) else p for p in probes]
    text = json.dumps(trimmed, sort_keys=True, ensure_ascii=True, separators=(",", ":"), default=str)
    return "d:" + hashlib.sha256(text.encode("ascii")).hexdigest()


def report_fingerprint(data: "dict[str, Any]") -> str:
    """``"r:"`` and the SHA-256 (hex) of a parsed JSON report without its node, its time and its probes' seconds."""
    trimmed = {k: v for k, v in data.items() if k not in ("node", "generated_at")}
    facts = trimmed.get("facts")
    if isinstance(facts, dict) and isinstance(facts.get("probes"), list):
        trimmed["facts"] = dict(facts, probes=[{k: v for k, v in p.items() if k != "seconds"} if isinstance(p, dict) else p
                                               for p in facts["probes"]])
    text = json.dumps(trimmed, sort_keys=True, ensure_ascii=True, separators=(",", ":"), default=str)
    return "r:" + hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclass
class Checker:
    """Checks nodes against the release ``data`` (``--release`` as ``release_option``), caching by :func:`fingerprint`.

    Raises (from :meth:`check`): :class:`~lingjun.checks.knowledge.identify.UnknownReleaseError` for an
    unknown ``release_option`` (the CLI checks it first).
    """

    data: Any
    release_option: Optional[str] = None
    lang: str = "en"
    strict: bool = False
    #: ``fleet --require-gpu``: every node must show an NVIDIA driver (added to each snapshot's own options)
    require_gpu: bool = False
    cache: dict = field(default_factory=dict)
    #: how many nodes were checked by running the rules (the rest came from the cache)
    runs: int = 0

    def check(self, record: Record) -> NodeResult:
        """The :class:`NodeResult` of one record, named by :func:`~lingjun.checks.fleet._identity.own_name`.

        Raises:
            RecordError: the record's text is not a complete JSON object (a line cut short).
        """
        name, source = own_name(record)
        if record.kind == SNAPSHOT:
            key = text_fingerprint(record.text) if record.data is None and record.text is not None else fingerprint(record.data or {})
            checked = self.cache.get(key)
            if checked is None:
                checked = self.cache[key] = self._run(record.load())
        else:
            key = report_fingerprint(record.data or {})
            checked = self._from_report(record.data)
        if checked.has_errors:
            status = 1
        elif (self.strict or checked.strict) and checked.has_warnings:
            status = 2
        else:
            status = 0
        return NodeResult(name=name, source=source, input=record.where, kind="snapshot" if record.kind == SNAPSHOT else "report",
                          release=checked.release, exit_code=status, counts=checked.counts, findings=checked.findings,
                          values=checked.values, env_shown=checked.env_shown, snapshot_problems=checked.snapshot_problems,
                          findings_json=checked.findings_json, key=key, field_problems=checked.field_problems)

    def _run(self, data: "dict[str, Any]") -> _Checked:
        from lingjun.checks.context import CheckContext, CheckOptions
        from lingjun.checks.inputs.recorded_options import identify_with, merged_options
        from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
        from lingjun.checks.report.model import counts
        from lingjun.checks.runner import run_rules

        self.runs += 1
        facts, problems = facts_from_snapshot_dict(data)
        # the node re-checks as its own pod did (its recorded --require-gpu, --release ...); fleet's options add to them
        chosen = merged_options(facts.check_options, require_gpu=self.require_gpu, release=self.release_option)
        release = identify_with(facts, self.data, chosen.release, self.release_option, problems)
        options = CheckOptions(lang=self.lang, served_model=chosen.model, gpus_per_pod=chosen.gpus_per_pod, require_gpu=bool(chosen.require_gpu))
        ctx = CheckContext(facts=facts, data=self.data, release=release, options=options)
        findings = run_rules(ctx, snapshot_problems=problems)
        tally = counts(findings)
        shown = [(f.rule, f.severity.value, capped(f.message.get(self.lang))) for f in findings if f.severity.value in SHOWN_SEVERITIES]
        # the image, not only the release: nodes on the vLLM and on the SGLang image of one release differ here
        shown_release = release_fact(release.ref, release.variant, release.variant_candidates) if release.ref else None
        return _Checked(release=shown_release, counts=tally, findings=shown, findings_json=_as_json(shown), has_errors=tally["error"] > 0,
                        has_warnings=tally["warning"] > 0, values=facts_values(facts, shown_release),
                        env_shown=nccl_env_shown(facts), snapshot_problems=len(problems), strict=bool(chosen.strict),
                        field_problems=list(problems))

    def _from_report(self, data: "dict[str, Any]") -> _Checked:
        raw = data.get("summary") if isinstance(data.get("summary"), dict) else {}
        tally = {s: raw[s] if isinstance(raw.get(s), int) and not isinstance(raw.get(s), bool) and raw[s] >= 0 else 0 for s in _SEVERITIES}
        shown = []
        items = data.get("findings") if isinstance(data.get("findings"), list) else []
        for f in items:
            if not isinstance(f, dict) or f.get("severity") not in SHOWN_SEVERITIES or not isinstance(f.get("rule"), str):
                continue
            message = f.get("message")
            i18n = f.get("i18n")
            if isinstance(i18n, dict) and isinstance(i18n.get("message"), dict) and isinstance(i18n["message"].get(self.lang), str):
                message = i18n["message"][self.lang]
            shown.append((capped(f["rule"], 200), f["severity"], capped(message) if isinstance(message, str) else ""))
        errors = tally["error"] > 0 or any(s == "error" for _, s, _ in shown) or data.get("exit_code") == 1
        warnings = tally["warning"] > 0 or any(s == "warning" for _, s, _ in shown)
        values = report_values(data)
        release = values["release"] if isinstance(values["release"], str) else None  # UNKNOWN is no reference
        return _Checked(release=release, counts=tally, findings=shown, findings_json=_as_json(shown), has_errors=errors, has_warnings=warnings,
                        values=values, env_shown=False, snapshot_problems=0, strict=data.get("exit_code") == 2)  # its run's --strict
