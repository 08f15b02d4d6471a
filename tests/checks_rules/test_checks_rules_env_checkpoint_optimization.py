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


def test_unset_says_what_the_page_says_and_nothing_more():
    # the pages say "export CHECKPOINT_OPTIMIZATION=true" to enable; they do not say it is off without it
    (finding,) = _run(None)
    assert "CHECKPOINT_OPTIMIZATION=true" in finding.message.en and " is off" not in finding.message.en
    assert "启用" in finding.message.zh and "未开启" not in finding.message.zh
