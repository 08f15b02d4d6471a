import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "python.interpreter"


def test_other_python_is_error_image_python_ok():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = Facts()
    facts.python.version, facts.python.executable = "3.10.12", "/opt/conda/bin/python"
    facts.distributions = [kit.dist("numpy", "1.26.4")]
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["error"]
    facts.python.version = "3.12.7"
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["error"]  # same version, image packages invisible
    facts.distributions.append(kit.dist("torch", "2.7.1.8+nv25.3"))
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["ok"]
