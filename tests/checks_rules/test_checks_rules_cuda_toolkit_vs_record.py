import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "cuda.toolkit-vs-record"


def test_toolkit_match_and_mismatch():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = Facts()
    facts.cuda.env_cuda_version = "12.8.0.038"
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["ok"]
    facts.cuda.env_cuda_version = "12.4.1"
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["warning"]
    facts.cuda.env_cuda_version = "nonsense"
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["info"]
