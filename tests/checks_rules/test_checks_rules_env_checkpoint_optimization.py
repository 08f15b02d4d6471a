import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "env.checkpoint-optimization"


def _run(value):
    facts = Facts()
    if value is not None:
        facts.env["CHECKPOINT_OPTIMIZATION"] = value
    return kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07")))


def test_values():
    assert kit.severities(_run("true")) == ["ok"]
    for spelling in ("True", "1", "yes"):
        assert kit.severities(_run(spelling)) == ["warning"], spelling
    assert kit.severities(_run(None)) == ["info"]
