"""container.check-identity: root with the container's capabilities is ok; another user or a pod that dropped every
capability is named (its capabilities are not the workload's); a snapshot without the facts is skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts
from lingjun.checks.probes.limits import identity_from_status

RULE = "container.check-identity"


def _run(uid, dropped, no_new=None):
    facts = Facts()
    facts.limits.uid, facts.limits.caps_dropped, facts.limits.no_new_privs = uid, dropped, no_new
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_root_with_the_containers_capabilities_is_ok():
    (f,) = _run(0, False)
    assert f.severity.value == "ok" and f.message.en.startswith("The check ran as root (uid 0)")
    assert f.observed == "uid 0"


def test_a_restricted_pod_is_named_with_what_it_dropped_and_how_to_check_the_workload():
    (f,) = _run(65534, True, True)
    assert f.severity.value == "info"
    assert f.message.en.startswith("The check ran as uid 65534 with every capability dropped and privilege escalation "
                                   "off (no_new_privs): what it saw of capabilities")
    assert f.message.zh.startswith("检查以 uid 65534、移除了所有权能并禁止提权（no_new_privs）运行")
    assert "kubectl exec" in f.remedy.en and "capabilities.add: [IPC_LOCK]" in f.remedy.en
    assert f.observed == "uid 65534, CapBnd 0"


def test_root_with_every_capability_dropped_is_named_too():
    (f,) = _run(0, True)
    assert f.severity.value == "info" and "uid 0 with every capability dropped" in f.message.en


def test_a_snapshot_without_the_identity_facts_is_skipped():
    (f,) = _run(None, None)
    assert f.severity.value == "skipped"


@pytest.mark.parametrize("status, expected", [
    ("Uid:\t1000\t1000\t1000\t1000\nCapBnd:\t000001ffffffffff\nNoNewPrivs:\t0\n", (1000, False, False)),
    ("Uid:\t0\t65534\t0\t0\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n", (65534, True, True)),
    ("Name:\tpython\n", (None, None, None)),
    ("Uid:\t-1 x\nCapBnd:\tnot-hex\nNoNewPrivs:\t2\n", (None, None, None)),
])
def test_identity_is_read_from_proc_status(status, expected):
    assert identity_from_status(status) == expected


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and util-linux setpriv")
def test_the_checker_run_as_nobody_with_every_capability_dropped_says_so(tmp_path):
    """The restricted profile's pod, reproduced with setpriv: uid 65534, bounding set empty, no_new_privs."""
    cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
           "--no-new-privs", sys.executable, "-m", "lingjun.checks", "--format", "json", "--lang", "en"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert proc.returncode in (0, 1, 2), proc.stderr
    findings = {f["rule"]: f for f in json.loads(proc.stdout)["findings"]}
    identity = findings[RULE]
    assert identity["severity"] == "info"
    assert identity["message"].startswith("The check ran as uid 65534 with every capability dropped")
