"""The runner isolates rules: a raising rule, GPU rules without a driver, --require-gpu, probe records."""

from __future__ import annotations

import pytest

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.facts import Facts, ProbeRecord
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.bundle import BUNDLE_FORMAT, KnowledgeData
from lingjun.checks.rules import RULES, rule
from lingjun.checks.report.model import exit_code, grouped
from lingjun.checks.runner import run_rule, run_rules

DATA = KnowledgeData.from_dict({"format": BUNDLE_FORMAT, "site_url": "https://kb.example"})
TEST_IDS = ["test.ok", "test.raises", "test.gpu", "test.bad-yield"]


@pytest.fixture
def test_rules():
    """Register throw-away rules and remove them afterwards."""

    @rule("test.ok", "python", "always ok", "总是通过")
    def ok(ctx):
        yield Finding(rule="test.ok", severity=Severity.ok, area="python", message=Text("fine", "好"))

    @rule("test.raises", "config", "raises", "抛出异常")
    def boom(ctx):
        raise KeyError("components")

    @rule("test.gpu", "driver", "needs a GPU", "需要 GPU", needs_gpu=True)
    def gpu(ctx):
        yield Finding(rule="test.gpu", severity=Severity.ok, area="driver", message=Text("gpu ran", "gpu"))

    @rule("test.bad-yield", "cuda", "yields junk", "产出垃圾")
    def junk(ctx):
        yield "not a finding"

    try:
        yield [RULES[i] for i in TEST_IDS]
    finally:
        for rule_id in TEST_IDS:
            RULES.pop(rule_id, None)


def _ctx(facts=None, **options):
    return CheckContext(facts=facts or Facts(), data=DATA, release=ReleaseMatch(), options=CheckOptions(**options))


def test_raising_rule_becomes_an_internal_error_and_others_still_run(test_rules):
    findings = run_rules(_ctx(), test_rules)
    by_rule = {f.rule: f for f in findings}
    assert by_rule["test.ok"].severity is Severity.ok
    assert by_rule["test.raises"].severity is Severity.error
    assert by_rule["test.raises"].message.en == "internal error in rule test.raises"
    assert by_rule["test.raises"].observed == "KeyError: 'components'"
    assert by_rule["test.raises"].area == "config"
    assert by_rule["test.bad-yield"].message.en == "internal error in rule test.bad-yield"
    assert exit_code(findings) == 1


def test_gpu_rule_is_skipped_without_driver_and_runs_with_one(test_rules):
    skipped = run_rule(RULES["test.gpu"], _ctx())
    assert [(f.severity, f.message.en, f.message.zh) for f in skipped] == [(Severity.skipped, "No NVIDIA driver in this container.", "此容器中没有 NVIDIA 驱动。")]
    assert skipped[0].links == ["https://kb.example/checker/rules/#test-gpu"]
    facts = Facts()
    facts.driver.kernel_module_version = "570.124.06"
    ran = run_rule(RULES["test.gpu"], _ctx(facts))
    assert [(f.severity, f.message.en) for f in ran] == [(Severity.ok, "gpu ran")]


def test_require_gpu_adds_one_error_when_no_rule_did(test_rules):
    findings = run_rules(_ctx(require_gpu=True), [RULES["test.ok"]])
    errors = [f for f in findings if f.severity is Severity.error]
    assert [(f.rule, f.area) for f in errors] == [("driver.present", "driver")]
    assert exit_code(findings) == 1
    assert [f for f in run_rules(_ctx(), [RULES["test.ok"]]) if f.severity is Severity.error] == []
    assert errors[0].message.en == "--require-gpu: no NVIDIA driver in this container"


def test_require_gpu_on_an_input_that_cannot_show_a_driver_says_so(test_rules):
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = ["driver", "device-nodes", "nvml", "nvidia-smi", "libcuda"]
    findings = run_rules(_ctx(facts, require_gpu=True), [RULES["test.ok"]])
    (error,) = [f for f in findings if f.severity is Severity.error]
    assert error.message.en == ("--require-gpu: the snapshot does not show whether an NVIDIA driver is present, "
                                "so a GPU cannot be confirmed")
    assert error.message.zh.startswith("--require-gpu：快照中无法看出是否有 NVIDIA 驱动")
    assert exit_code(findings) == 1


def test_probe_timeouts_errors_and_snapshot_problems_become_checker_findings():
    facts = Facts()
    facts.probes = [
        ProbeRecord(name="nvidia-smi", seconds=3.2, ok=False, error="nvidia-smi did not answer within 3 s", timed_out=True),
        ProbeRecord(name="manifest", ok=False, error="/etc/lingjun/release.json: not valid JSON"),
        ProbeRecord(name="os"),
    ]
    findings = run_rules(_ctx(facts), [], snapshot_problems=["nvml.gpus[0].index: expected an integer"])
    assert [(f.rule, f.severity) for f in findings] == [
        ("checker.probe-timeout", Severity.warning),
        ("checker.probe-error", Severity.info),
        ("checker.snapshot", Severity.warning),
    ]
    assert exit_code(findings) == 0 and exit_code(findings, strict=True) == 2


def test_grouping_follows_area_order():
    def f(area):
        return Finding(rule=f"x.{area}", severity=Severity.info, area=area, message=Text("m", "m"))

    findings = [f("known-issues"), f("driver"), f("odd-area"), f("release"), f("driver")]
    assert [(a, len(items)) for a, items in grouped(findings)] == [("release", 1), ("driver", 2), ("known-issues", 1), ("odd-area", 1)]


def test_real_rules_register_and_run_on_empty_facts():
    from lingjun.checks.runner import load_rules

    specs = load_rules()
    assert len({s.id for s in specs}) == len(specs)
    findings = run_rules(_ctx())
    assert all(isinstance(f, Finding) for f in findings)
    gpu_rules = [s.id for s in specs if s.needs_gpu]
    skipped = {f.rule for f in findings if f.severity is Severity.skipped}
    assert set(gpu_rules) <= skipped
