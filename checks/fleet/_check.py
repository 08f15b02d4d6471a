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
cache can miss, never confuse two sets of facts.  A repeat costs a regular
expression pass and a hash of its text (about 1.5 ms for a 232 KB snapshot, less
than parsing it); a new text is parsed once and its rules run through
:class:`~lingjun.checks.fleet._shared_runs.SharedRuns`, which runs a rule again only
when a facts section it reads is new (``bench/fleet.py``: 10,000 all-distinct
232 KB snapshots in 2.7 times the CPU time of a plain ``json.load`` of them).  A report is not checked again: its findings, summary
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

from lingjun.checks.core.inert_text import capped, inert
from lingjun.checks.core.redaction import mask_strings, mask_text
from lingjun.checks.fleet._identity import NOT_FOUND, own_cluster, own_name
from lingjun.checks.fleet._inputs import SNAPSHOT, InputProblem, Record
from lingjun.checks.fleet._node_facts import facts_values, nccl_env_shown, release_fact, report_values
from lingjun.checks.fleet._shared_runs import SharedRuns
from lingjun.checks.inputs.recorded_options import merged_options
from lingjun.checks.report.findings import SEVERITY_ORDER
from lingjun.checks.report.model import counts

__all__ = ["NodeResult", "Checker", "fingerprint", "text_fingerprint", "text_key", "report_fingerprint", "SHOWN_SEVERITIES", "field_notes",
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
    #: the node's cluster (:func:`~lingjun.checks.fleet._identity.own_cluster`), None when none is known
    cluster: Optional[str] = None
    #: why the recorded cluster is not a cluster name (one line), None when it is one or there is none
    cluster_problem: Optional[str] = None
    #: the name shown in lists of nodes: ``CLUSTER/NAME`` when the fleet spans clusters (:func:`~lingjun.checks.fleet._identity.qualify`)
    label: str = ""
    #: the file the node was read from (a log, a snapshot file, ``stdin``) and the command-line input that held it
    #: (that file, or the folder it was found in), as shown
    file: str = ""
    origin: str = ""

    def __post_init__(self) -> None:
        self.label = self.label or self.name


#: :attr:`_Checked.node_at` before the first snapshot of its text was parsed, and when no member can be trusted
_UNLEARNED, _UNUSABLE = -2, -1


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
    #: which of the text's ``"node"`` members (:func:`text_key`) is the snapshot's own: an index, None (the snapshot
    #: has no node), or _UNLEARNED / _UNUSABLE; ``others``: the texts of the other members, which must match
    node_at: Optional[int] = _UNLEARNED
    others: tuple = ()

    def learn(self, data: "dict[str, Any]", members: "list[str]") -> None:
        """Note which of ``members`` (of a text with this fingerprint) is the top-level ``"node"`` of ``data``, its
        parsed snapshot.  Texts of one fingerprint are alike outside the members cut, so in each the member at that
        place is the top-level one, wherever the key stands in the object; when it cannot be told (no member or
        two members hold the value, the value is not a flat object), every such text is parsed to be named."""
        if self.node_at != _UNLEARNED:
            return
        if "node" not in data:
            self.node_at, self.others = None, tuple(members)
            return
        hits = [i for i, member in enumerate(members) if _member_value(member) == data["node"]]
        if len(hits) == 1:
            self.node_at, self.others = hits[0], tuple(m for i, m in enumerate(members) if i != hits[0])
        else:
            self.node_at = _UNUSABLE

    def node_in(self, members: "list[str]") -> Any:
        """The ``"node"`` value of a not yet parsed text of this fingerprint (None: it has none), or
        :data:`NOT_FOUND` when it must be parsed to tell."""
        if self.node_at is None:
            return None if tuple(members) == self.others else NOT_FOUND
        if self.node_at < 0 or len(members) != len(self.others) + 1:
            return NOT_FOUND
        if tuple(m for i, m in enumerate(members) if i != self.node_at) != self.others:
            return NOT_FOUND
        return _member_value(members[self.node_at])


#: the members cut from a snapshot's text before it is fingerprinted: identity and time, a probe's ``seconds`` only
#: when it is a usable value (a small non-negative number: a negative one, 400 digits or ``1e999`` stay in the
#: fingerprint, so the note naming it is that snapshot's own, never another's reused) (keys only: a quote inside a
#: JSON string is always escaped, so these patterns cannot match inside a value).  Group 1 set: a ``"node"`` member
#: (an object without nested objects), kept aside to name the node (:meth:`_Checked.node_in`).  The one opening
#: quote before the alternatives keeps the search fast (a group at the top level makes it six times slower)
_VOLATILE = re.compile(
    r'"(?=(?:collected_at|hostname|seconds|node)")(?:'
    r'(?:collected_at|hostname)"\s*:\s*(?:null|"(?:[^"\\]|\\.)*")'
    r'|seconds"\s*:\s*(?:0|[1-9][0-9]{0,8})(?:\.[0-9]{1,17})?(?:[eE]-?[0-9]{1,2})?(?=\s*[,}])'
    r'|(node"\s*:\s*\{[^{}]*\}))'
)
_NODE_KEY = re.compile(r'"node"\s*:\s*')
_DECODER = json.JSONDecoder()


def text_key(text: str) -> "tuple[str, list[str]]":
    """``(fingerprint, node members)``: ``"t:"`` and the SHA-256 (hex) of a snapshot's JSON text without its identity
    and time members, and the text of every ``"node": {...}`` member cut, in order (any key order: the top-level one
    is told apart from a nested one by :meth:`_Checked.learn`)."""
    nodes: list[str] = []

    def cut(match: "re.Match[str]") -> str:
        if match.group(1) is not None:
            nodes.append(match.group(0))
        return ""

    trimmed = _VOLATILE.sub(cut, text)
    return "t:" + hashlib.sha256(trimmed.encode("utf-8", "surrogatepass")).hexdigest(), nodes


def text_fingerprint(text: str) -> str:
    """``"t:"`` and the SHA-256 (hex) of a snapshot's JSON text without its identity and time members."""
    return text_key(text)[0]


def _member_value(member: str) -> Any:
    """The value of one ``"node": {...}`` member's text, or :data:`NOT_FOUND` when its text is not exactly one JSON
    object (a brace inside a string ends the pattern early)."""
    match = _NODE_KEY.match(member)
    if match is None:
        return NOT_FOUND
    try:
        value, end = _DECODER.raw_decode(member, match.end())
    except (ValueError, RecursionError):
        return NOT_FOUND
    return value if end == len(member) and isinstance(value, dict) else NOT_FOUND


def field_notes(record: Record, field_problems: "list[str]") -> list:
    """One :class:`~lingjun.checks.fleet._inputs.InputProblem` per unusable field of ``record``'s snapshot (the field and
    why, as the snapshot reader words it), at most :data:`NOTES_PER_NODE` and one that counts the rest."""

    notes = [InputProblem(record.input, record.line, f"snapshot field {inert(p, 300)}", record.pod, note=True)
             for p in field_problems[:NOTES_PER_NODE]]
    if len(field_problems) > NOTES_PER_NODE:
        notes.append(InputProblem(record.input, record.line, f"and {len(field_problems) - NOTES_PER_NODE} more unusable snapshot fields",
                                  record.pod, note=True))
    return notes


def _masked(text: str) -> str:
    """``text`` with its secrets masked (identifiers kept, as ``--from`` keeps them)."""
    return mask_text(text, identifiers=False)


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
    #: ``fleet --cluster``: the cluster of the inputs that name none
    cluster: Optional[str] = None
    cache: dict = field(default_factory=dict)
    #: how many distinct snapshots were checked (the rest came from the cache)
    runs: int = 0
    #: the rule runs shared between nodes (:mod:`lingjun.checks.fleet._shared_runs`), made at the first snapshot
    shared: Any = None

    def check(self, record: Record) -> NodeResult:
        """The :class:`NodeResult` of one record, named by :func:`~lingjun.checks.fleet._identity.own_name`.

        A snapshot text seen before (its :func:`text_key` fingerprint) is not parsed: its node is read from its
        ``"node"`` member (:meth:`_Checked.node_in`) and its findings are the earlier text's.

        Raises:
            RecordError: the record's text is not a complete JSON object (a line cut short).
        """
        node: Any = NOT_FOUND
        if record.kind == SNAPSHOT:
            members: Optional[list] = None
            if record.data is None and record.text is not None:
                key, members = text_key(record.text)
            else:
                key = fingerprint(record.data or {})
            checked = self.cache.get(key)
            if checked is not None and members is not None:
                node = checked.node_in(members)
            if checked is None or (node is NOT_FOUND and record.data is None):
                data, texts = record.load_members()
                if checked is None:
                    checked = self.cache[key] = self._run(data, texts)
                if members is not None:
                    checked.learn(data, members)
        else:
            key = report_fingerprint(record.data or {})
            checked = self._from_report(record.data)
        name, source = own_name(record, node)
        name = _masked(name)  # a node name, a pod or a file name may carry a secret as any value may
        if record.data is not None:
            node = record.data.get("node")
        cluster, cluster_problem = own_cluster(node if node is not NOT_FOUND else None, self.cluster)
        cluster = _masked(cluster) if isinstance(cluster, str) else cluster
        if checked.has_errors:
            status = 1
        elif (self.strict or checked.strict) and checked.has_warnings:
            status = 2
        else:
            status = 0
        return NodeResult(name=name, source=source, input=record.where, kind="snapshot" if record.kind == SNAPSHOT else "report",
                          release=checked.release, exit_code=status, counts=checked.counts, findings=checked.findings,
                          values=checked.values, env_shown=checked.env_shown, snapshot_problems=checked.snapshot_problems,
                          findings_json=checked.findings_json, key=key, field_problems=checked.field_problems,
                          cluster=cluster, cluster_problem=cluster_problem, file=record.input,
                          origin=record.origin or record.input)

    def _run(self, data: "dict[str, Any]", texts: "Optional[dict[str, str]]" = None) -> _Checked:
        self.runs += 1
        if self.shared is None:
            self.shared = SharedRuns(data=self.data, release_option=self.release_option, lang=self.lang, require_gpu=self.require_gpu)
        facts, problems, ids = self.shared.read(data, texts)
        # the node re-checks as its own pod did (its recorded --require-gpu, --release ...); fleet's options add to them
        chosen = merged_options(facts.check_options, require_gpu=self.require_gpu, release=self.release_option)
        release, findings = self.shared.findings(facts, problems, ids, chosen)
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
            # a report written by hand or by an older checker: masked whole as a snapshot's strings are, then cut
            shown.append((capped(_masked(f["rule"]), 200), f["severity"], capped(_masked(message)) if isinstance(message, str) else ""))
        errors = tally["error"] > 0 or any(s == "error" for _, s, _ in shown) or data.get("exit_code") == 1
        warnings = tally["warning"] > 0 or any(s == "warning" for _, s, _ in shown)
        values = mask_strings(report_values(data), _masked)
        release = values["release"] if isinstance(values["release"], str) else None  # UNKNOWN is no reference
        return _Checked(release=release, counts=tally, findings=shown, findings_json=_as_json(shown), has_errors=errors, has_warnings=warnings,
                        values=values, env_shown=False, snapshot_problems=0, strict=data.get("exit_code") == 2)  # its run's --strict
