"""container.erdma-mr-size: a registration failure on an erdma_* device names the 64 GiB max_mr_size."""

import checks_rules_kit as kit
from lingjun.checks.facts import RdmaDeviceFacts

RULE = "container.erdma-mr-size"


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_registration_failure_on_erdma_is_an_error_with_the_limit():
    facts = kit.gpu_facts()
    facts.rdma.devices = [RdmaDeviceFacts(name="erdma_0")]
    facts.symptoms.errors = ["Failed to register memory 0x7fa3ce000000: Input/output error [5]"]
    (f,) = _run(facts)
    assert f.severity.value == "error" and "64 GiB" in f.message.en and "max_mr_size" in f.remedy.en
    assert "ibv_devinfo -v | grep max_mr_size" in f.remedy.en


def test_device_named_only_in_the_error_line_counts():
    facts = kit.gpu_facts()
    facts.symptoms.errors = ["E0425 ibv_reg_mr failed on erdma_1: Cannot allocate memory"]
    assert kit.severities(_run(facts)) == ["error"]


def test_no_erdma_or_no_failure_is_skipped():
    facts = kit.gpu_facts()
    facts.rdma.devices = [RdmaDeviceFacts(name="mlx5_0")]
    facts.symptoms.errors = ["Failed to register memory 0x7fa3ce000000: Input/output error [5]"]
    assert kit.severities(_run(facts)) == ["skipped"]
    facts.rdma.devices = [RdmaDeviceFacts(name="erdma_0")]
    facts.symptoms.errors = []
    assert kit.severities(_run(facts)) == ["skipped"]
