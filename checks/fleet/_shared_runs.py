"""Run the rules over the nodes of a fleet, each rule once per distinct value of the facts sections it reads.

Nodes of one fleet differ in a few observations (the bytes of ``/dev/shm`` in
use, one package), and a rule reads only some sections of the facts: the rule
``container.shm-size`` reads ``shm`` and the GPUs, not the installed
distributions.  :class:`SharedRuns` records, while a rule runs, which top-level
sections of :class:`~lingjun.checks.facts.Facts` it reads (``driver``,
``distributions``, ``env`` ...; a method or property of the facts counts with
the sections it reads).  A later node whose sections have the same content, for
every section that rule read, gets that rule's findings without running it: a
rule is a function of what it reads (the facts, the release data, the release
identified and the options; never the clock within one run, the live system or
another rule's result), so with the same values it takes the same path, reads
the same sections and says the same.  Release identification is shared the same
way.  The cache can only miss, never mix two nodes: a section's content is known
by the SHA-256 of its JSON text (the ``probes`` section without its ``seconds``,
which no rule reads: ``tests/checks_fleet/test_fleet_shared_runs.py`` holds it).

The snapshot's sections are also read once (:func:`~lingjun.checks.inputs.snapshot.facts_from_snapshot_dict`
with ``shared``): a large section (the 520 distributions of an image) whose text was seen before is not
read again.  The memory this takes is bounded (:data:`SECTIONS_KEPT` contents per section).

Costs, measured with ``bench/fleet.py`` (232 KB snapshots): a node whose snapshot text was seen before is not
parsed at all (:mod:`lingjun.checks.fleet._check`); a new text costs its JSON parse, one JSON dump of its sections
and the rules whose sections changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Optional

from lingjun.checks.confirm import confirm, withdraw
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.recorded_options import identify_with
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
from lingjun.checks.runner import checker_findings, load_rules, run_rule

__all__ = ["SharedRuns", "SECTIONS_KEPT", "traced"]

#: the most contents of one section kept read (the least recently added are dropped first)
SECTIONS_KEPT = 64
_FIELDS = frozenset(f.name for f in dataclasses.fields(Facts))
#: sections always read again: small, or changed while the facts are read (coverage is marked from all the others)
_NOT_SHARED = frozenset({"coverage", "probes", "schema", "origin", "collected_at", "node", "check_options"})


class _TracedFacts(Facts):
    """:class:`Facts` that add the name of every section read to ``_lingjun_reads`` (when it is a set)."""

    def __getattribute__(self, name: str) -> Any:
        if name in _FIELDS:
            reads = object.__getattribute__(self, "_lingjun_reads")
            if reads is not None:
                reads.add(name)
        return object.__getattribute__(self, name)


def traced(facts: Facts) -> Facts:
    """A copy of ``facts`` (sharing its sections) that records the sections read into ``copy._lingjun_reads``
    while that is a set (None: nothing recorded)."""
    copy = object.__new__(_TracedFacts)
    copy.__dict__.update(facts.__dict__)
    object.__setattr__(copy, "_lingjun_reads", None)
    return copy


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


@dataclasses.dataclass
class _Memo:
    """The results of one step (a rule, release identification) by the sections it read."""

    #: sorted section names read -> {(extra key, section ids): result}
    by_reads: dict = dataclasses.field(default_factory=dict)

    def find(self, ids: "dict[str, int]", extra: Any) -> Any:
        for names, results in self.by_reads.items():
            found = results.get((extra, tuple(ids.get(n, 0) for n in names)), _MISSING)
            if found is not _MISSING:
                return found
        return _MISSING

    def keep(self, reads: "set[str]", ids: "dict[str, int]", extra: Any, result: Any) -> None:
        names = tuple(sorted(reads))
        self.by_reads.setdefault(names, {})[(extra, tuple(ids.get(n, 0) for n in names))] = result


_MISSING = object()


@dataclasses.dataclass
class SharedRuns:
    """The rules of ``data`` run over many nodes, shared as the module docstring says.

    ``rules_run`` counts the rule runs made, ``rules_reused`` the rule results taken from another node.
    """

    data: Any
    release_option: Optional[str] = None
    lang: str = "en"
    require_gpu: bool = False
    rules_run: int = 0
    rules_reused: int = 0
    _ids: dict = dataclasses.field(default_factory=dict)
    _sections: dict = dataclasses.field(default_factory=dict)
    _identify: _Memo = dataclasses.field(default_factory=_Memo)
    _rules: dict = dataclasses.field(default_factory=dict)
    _releases: int = 0
    _specs: Optional[list] = None

    def _id(self, name: str, text: str) -> int:
        key = (name, _digest(text))
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._ids) + 1  # 0: a section the snapshot does not carry
        return found

    def read(self, data: "dict[str, Any]", texts: "Optional[dict[str, str]]" = None) -> "tuple[Facts, list[str], dict[str, int]]":
        """``(facts, problems, ids)`` of one parsed snapshot: its facts (sections read before are reused), the
        snapshot reader's problems, and the id of each section's content.  ``texts``: the JSON text of each
        top-level member as it was read (:meth:`~lingjun.checks.fleet._inputs.Record.load_members`); without them
        each section is dumped again to be known."""
        if texts is None:
            texts = {name: _dump(value) for name, value in data.items() if name in _FIELDS}
        else:
            texts = {name: text for name, text in texts.items() if name in _FIELDS}
        ids = {name: self._id(name, text) for name, text in texts.items() if name != "probes"}
        shared = {}
        for name, text in texts.items():
            if name in _NOT_SHARED:
                continue
            kept = self._sections.setdefault(name, {})
            shared[name] = (ids[name], kept)
        facts, problems = facts_from_snapshot_dict(data, shared=shared, keep=SECTIONS_KEPT)
        if isinstance(data.get("probes"), list):  # what the rules may read of the probes: never their durations
            ids["probes"] = self._id("probes", _dump([{k: v for k, v in p.items() if k != "seconds"} if isinstance(p, dict) else p
                                                      for p in data["probes"]]))
        for name in ("coverage", "schema", "origin"):  # set while reading: known by what they hold now
            ids[name] = self._id(name, repr(getattr(facts, name)))
        return facts, problems, ids

    def findings(self, facts: Facts, problems: "list[str]", ids: "dict[str, int]", chosen: Any) -> "tuple[Any, list]":
        """``(release, findings)`` of one node, as :func:`lingjun.checks.runner.run_rules` would give them with the
        options ``chosen`` (the snapshot's recorded options merged with fleet's); appends to ``problems`` what
        release identification adds.

        Raises:
            UnknownReleaseError: fleet's ``--release`` names no known release (the CLI checks it first).
        """

        seen = traced(facts)
        found = self._identify.find(ids, chosen.release)
        if found is _MISSING:
            reads: set[str] = set()
            added: list[str] = []
            object.__setattr__(seen, "_lingjun_reads", reads)
            release = identify_with(seen, self.data, chosen.release, self.release_option, added)
            object.__setattr__(seen, "_lingjun_reads", None)
            self._releases += 1
            found = (self._releases, release, added)
            self._identify.keep(reads, ids, chosen.release, found)
        release_id, release, added = found
        problems.extend(added)
        options = CheckOptions(lang=self.lang, served_model=chosen.model, gpus_per_pod=chosen.gpus_per_pod,
                               require_gpu=bool(chosen.require_gpu))
        extra = (release_id, options.served_model, options.gpus_per_pod, options.require_gpu)
        ctx = CheckContext(facts=seen, data=self.data, release=release, options=options)
        out: list = []
        if self._specs is None:
            self._specs = load_rules()
        for spec in self._specs:
            memo = self._rules.get(spec.id)
            if memo is None:
                memo = self._rules[spec.id] = _Memo()
            result = memo.find(ids, extra)
            if result is _MISSING:
                reads = set()
                object.__setattr__(seen, "_lingjun_reads", reads)
                result = run_rule(spec, ctx)
                object.__setattr__(seen, "_lingjun_reads", None)
                memo.keep(reads, ids, extra, result)
                self.rules_run += 1
            else:
                self.rules_reused += 1
            out.extend(result)
        ctx = CheckContext(facts=facts, data=self.data, release=release, options=options)
        withdraw(ctx, out)  # no logs in a fleet check: these change nothing, kept so the order is run_rules'
        confirm(ctx, out)
        out.extend(checker_findings(ctx, out, problems))
        return release, out
