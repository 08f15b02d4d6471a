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


def test_only_transformer_engines_torch_build_is_rebuilt_against_a_newer_torch():
    """Transformer Engine's meta package is a pure-Python wheel and its core links CUDA, not torch: only
    transformer_engine_torch, installed before the current torch, gets the source build (whose sdist PyPI serves)."""
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.6.0", installed_at="2025-03-01T00:00:00Z"),
                           kit.dist("transformer_engine", "2.1.0", installed_at="2025-01-01T00:00:00Z"),
                           kit.dist("transformer_engine_torch", "2.1.0", installed_at="2025-01-01T00:00:00Z")]
    errors = [f for f in kit.run(RULE, kit.context(facts)) if f.severity.value == "error"]
    assert len(errors) == 1 and "transformer_engine_torch 2.1.0" in errors[0].message.en
    assert "--no-binary transformer_engine_torch 'transformer_engine_torch==2.1.0'" in errors[0].remedy.en
    assert "--no-binary transformer_engine " not in errors[0].remedy.en


def test_transformer_engine_is_upgraded_with_its_pytorch_extra_and_siblings_left_free():
    facts = Facts()
    facts.distributions = [kit.dist("flash-attn", "2.3.6"),
                           kit.dist("transformer-engine", "1.4.0", requires=["flash-attn<=2.2.1,>=2.0.6"]),
                           kit.dist("transformer-engine-cu12", "1.4.0")]
    (f,) = [f for f in kit.run(RULE, kit.context(facts)) if f.severity.value == "error"]
    assert "grep -ivE '^(transformer[-_]engine([-_](torch|cu[0-9]+))?)=='" in f.remedy.en
    assert "pip install --no-build-isolation -c /tmp/image-constraints.txt --upgrade 'transformer_engine[pytorch]'" in f.remedy.en


def test_a_pin_the_images_own_torch_cannot_meet_sends_back_to_the_images_copy():
    """torchvision 0.22.1 pins torch==2.7.1, which the image's 2.7.1.8+nv25.3 is not: no public torchvision fits."""
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = Facts()
    facts.distributions = [kit.dist("torch", "2.7.1.8+nv25.3"), kit.dist("torchvision", "0.22.1", requires=["torch==2.7.1"])]
    (f,) = [f for f in kit.run(RULE, kit.context(facts, rec=rec)) if f.severity.value == "error"]
    assert "no public torchvision release pins a torch it meets" in f.remedy.en
    assert "use the image's own torchvision (start a fresh container from the release's image" in f.remedy.en
    assert "--upgrade torchvision" not in f.remedy.en
