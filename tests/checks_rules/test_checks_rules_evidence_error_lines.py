"""evidence.error-lines: an error line of the logs is an error; its cause is ranked by what the facts show."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual, context, data, run
from lingjun.checks.confirm import confirm
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.report.findings import Severity
from lingjun.checks.runner import run_rules

RULE = "evidence.error-lines"
#: NVIDIA/nccl#290, the fixture signature nccl-shm-no-space
SHM_LINE = "include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device"
GIB = 1 << 30


def _ctx(facts: Facts, lines=(SHM_LINE,), **options):
    facts.symptoms.errors = list(lines)
    kd = data()
    ctx = context(facts, kd, **options)
    ctx.evidence = gather_evidence(kd, facts, [], "case.json")
    return ctx


def _shm(size: "int | None") -> Facts:
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = ["env"]  # as a snapshot without "env" reads: where it runs is not known
    facts.shm.present = True
    facts.shm.size_bytes = size
    return facts


def test_without_logs_or_error_lines_the_rule_is_skipped():
    findings = run(RULE, context(Facts()))
    assert [f.severity for f in findings] == [Severity.skipped]
    assert "--log FILE" in findings[0].message.en


def test_a_log_without_known_lines_is_ok_and_names_the_logs(tmp_path):
    log = tmp_path / "job.log"
    log.write_text("epoch 1 loss 2.31\nepoch 2 loss 2.02\n")
    kd = data()
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    findings = run(RULE, ctx)
    assert [f.severity for f in findings] == [Severity.ok]
    assert str(log) in findings[0].message.en


def test_a_quoted_error_line_no_signature_knows_is_an_error_quoting_it():
    findings = run(RULE, _ctx(Facts(), lines=["RuntimeError: something nobody recorded"]))
    assert [f.severity for f in findings] == [Severity.error]
    assert "shows an error line no recorded signature matches: \u00abRuntimeError: something nobody recorded\u00bb" in findings[0].message.en


def test_a_small_shm_makes_the_first_cause_apply():
    findings = run(RULE, _ctx(_shm(64 << 20)))
    assert [f.severity for f in findings] == [Severity.error]
    message = findings[0].message.en
    assert "case.json: symptoms.errors shows: \u00ab" + SHM_LINE + "\u00bb" in message
    assert "Most likely cause here: /dev/shm is smaller than the ranks of this node need (the size of /dev/shm is 64 MiB)" in message
    assert "Ruled out by what the input shows: /dev/shm is large enough but already filled" in message
    assert_bilingual(findings)


def test_a_large_shm_rules_out_the_size_and_leads_with_a_full_shm():
    message = run(RULE, _ctx(_shm(16 * GIB)))[0].message.en
    assert "Most likely cause here: /dev/shm is large enough but already filled" in message
    assert "Ruled out by what the input shows: /dev/shm is smaller than the ranks of this node need (the size of /dev/shm is 16 GiB, not below 1 GiB)" in message


def test_an_unknown_shm_still_diagnoses_and_says_what_is_not_shown():
    finding = run(RULE, _ctx(Facts(origin="snapshot")))[0]
    assert finding.severity is Severity.error
    assert "the input does not show the size of /dev/shm, so this is not confirmed" in finding.message.en
    assert "Other possible causes: /dev/shm is large enough but already filled" in finding.message.en


@pytest.mark.parametrize("env, places", [
    # a pod's environment does not tell an ACS pod from another: both
    ({"KUBERNETES_SERVICE_HOST": "10.0.0.1"}, ["Kubernetes:", "ACS GPU pod:"]),
    ({"KUBERNETES_SERVICE_HOST": "10.0.0.1", "ALIBABA_CLOUD_REGION_ID": "cn-wulanchabu"}, ["ACS GPU pod:"]),
    ({}, ["Docker:"]),
])
def test_the_remedy_is_for_the_place_the_input_shows(env, places):
    facts = _shm(64 << 20)
    facts.origin = "live"  # a live run reads the whole environment
    facts.coverage.not_available = []
    facts.env = dict(env)
    remedy = run(RULE, _ctx(facts))[0].remedy.en
    for label in ("Docker:", "Kubernetes:", "ACS GPU pod:"):
        assert (label in remedy) == (label in places), remedy


def test_with_the_place_unknown_every_place_gets_its_remedy():
    remedy = run(RULE, _ctx(_shm(64 << 20))).pop().remedy.en
    assert "Docker: Start the container with --shm-size=16g" in remedy
    assert "Kubernetes: Mount an emptyDir volume with medium: Memory" in remedy and "ACS GPU pod:" in remedy


def test_a_warning_the_line_confirms_becomes_an_error():
    facts = _shm(64 << 20)  # one GPU or an unknown count: container.shm-size alone warns
    ctx = _ctx(facts)
    findings = run_rules(ctx)
    shm = [f for f in findings if f.rule == "container.shm-size"]
    assert [f.severity for f in shm] == [Severity.error]
    assert "The logs confirm it: case.json: symptoms.errors shows" in shm[0].message.en


def test_a_cause_ruled_out_confirms_nothing():
    facts = _shm(16 * GIB)
    ctx = _ctx(facts)
    findings = run("container.shm-size", ctx)
    before = [f.severity for f in findings]
    confirm(ctx, findings)
    assert [f.severity for f in findings] == before == [Severity.ok]


def test_a_log_showing_nccl_on_infiniband_withdraws_the_rdma_unusable_prediction(tmp_path):
    from lingjun.checks.facts import RdmaDeviceFacts, RdmaPortFacts

    facts = Facts(origin="snapshot")
    facts.rdma.devices = [RdmaDeviceFacts("mlx5_0", [RdmaPortFacts(1, "ACTIVE", "LinkUp", "InfiniBand")], uverbs=None)]
    log = tmp_path / "job.log"
    log.write_text("host:1:2 [0] NCCL INFO Using network IB\n")
    kd = data()
    ctx = context(facts, kd)
    ctx.evidence = gather_evidence(kd, facts, [str(log)])
    rdma = [f for f in run_rules(ctx) if f.rule == "container.rdma-usable"]
    assert [f.severity for f in rdma] == [Severity.info]
    assert f"The logs disprove this prediction: {log}:1 shows NCCL using its InfiniBand/RoCE transport." in rdma[0].message.en


def test_an_error_line_takes_the_remedy_its_causes_rule_computed_for_the_node():
    """pytorch/pytorch#110153's collect_env paste: the arch warning's generic "install a torch whose architecture
    list includes the GPU" gives way to cuda.compute-capability's wheel for this torch release (one remedy, not two)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    paste = Path(__file__).resolve().parents[1] / "fixtures" / "reports" / "T01-pytorch-110153-h100-sm90.txt"
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from-collect-env", str(paste), "--format", "json",
                           "--lang", "en"], capture_output=True, text=True, timeout=120)
    findings = json.loads(proc.stdout)["findings"]
    (line,) = [f for f in findings if f["rule"] == "evidence.error-lines"]
    (arch,) = [f for f in findings if f["rule"] == "cuda.compute-capability" and f["severity"] == "error"]
    assert line["remedy"] == f"{arch['remedy']} (from cuda.compute-capability, for this node)"
    assert "pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118" in line["remedy"]


def test_a_bare_exception_line_ending_a_log_is_an_unknown_error_line():
    # a plain Exception, as SGLang's start-up raises them (redai-studio/Relax#8), with a message no record knows
    line = "Exception: the shard index lists no weights for layer 31."
    findings = run(RULE, _ctx(Facts(), lines=[line]))
    assert [f.severity for f in findings] == [Severity.error]
    assert "Exception: the shard index lists no weights" in findings[0].message.en


def test_a_bare_exception_line_in_a_log_is_an_unknown_error_line(tmp_path):
    from signature_cases_kit import findings_for_log

    found = findings_for_log(tmp_path, ["[2026-01-05 10:00:01] Loading model",
                                        "Exception: the shard index lists no weights for layer 31."])
    assert [f.severity for f in found] == [Severity.error]
    assert "job.log:2 shows an error line no recorded signature matches" in found[0].message.en
