"""A snapshot checks as its live run did: for every committed fake root, the findings of the live facts and of
the facts read back from their own snapshot (``--collect`` then ``--from``) agree rule by rule and severity."""

from __future__ import annotations

import json
import os

import pytest

from checks_core_helpers import FAKEROOTS, probe_root
from lingjun.checks.cli import load_data
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict, snapshot_line
from lingjun.checks.knowledge.identify import identify
from lingjun.checks.runner import run_rules

DATA = load_data(None)
ROOTS = sorted(p for p in os.listdir(FAKEROOTS) if (FAKEROOTS / p).is_dir())
CASES = [(root, programs) for root in ROOTS for programs in (False, True) if not (programs and root == "hanging-smi")]


def _findings(facts, require_gpu: bool, problems=None) -> list[tuple[str, str]]:
    ctx = CheckContext(facts=facts, data=DATA, release=identify(facts, DATA), options=CheckOptions(require_gpu=require_gpu))
    return sorted((f.rule, f.severity.value) for f in run_rules(ctx, snapshot_problems=problems))


def test_every_fake_root_is_covered():
    assert {"mig-smi", "hanging-smi", "proprietary-x86", "rdma-erdma"} <= set(ROOTS)


@pytest.mark.parametrize("require_gpu", [False, True], ids=["plain", "require-gpu"])
@pytest.mark.parametrize("root,programs", CASES, ids=[f"{r}{'+programs' if p else ''}" for r, p in CASES])
def test_live_findings_equal_the_findings_from_its_snapshot(root, programs, require_gpu):
    facts = probe_root(root, timeout=1.0, run_root_programs=programs)
    live = _findings(facts, require_gpu)
    back, problems = facts_from_snapshot_dict(json.loads(snapshot_line(facts)))
    assert problems == []
    assert back.origin == "snapshot"
    assert _findings(back, require_gpu, problems) == live


def test_mig_smi_without_programs_warns_both_ways():
    """The case that differed: the driver's signs are there (device nodes) but no version could be read."""
    facts = probe_root("mig-smi")
    back, _ = facts_from_snapshot_dict(json.loads(snapshot_line(facts)))
    assert ("driver.present", "warning") in _findings(facts, False)
    assert ("driver.present", "warning") in _findings(back, False)


def test_a_snapshot_without_probe_records_only_does_not_show_the_version():
    """A hand-written snapshot (no probe records) that shows device nodes but no version: not known, so info."""
    facts = probe_root("mig-smi")
    data = json.loads(snapshot_line(facts))
    del data["probes"]
    back, _ = facts_from_snapshot_dict(data)
    assert ("driver.present", "info") in _findings(back, False)
