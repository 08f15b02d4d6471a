import checks_rules_kit as kit
from lingjun.checks.facts import Facts

RULE = "packages.extension-abi"


def test_extension_left_behind_after_torch_change():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.7.1"), kit.dist("flash-attn", "2.7.2")]
    f = kit.run(RULE, kit.context(facts, rec=rec))
    assert kit.severities(f) == ["error"] and "flash" in f[0].message.en.lower()


def test_extension_replaced_on_image_torch_and_ok_when_intact():
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.7.1.8+nv25.3"), kit.dist("flash-attn", "2.8.3")]
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["error"]
    facts.distributions = [kit.dist("torch", "2.7.1.8+nv25.3"), kit.dist("flash-attn", "2.7.2")]
    assert kit.severities(kit.run(RULE, kit.context(facts, rec=rec))) == ["ok"]


def test_torch_pin_and_te_meta_package():
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.0.1"), kit.dist("torchvision", "0.15.0a0", requires=["torch==1.14.0a0+410ce96"]),
                           kit.dist("transformer-engine", "1.11.0", installer="pip")]
    f = kit.run(RULE, kit.context(facts))
    assert kit.severities(f) == ["error", "error"]
    facts.distributions.append(kit.dist("transformer-engine-cu12", "1.11.0"))
    facts.distributions[1] = kit.dist("torchvision", "0.15.0a0", requires=["torch==2.0.1"])
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["ok"]
